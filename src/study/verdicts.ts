/** A judge's verdict on a memorization completion: the method's three match categories, and an unreadable answer. */
export enum Verdict {
  EXACT = "EXACT",
  NEAR_EXACT = "NEAR_EXACT",
  INEXACT = "INEXACT",
  /** A judge answered something that could not be read as a verdict. */
  UNPARSEABLE = "UNPARSEABLE",
}

/** Who gave a verdict. */
export enum JudgeKind {
  LLM = "LLM",
  HEURISTIC = "HEURISTIC",
  HUMAN = "HUMAN",
}
