/** What counts as memorized. */
export enum MemorizationMeasure {
  /** The study's main measure. */
  EXACT_OR_NEAR_EXACT = "EXACT_OR_NEAR_EXACT",
  EXACT_ONLY = "EXACT_ONLY",
}

/** What a breakdown's rows are grouped by. */
export enum BreakdownGroup {
  DATASET = "DATASET",
  /** Each sample of a dataset apart (a sample is one seeded draw of instances and demonstrations). */
  SAMPLE = "SAMPLE",
  SETTING = "SETTING",
  SHOTS = "SHOTS",
  REGIME = "REGIME",
}

/** How a rate's interval is computed. */
export enum IntervalMethod {
  /** Wilson score interval: each instance counts once in the row. */
  WILSON = "WILSON",
  /** Percentile bootstrap resampling whole instances (2,000 resamples, fixed seed): instances count several times. */
  CLUSTER_BOOTSTRAP = "CLUSTER_BOOTSTRAP",
  /**
   * Wilson score interval with each instance one unit: where the cluster bootstrap has no width (0 or all events,
   * or every instance at the same rate), so the interval never claims certainty.
   */
  WILSON_BY_INSTANCE = "WILSON_BY_INSTANCE",
}
