/** Dollars with 2 decimals everywhere (one column never mixes 2 and 4); a cost below a cent shows as "<$0.01". */
export const money = (value: number | null | undefined): string =>
  value === null || value === undefined ? "–" : value > 0 && value < 0.01 ? "<$0.01" : `$${value.toFixed(2)}`;

/** "heuristic" (not "heuristic heuristic"), "llm llm:p/m", "human ana": the kind, then the name when it adds something. */
export function judgeLabel(kind: string, name: string): string {
  const lower = kind.toLowerCase();
  return name && name.toLowerCase() !== lower ? `${lower} ${name}` : lower;
}
