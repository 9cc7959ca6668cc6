import DataLoader from "dataloader";

/** A DataLoader whose keys are objects, compared by value. */
export function keyedByValue<K, V>(batch: (keys: readonly K[]) => Promise<V[]>): DataLoader<K, V, string> {
  return new DataLoader<K, V, string>(batch, { cacheKeyFn: (key) => JSON.stringify(key) });
}
