import os from "node:os";

/**
 * How many times longer than on a quiet machine the suite's deadlines wait: `MEMICL_TEST_PATIENCE` when set, else
 * the machine's load per core at the moment (its one- or five-minute average, whichever is higher), at least 1
 * and at most 8. On a two-core machine shared with two other test runs (load 9-21), every file failed by racing a
 * fixed clock; a deadline that grows with the load lets the suite pass, slower, and still ends a test that hangs.
 */
export function patience(): number {
  const set = Number(process.env.MEMICL_TEST_PATIENCE);
  if (Number.isFinite(set) && set > 0) return set;
  const [one, five] = os.loadavg();
  return Math.min(8, Math.max(1, Math.max(one, five) / Math.max(1, os.cpus().length)));
}

/** `ms` scaled by the patience the machine needs now. */
export const patient = (ms: number) => Math.round(ms * patience());
