import { mean, sampleStandardDeviation } from "simple-statistics";

/** Mean and sample standard deviation (null for fewer than two values). */
export function meanAndSpread(values: readonly number[]): {
  mean: number | null;
  standardDeviation: number | null;
} {
  if (values.length === 0) return { mean: null, standardDeviation: null };
  return {
    mean: mean([...values]),
    standardDeviation: values.length > 1 ? sampleStandardDeviation([...values]) : null,
  };
}
