import DataLoader from "dataloader";
import { ProviderRegistry } from "../llm/provider-registry";
import { ProgressHub } from "./progress";
import { Run } from "./run.entity";
import { RunService } from "./run.service";
import { RunLifecycle } from "./run-lifecycle";

/** What runs add to the request context: their lifecycle, live progress, and the providers they call. */
declare module "../graphql/context" {
  interface Services {
    runs: RunService;
    runLifecycle: RunLifecycle;
    /** Live progress for subscriptions: one poller per watched run or experiment. */
    progress: ProgressHub;
    providers: ProviderRegistry;
  }
  interface Loaders {
    experimentRuns: DataLoader<string, Run[]>;
    run: DataLoader<string, Run | null>;
  }
}

export function runLoaders(runs: RunService) {
  return {
    experimentRuns: new DataLoader((ids: readonly string[]) => runs.runsByExperiments(ids)),
    run: new DataLoader((ids: readonly string[]) => runs.runsByIds(ids)),
  };
}
