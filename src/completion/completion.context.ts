import DataLoader from "dataloader";
import { Page } from "../graphql/connection";
import { keyedByValue } from "../graphql/loaders";
import { Completion } from "./completion.entity";
import { CompletionService } from "./completion.service";

interface CompletionPageKey {
  runId: string;
  first: number;
  after: string | null;
  status: string | null;
}

/** What completions add to the request context (src/graphql/context.ts). */
declare module "../graphql/context" {
  interface Services {
    completions: CompletionService;
  }
  interface Loaders {
    completionPage: DataLoader<CompletionPageKey, Page<Completion>, string>;
  }
}

export function completionLoaders(completions: CompletionService) {
  return {
    completionPage: keyedByValue((keys: readonly CompletionPageKey[]) => completions.completionPages(keys)),
  };
}
