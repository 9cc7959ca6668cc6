/** What a dataset's instances are, which decides how they are cut into segments. */
export enum TaskKind {
  /** Two texts (premise, hypothesis): segments are the first and the second text. */
  NLI = "NLI",
  /** One text: segments come from a random cut between 60% and 80% of its tokens. */
  CLASSIFICATION = "CLASSIFICATION",
}
