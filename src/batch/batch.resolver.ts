import { Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import { Context } from "../graphql/context";
import { Run } from "../run/run.entity";
import { ProviderBatch } from "./provider-batch.entity";

/** A run's provider batches: the batch concept's field on a run. */
@Resolver(() => Run)
export class RunBatchesResolver {
  @FieldResolver(() => [ProviderBatch], {
    description:
      "Its batches at the provider's Batch API, oldest first (state, the provider's status and counts); empty for a " +
      "run whose calls are made online.",
  })
  batches(@Root() run: Run, @Ctx() { loaders }: Context) {
    return run.batchAttempts > 0 ? loaders.runBatches.load(run.id) : [];
  }
}
