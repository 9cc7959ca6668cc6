import { ExperimentService } from "./experiment.service";

/** What experiments add to the request context (src/graphql/context.ts). */
declare module "../graphql/context" {
  interface Services {
    experiments: ExperimentService;
  }
}
