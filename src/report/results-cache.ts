// What the study's analyses computed, kept until a write changes the results they were computed from. Pure: the
// caller reads the results' fingerprint (report.sql.ts `resultsFingerprint`) and says how to compute a value.

/** A value with the state of the results it was computed from. */
export interface Computed<T> {
  value: T;
  /** The fingerprint of the results when the computation started (the value reflects at least that state). */
  fingerprint: string;
  /** When that fingerprint was read (the database's clock). */
  computedAt: Date;
}

/** The results' state as read just now. */
export interface ResultsVersion {
  fingerprint: string;
  readAt: Date;
}

export interface ReadOptions {
  /**
   * Wait for a value of the current state. Without it, while a newer value is being computed, the last one is
   * returned at once (its `computedAt` says which state it shows).
   */
  fresh?: boolean;
}

interface Entry {
  done?: Computed<unknown>;
  pending?: { fingerprint: string; promise: Promise<Computed<unknown>> };
}

/**
 * Values keyed by what was asked (an analysis and its arguments), each valid for one fingerprint of the results.
 * A read with the same fingerprint is served from memory; a changed fingerprint computes again, once however many
 * readers ask at the same time. While that computation runs, readers that do not ask for `fresh` get the previous
 * value, so a value is stale by at most one computation and only while the results are being written. Nothing
 * expires by time: a finished experiment's report is computed once. Values are frozen, since readers share them.
 */
export class ResultsCache {
  private readonly entries = new Map<string, Entry>();
  computations = 0;

  constructor(private readonly limit = 500) {}

  async read<T>(
    key: string,
    version: ResultsVersion,
    compute: () => Promise<T>,
    { fresh = false }: ReadOptions = {},
  ): Promise<Computed<T>> {
    const entry = this.touch(key);
    if (entry.done?.fingerprint === version.fingerprint) return entry.done as Computed<T>;
    if (entry.pending?.fingerprint === version.fingerprint)
      return (await entry.pending.promise) as Computed<T>;
    if (!fresh && entry.done && entry.pending) return entry.done as Computed<T>;
    const promise = this.start(key, entry, version, compute);
    return (await promise) as Computed<T>;
  }

  /** Forgets every value (a test, or a schema change that makes values of another shape). */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private start<T>(
    key: string,
    entry: Entry,
    version: ResultsVersion,
    compute: () => Promise<T>,
  ): Promise<Computed<T>> {
    this.computations += 1;
    const promise = compute().then((value) => ({
      value: deepFreeze(value),
      fingerprint: version.fingerprint,
      computedAt: version.readAt,
    }));
    const pending = { fingerprint: version.fingerprint, promise: promise as Promise<Computed<unknown>> };
    entry.pending = pending;
    promise.then(
      (computed) => {
        // A computation that started from an older state never replaces a newer value.
        if (!entry.done || entry.done.computedAt.getTime() <= computed.computedAt.getTime())
          entry.done = computed;
        if (entry.pending === pending) entry.pending = undefined;
      },
      () => {
        if (entry.pending === pending) entry.pending = undefined;
        if (!entry.done && !entry.pending) this.entries.delete(key);
      },
    );
    return promise;
  }

  /** The entry for `key`, now the most recently used (the least recently used goes beyond the limit). */
  private touch(key: string): Entry {
    const entry = this.entries.get(key) ?? {};
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
