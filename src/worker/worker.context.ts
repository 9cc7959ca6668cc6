import { WorkerService } from "./worker.service";

/** What workers add to the request context (src/graphql/context.ts). */
declare module "../graphql/context" {
  interface Services {
    workers: WorkerService;
  }
}
