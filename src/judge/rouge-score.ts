// ROUGE-L F as Google's rouge_score computes it (the package Time Travel's Algorithm 1 used). Pure.

/** rouge_score's tokenizer, without a stemmer: lower case, every run of non-alphanumerics a space. */
export function rougeScoreTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .split(/\s+/)
    .filter((token) => /^[a-z0-9]+$/.test(token));
}

function lcsLength(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  let previous = new Uint32Array(b.length + 1);
  let current = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1)
      current[j] = a[i - 1] === b[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], current[j - 1]);
    [previous, current] = [current, previous];
    current.fill(0);
  }
  return previous[b.length];
}

/** ROUGE-L F-measure of a candidate against a reference (0 when either has no token). */
export function rougeLFMeasure(reference: string, candidate: string): number {
  const ref = rougeScoreTokens(reference);
  const cand = rougeScoreTokens(candidate);
  const lcs = lcsLength(ref, cand);
  if (lcs === 0) return 0;
  const precision = lcs / cand.length;
  const recall = lcs / ref.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Time Travel rounds each instance's score to two decimals before the bootstrap. */
export const roundScore = (score: number) => Math.round(score * 100) / 100;
