import DataLoader from "dataloader";

/** Keys in one statement at most: a claimed batch is smaller, this only bounds a burst. */
const MAX_KEYS = 500;

/**
 * One key at a time for the caller, many per statement for the database: the lookups that calls in flight make in
 * one turn of the event loop (every item of a claimed batch reaches them together) go to `read` as one list, and
 * `read` answers them in the same order. Nothing is kept between turns: every lookup reads the database.
 */
export function batchedLookup<K, V>(read: (keys: readonly K[]) => Promise<V[]>): (key: K) => Promise<V> {
  const loader = new DataLoader<K, V>(read, { cache: false, maxBatchSize: MAX_KEYS });
  return (key) => loader.load(key);
}
