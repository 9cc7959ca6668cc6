/**
 * The methods an experiment can use to look for contamination, each with its own runs:
 * - REPLICATION: the study's memorization settings (and performance), judged exact / near-exact / inexact;
 * - GUIDED_GENERAL: Time Travel's Algorithm 1, the guided instruction (full information) against the general one
 *   (the GENERAL_INSTRUCTION setting), scored by ROUGE-L and bootstrapped;
 * - QUIZ: the Data Contamination Quiz: generated options, the bias detector quiz and the bias compensator quizzes;
 * - LOGPROB: the log-probability the model gives each instance's text (loss, zlib, Min-K%, Min-K%++, a reference
 *   model's ratio), for open-weight models served with prompt log-probabilities; no recitation needed;
 * - CDD: Dong et al.'s contamination detection via output distribution: one greedy and N sampled continuations of
 *   each instance's first piece; an instance is leaked when the samples sit peaked around the greedy one;
 * - NGRAM_COVERAGE: Hallinan et al.'s n-gram coverage: N sampled continuations of each first piece, and how much of
 *   the true continuation they reproduce in runs of n words;
 * - CODEC: Zawalski et al.'s contamination detection via context: the model's mean log-likelihood of each instance
 *   with another instance of the same sample in context against without it; memorized instances gain less (or lose)
 *   from the context. Needs prompt log-probabilities, as LOGPROB does;
 * - TS_GUESSING: Deng et al.'s testset slot guessing: one content word of each instance masked, the model asked for
 *   it in one word; a model that saw the instance fills it in more often than the control's.
 */
export enum StudyMethod {
  REPLICATION = "REPLICATION",
  GUIDED_GENERAL = "GUIDED_GENERAL",
  QUIZ = "QUIZ",
  LOGPROB = "LOGPROB",
  CDD = "CDD",
  NGRAM_COVERAGE = "NGRAM_COVERAGE",
  CODEC = "CODEC",
  TS_GUESSING = "TS_GUESSING",
}

/**
 * What an experiment uses unless told otherwise: the study's grid, its settings as given (by default every one,
 * the general-instruction control included, so Algorithm 1 is computed too). Naming GUIDED_GENERAL adds its two
 * settings to settings given without them.
 */
export const DEFAULT_METHODS: readonly StudyMethod[] = [StudyMethod.REPLICATION];

export const METHOD_NAMES = [
  "replication",
  "guided-general",
  "quiz",
  "logprob",
  "cdd",
  "ngram-coverage",
  "codec",
  "ts-guessing",
] as const;

const METHOD_BY_NAME: Record<(typeof METHOD_NAMES)[number], StudyMethod> = {
  replication: StudyMethod.REPLICATION,
  "guided-general": StudyMethod.GUIDED_GENERAL,
  quiz: StudyMethod.QUIZ,
  logprob: StudyMethod.LOGPROB,
  cdd: StudyMethod.CDD,
  "ngram-coverage": StudyMethod.NGRAM_COVERAGE,
  codec: StudyMethod.CODEC,
  "ts-guessing": StudyMethod.TS_GUESSING,
};

/** A method from its command-line spelling or its API name; null when it is neither. */
export function methodNamed(value: string): StudyMethod | null {
  return (
    METHOD_BY_NAME[value as (typeof METHOD_NAMES)[number]] ??
    Object.values(StudyMethod).find((name) => name === value) ??
    null
  );
}

/** Methods from their command-line spellings; a clear error names the ones it does not know. */
export function parseMethods(names: string[]): StudyMethod[] {
  const methods = names.map((name) => methodNamed(name));
  const unknown = names.filter((_, index) => methods[index] === null);
  if (unknown.length > 0)
    throw new Error(`unknown method(s) ${unknown.join(", ")}: use ${METHOD_NAMES.join(", ")}`);
  return methods as StudyMethod[];
}
