import { Arg, Args, Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import { ConnectionType } from "../graphql/connection";
import { Context } from "../graphql/context";
import { PageArgs } from "../graphql/page-args";
import { Run } from "../run/run.entity";
import { SampledInstance } from "../sample/sampled-instance.entity";
import { Completion, CompletionStatus } from "./completion.entity";

export const CompletionConnection = ConnectionType("Completion", Completion);

/** A run's completions: the completion concept's field on a run. */
@Resolver(() => Run)
export class RunCompletionsResolver {
  @FieldResolver(() => CompletionConnection, { description: "The run's completions in creation order." })
  completions(
    @Root() run: Run,
    @Args() { first, after }: PageArgs,
    @Arg("status", () => CompletionStatus, { nullable: true }) status: CompletionStatus | undefined,
    @Ctx() { loaders }: Context,
  ) {
    return loaders.completionPage.load({
      runId: run.id,
      first,
      after: after ?? null,
      status: status ?? null,
    });
  }
}

@Resolver(() => Completion)
export class CompletionResolver {
  @FieldResolver(() => SampledInstance, { description: "The instance under test and its segments." })
  sampledInstance(@Root() completion: Completion, @Ctx() { loaders }: Context) {
    return loaders.sampledInstance.load(completion.sampledInstanceId);
  }

  @FieldResolver(() => Run, { description: "The run it belongs to (its kind, setting, k, model)." })
  async run(@Root() completion: Completion, @Ctx() { loaders }: Context) {
    return loaders.run.load(completion.runId);
  }
}
