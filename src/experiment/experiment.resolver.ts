import { Arg, Args, Ctx, ID, Int, Query, Resolver } from "type-graphql";
import { Context } from "../graphql/context";
import { PageArgs } from "../graphql/page-args";
import { Experiment } from "./experiment.entity";
import { ExperimentConnection, ExperimentFilter } from "./experiment.types";

@Resolver(() => Experiment)
export class ExperimentResolver {
  @Query(() => Experiment)
  experiment(@Arg("id", () => ID) id: string, @Ctx() { services }: Context) {
    return services.experiments.get(id);
  }

  @Query(() => ExperimentConnection, { description: "Experiments, newest first, with their progress." })
  experiments(
    @Args() { first, after }: PageArgs,
    @Arg("filter", () => ExperimentFilter, { nullable: true }) filter: ExperimentFilter | undefined,
    @Ctx() { services }: Context,
  ) {
    return services.experiments.list(first, after ?? null, filter);
  }

  @Query(() => Int)
  experimentCount(
    @Arg("filter", () => ExperimentFilter, { nullable: true }) filter: ExperimentFilter | undefined,
    @Ctx() { services }: Context,
  ) {
    return services.experiments.count(filter);
  }
}
