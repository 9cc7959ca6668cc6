import { DeletionService } from "./deletion.service";

/** What deletion adds to the request context (src/graphql/context.ts). */
declare module "../graphql/context" {
  interface Services {
    deletions: DeletionService;
  }
}
