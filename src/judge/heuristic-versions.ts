/**
 * The heuristic versions a run or a rejudge can choose, oldest first; each stays as it was (heuristic-judge.ts says
 * what each reads). No imports: the CLI's help reads it without loading the judge.
 */
export const HEURISTIC_JUDGE_VERSIONS = ["heuristic-5", "heuristic-6", "heuristic-7", "heuristic-8"] as const;
export type HeuristicJudgeVersion = (typeof HEURISTIC_JUDGE_VERSIONS)[number];
