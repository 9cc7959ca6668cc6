import DataLoader from "dataloader";
import { Judgment } from "./judgment.entity";
import { JudgmentService } from "./judgment.service";

/** What judgments add to the request context (src/graphql/context.ts). */
declare module "../graphql/context" {
  interface Services {
    judgments: JudgmentService;
  }
  interface Loaders {
    judgmentHistory: DataLoader<string, Judgment[]>;
    effectiveJudgment: DataLoader<string, Judgment | null>;
  }
}

export function judgmentLoaders(judgments: JudgmentService) {
  return {
    judgmentHistory: new DataLoader((ids: readonly string[]) => judgments.historyByCompletions(ids)),
    effectiveJudgment: new DataLoader((ids: readonly string[]) => judgments.effectiveByCompletions(ids)),
  };
}
