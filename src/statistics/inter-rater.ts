/**
 * Fleiss' kappa (Fleiss 1971) for N items each rated by the same number m >= 2 of raters into k categories:
 * `table[i][j]` is how many raters put item i in category j. P_i = (sum_j n_ij^2 - m) / (m (m - 1)), p_j = the
 * share of all ratings in category j, kappa = (mean P_i - sum_j p_j^2) / (1 - sum_j p_j^2); 1 when chance
 * agreement is total. NaN without items.
 */
export function fleissKappa(table: readonly (readonly number[])[]): number {
  if (table.length === 0) return Number.NaN;
  const m = table[0].reduce((sum, count) => sum + count, 0);
  if (m < 2 || table.some((row) => row.reduce((sum, count) => sum + count, 0) !== m))
    throw new RangeError("fleissKappa: every item needs the same number (at least 2) of ratings");
  const categories = table[0].length;
  const totals = new Array<number>(categories).fill(0);
  let agreement = 0;
  for (const row of table) {
    let squares = 0;
    for (const [j, count] of row.entries()) {
      totals[j] += count;
      squares += count * count;
    }
    agreement += (squares - m) / (m * (m - 1));
  }
  const observed = agreement / table.length;
  const chance = totals.reduce((sum, total) => sum + (total / (table.length * m)) ** 2, 0);
  return chance === 1 ? 1 : (observed - chance) / (1 - chance);
}
