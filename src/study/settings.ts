/**
 * What a run asks of the model: replicate the instance (memorization), do the task (performance), or the Data
 * Contamination Quiz's two steps: write four word-level perturbations of each instance (quiz options), and pick
 * the original among options (quiz: the bias detector quiz without the original, a bias compensator quiz with it
 * at one letter).
 */
export enum RunKind {
  MEMORIZATION = "MEMORIZATION",
  PERFORMANCE = "PERFORMANCE",
  QUIZ_OPTIONS = "QUIZ_OPTIONS",
  QUIZ = "QUIZ",
  /** The log-probability of each token of the instance's text (the LOGPROB method): no answer is generated. */
  LOGPROB = "LOGPROB",
  /**
   * Continuations of each instance's first piece, sampled (the CDD method): a greedy run at temperature 0 and a
   * sampled run of N repeats at the method's temperature; the answers are compared with each other, not judged.
   */
  CONTINUATION = "CONTINUATION",
  /**
   * The instance with one content word masked, the model asked for the word (the TS-Guessing method); the answer is
   * compared with the masked word, not judged.
   */
  GUESSING = "GUESSING",
}

/**
 * What a sampling method's continuation prompt shows: the guided instruction with the first piece (the
 * replication's full-information prompt at k = 0, for chat models) or the first piece alone, raw (for base models,
 * which continue text and follow no instruction; sent to a completions endpoint).
 */
export enum ContinuationPrompt {
  GUIDED = "GUIDED",
  RAW = "RAW",
}

/** The kinds a grid's `kinds` take; the quiz's runs come with the QUIZ method. */
export const GRID_KINDS: readonly RunKind[] = [RunKind.MEMORIZATION, RunKind.PERFORMANCE];

/**
 * How much a memorization prompt contains: the study's three settings, and the general instruction, a control
 * (Time Travel's Algorithm 1: the same task and fields as full information, without naming dataset or split).
 */
export enum MemorizationSetting {
  FULL_INFORMATION = "FULL_INFORMATION",
  SEGMENT_PAIRS_AND_LABELS = "SEGMENT_PAIRS_AND_LABELS",
  ONLY_SEGMENT_PAIRS = "ONLY_SEGMENT_PAIRS",
  GENERAL_INSTRUCTION = "GENERAL_INSTRUCTION",
}

/** The settings in the study's order (most information first, the control last): tables and figures list them so. */
export const SETTING_ORDER: readonly MemorizationSetting[] = [
  MemorizationSetting.FULL_INFORMATION,
  MemorizationSetting.SEGMENT_PAIRS_AND_LABELS,
  MemorizationSetting.ONLY_SEGMENT_PAIRS,
  MemorizationSetting.GENERAL_INSTRUCTION,
];

/** The settings a study runs unless told otherwise: every one, the control included. */
export const DEFAULT_SETTINGS: readonly MemorizationSetting[] = SETTING_ORDER;

/** The settings as the command line spells them. */
export const SETTING_NAMES = [
  "full-information",
  "segment-pairs-and-labels",
  "only-segment-pairs",
  "general-instruction",
] as const;

export type SettingName = (typeof SETTING_NAMES)[number];

const SETTING_BY_NAME: Record<SettingName, MemorizationSetting> = {
  "full-information": MemorizationSetting.FULL_INFORMATION,
  "segment-pairs-and-labels": MemorizationSetting.SEGMENT_PAIRS_AND_LABELS,
  "only-segment-pairs": MemorizationSetting.ONLY_SEGMENT_PAIRS,
  "general-instruction": MemorizationSetting.GENERAL_INSTRUCTION,
};

/** A setting from its command-line spelling or its API name; null when it is neither. */
export function settingNamed(value: string): MemorizationSetting | null {
  return (
    SETTING_BY_NAME[value as SettingName] ??
    Object.values(MemorizationSetting).find((name) => name === value) ??
    null
  );
}
