/** The three match categories of the method, and a judge's unreadable answer. */
export type JudgeVerdict = "EXACT" | "NEAR_EXACT" | "INEXACT" | "UNPARSEABLE";

/** Memorized = exact or near-exact (the study's measure). */
export function isMemorized(verdict: JudgeVerdict): boolean {
  return verdict === "EXACT" || verdict === "NEAR_EXACT";
}

/** Gold-file labels (`exact`, `near_exact`, `inexact`) as verdicts. */
export function verdictFromLabel(label: string): JudgeVerdict | null {
  const normalized = label
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, "_");
  if (normalized === "exact") return "EXACT";
  if (normalized === "near_exact") return "NEAR_EXACT";
  if (normalized === "inexact") return "INEXACT";
  return null;
}
