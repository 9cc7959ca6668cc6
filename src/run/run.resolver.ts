import {
  Arg,
  Args,
  Ctx,
  FieldResolver,
  ID,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
  SubscribeResolverData,
  Subscription,
} from "type-graphql";
import { Experiment } from "../experiment/experiment.entity";
import { ConnectionType } from "../graphql/connection";
import { Context } from "../graphql/context";
import { PageArgs } from "../graphql/page-args";
import { Sample } from "../sample/sample.entity";
import { ExperimentProgress, ExperimentProgressEvent, experimentProgress } from "./experiment-progress";
import { Run } from "./run.entity";
import {
  RunFilter,
  RunIdInput,
  RunPayload,
  StartExperimentInput,
  StartExperimentPayload,
  StartRunInput,
  StartRunPayload,
} from "./run.inputs";

export const RunConnection = ConnectionType("Run", Run);

@Resolver(() => Run)
export class RunResolver {
  @Mutation(() => StartRunPayload, {
    description: "Queues one run and returns at once; workers make the calls.",
  })
  async startRun(@Arg("input") input: StartRunInput, @Ctx() { services }: Context) {
    const started = await services.runLifecycle.startRun(input);
    return { ...started, warnings: await services.workers.warningsFor(started.run.provider) };
  }

  @Mutation(() => StartExperimentPayload, {
    description: "Queues the grid for one model (samples x k x settings + performance) and returns at once.",
  })
  async startExperiment(@Arg("input") input: StartExperimentInput, @Ctx() { services, logger }: Context) {
    const started = await services.runLifecycle.startExperiment(input);
    // The samples' no-memory floors, stored before a dashboard asks for the first report (which would otherwise
    // compute them): drawing a sample stores them, so this finds them stored unless an import grew the dataset
    // since (or a sample is older than that); best effort, as a report computes whatever is missing.
    services.samples.floors
      .of(input.sampleIds)
      .catch((error) => logger.warn({ err: error }, "could not store the samples' no-memory floors"));
    return { ...started, warnings: await services.workers.warningsFor(input.provider) };
  }

  @Mutation(() => RunPayload, {
    description: "Stops new calls; calls in flight are stored when they return.",
  })
  cancelRun(@Arg("input") input: RunIdInput, @Ctx() { services }: Context) {
    return services.runLifecycle.cancel(input.runId);
  }

  @Mutation(() => RunPayload, {
    description: "Queues exactly what is missing of a cancelled, failed or stalled run.",
  })
  resumeRun(@Arg("input") input: RunIdInput, @Ctx() { services }: Context) {
    return services.runLifecycle.resume(input.runId);
  }

  @Mutation(() => RunPayload, { description: "Queues the run's failed completions again." })
  retryFailedCompletions(@Arg("input") input: RunIdInput, @Ctx() { services }: Context) {
    return services.runLifecycle.retryFailed(input.runId);
  }

  @Query(() => Run)
  run(@Arg("id", () => ID) id: string, @Ctx() { services }: Context) {
    return services.runs.get(id);
  }

  @Query(() => RunConnection, { description: "Runs, oldest first." })
  runs(
    @Args() { first, after }: PageArgs,
    @Arg("filter", () => RunFilter, { nullable: true }) filter: RunFilter | undefined,
    @Ctx() { services }: Context,
  ) {
    return services.runs.list(first, after ?? null, filter);
  }

  @Query(() => Int)
  runCount(
    @Arg("filter", () => RunFilter, { nullable: true }) filter: RunFilter | undefined,
    @Ctx() { services }: Context,
  ) {
    return services.runs.count(filter);
  }

  @Subscription(() => Run, {
    description:
      "Live progress of a run (counts, status, tokens, cost, last error): its current state first, then each change " +
      "(at most twice a second), read from the database, so work done by any worker process shows. Ends when the " +
      "run is finished. Over graphql-ws on /graphql.",
    subscribe: async ({ args, context }: SubscribeResolverData<unknown, { runId: string }, Context>) => {
      await context.services.runs.get(args.runId);
      return context.services.progress.watch(
        `run:${args.runId}`,
        async () => ({ runs: [await context.services.runs.get(args.runId)] }),
        ({ runs }) => runs[0],
      );
    },
  })
  runProgress(@Arg("runId", () => ID) _runId: string, @Root() run: Run): Run {
    return run;
  }

  @Subscription(() => ExperimentProgressEvent, {
    description:
      "Live progress of an experiment: its runs and their sum, the current state first, then each change (at most " +
      "twice a second). Ends when every run is finished.",
    subscribe: async ({
      args,
      context,
    }: SubscribeResolverData<unknown, { experimentId: string }, Context>) => {
      await context.services.experiments.get(args.experimentId);
      return context.services.progress.watch(
        `experiment:${args.experimentId}`,
        async () => {
          const experiment = await context.services.experiments.get(args.experimentId);
          const [runs] = await context.services.runs.runsByExperiments([args.experimentId]);
          return { runs, budgetUsd: experiment.maxCostUsd };
        },
        ({ runs, budgetUsd }): ExperimentProgressEvent => ({
          experimentId: args.experimentId,
          progress: experimentProgress(runs, budgetUsd ?? null),
          runs,
        }),
      );
    },
  })
  experimentProgress(
    @Arg("experimentId", () => ID) _experimentId: string,
    @Root() event: ExperimentProgressEvent,
  ): ExperimentProgressEvent {
    return event;
  }

  @FieldResolver(() => Sample)
  sample(@Root() run: Run, @Ctx() { loaders }: Context) {
    return loaders.sample.load(run.sampleId);
  }
}

/** An experiment's runs and their sum: the run concept's fields on an experiment. */
@Resolver(() => Experiment)
export class ExperimentRunsResolver {
  @FieldResolver(() => [Run])
  runs(@Root() experiment: Experiment, @Ctx() { loaders }: Context) {
    return loaders.experimentRuns.load(experiment.id);
  }

  @FieldResolver(() => Date, {
    description: "When anything in the experiment last changed: the latest of its runs' lastUpdatedAt.",
  })
  async lastUpdatedAt(@Root() experiment: Experiment, @Ctx() { loaders }: Context) {
    const runs = await loaders.experimentRuns.load(experiment.id);
    return new Date(Math.max(experiment.createdAt.getTime(), ...runs.map((run) => run.updatedAt.getTime())));
  }

  @FieldResolver(() => ExperimentProgress, {
    description: "Its runs, summed (status, counts, cost, last error).",
  })
  async progress(@Root() experiment: Experiment, @Ctx() { loaders }: Context) {
    return experimentProgress(await loaders.experimentRuns.load(experiment.id), experiment.maxCostUsd);
  }
}
