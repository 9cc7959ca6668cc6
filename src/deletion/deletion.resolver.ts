import { Arg, Ctx, Mutation, Resolver } from "type-graphql";
import { Context } from "../graphql/context";
import { DeleteInput, DeletePayload } from "./deletion.types";

@Resolver()
export class DeletionResolver {
  @Mutation(() => DeletePayload, {
    description:
      "Deletes an experiment with its runs, completions and judgments, and their waiting queue jobs. Refused while " +
      "one of its runs is active. `dryRun: true` says what would go.",
  })
  deleteExperiment(@Arg("input") input: DeleteInput, @Ctx() { services }: Context) {
    return services.deletions.deleteExperiment(input.id, input.dryRun);
  }

  @Mutation(() => DeletePayload, {
    description: "Deletes a sample (its instances under test and demonstrations). Refused while runs use it.",
  })
  deleteSample(@Arg("input") input: DeleteInput, @Ctx() { services }: Context) {
    return services.deletions.deleteSample(input.id, input.dryRun);
  }

  @Mutation(() => DeletePayload, {
    description:
      "Deletes a dataset with its files, instances and samples. Refused while runs use one of its samples.",
  })
  deleteDataset(@Arg("input") input: DeleteInput, @Ctx() { services }: Context) {
    return services.deletions.deleteDataset(input.id, input.dryRun);
  }
}
