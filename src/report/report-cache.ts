// What the study's analyses computed, kept until a write changes the results they were computed from. Pure: the
// caller reads the results' fingerprint (report.sql.ts `resultsState`) and says how to compute a value.

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
   * Wait for a value of the current state. Without it, the last value may be returned at once (its `computedAt`
   * says which state it shows) while a newer one is being computed (of any state, the reader's own included), or
   * when it was computed less than `spacingOf` its own computing time ago: results that change all the time (a
   * run going) are not computed back to back for every reader. With no value yet, such a reader waits for the
   * computation under way, of whatever state, rather than starting one of its own.
   */
  fresh?: boolean;
}

export interface CacheReadOptions extends ReadOptions {
  /**
   * The values whose computations share one spacing (one experiment's report and breakdowns): a value that may
   * lag is computed again only once `spacingOf` the group's cost (the last computing time of each of its values,
   * summed) has passed since its own last one. Readers of several values of one running study then take about as
   * much of the process as readers of one. Without it, the value is a group of its own.
   */
  group?: string;
}

/**
 * The least time between two computations of one value for readers that may lag: `factor` times the cost of its
 * group's values (`CacheReadOptions.group`), at least 1 s. With the default 24, a running study's readers make
 * the process compute for at most about a twenty-fifth of its time (less: a report's cost includes its tables',
 * which are breakdowns of the same group). Ten dashboards polling a running grid made `memicl serve` compute
 * 15-25 values a run at nine times, about 10 at 24 (`npm run bench -- grid --readers 10`; docs/BENCHMARKS.md).
 */
export const DEFAULT_SPACING_FACTOR = 24;

export const spacingOf = (computingMs: number, factor = DEFAULT_SPACING_FACTOR) =>
  Math.max(1_000, factor * computingMs);

export interface ReportCacheOptions {
  /** Values kept at most (the least recently read go first). */
  limit?: number;
  /** The clock (ms), a test's own. */
  now?: () => number;
  /** `spacingOf`'s factor (`MEMICL_RESULTS_SPACING_FACTOR`). */
  spacingFactor?: number;
  /** Told of every computation when it ends (its time, and whether it failed): the process's metrics. */
  computed?: (ms: number, failed: boolean) => void;
}

interface Entry {
  done?: Computed<unknown>;
  /** When `done` was finished (this process's clock) and how long it took to compute. */
  finishedAt?: number;
  computingMs?: number;
  pending?: { fingerprint: string; promise: Promise<Computed<unknown>> };
  group: string;
}

/**
 * Values keyed by what was asked (an analysis and its arguments), each valid for one fingerprint of the results.
 * A read with the same fingerprint is served from memory; a changed fingerprint computes again, once however many
 * readers ask at the same time. A reader that does not ask for `fresh` gets the previous value at once: when the
 * previous one finished less than `spacingOf` its cost ago, or else while the newer one computes (started by that
 * read, in the background), so such a value lags
 * the writes by at most about that spacing plus one computation (the caller asks for `fresh` once the results
 * stop changing). Nothing expires by time: a finished experiment's report is computed once. Values are frozen,
 * since readers share them.
 */
export class ReportCache {
  private readonly entries = new Map<string, Entry>();
  /** Each group's entries, whose last computing times make the group's cost. */
  private readonly groups = new Map<string, Set<Entry>>();

  private readonly limit: number;
  private readonly now: () => number;
  private readonly spacingFactor: number;
  private readonly computed: (ms: number, failed: boolean) => void;

  constructor(options: ReportCacheOptions = {}) {
    this.limit = options.limit ?? 500;
    this.now = options.now ?? (() => Date.now());
    this.spacingFactor = options.spacingFactor ?? DEFAULT_SPACING_FACTOR;
    this.computed = options.computed ?? (() => {});
  }

  async read<T>(
    key: string,
    version: ResultsVersion,
    compute: () => Promise<T>,
    { fresh = false, group = key }: CacheReadOptions = {},
  ): Promise<Computed<T>> {
    const entry = this.touch(key, group);
    if (entry.done?.fingerprint === version.fingerprint) return entry.done as Computed<T>;
    if (!fresh && entry.done) {
      // A newer value is being computed (of this very state, or of an earlier one): the last value now. Waiting for
      // a computation of the reader's own state made every reader that polled while the results stood still for a
      // moment wait for a whole report (0.3-1.1 s, ten readers at once, in `npm run bench -- grid --readers 10`).
      if (entry.pending) return entry.done as Computed<T>;
      if (this.now() - entry.finishedAt! < spacingOf(this.costOf(entry.group), this.spacingFactor))
        return entry.done as Computed<T>;
      // Time for a newer value: computed in the background, this reader is not made to wait for it.
      this.start(key, entry, version, compute).catch(() => {});
      return entry.done as Computed<T>;
    }
    if (entry.pending?.fingerprint === version.fingerprint)
      return (await entry.pending.promise) as Computed<T>;
    // No value yet, and the first one is being computed, of a state a moment older than the reader's: that one
    // (a dashboard's first readers of a running study each started a whole report of their own).
    if (!fresh && entry.pending) return (await entry.pending.promise) as Computed<T>;
    const promise = this.start(key, entry, version, compute);
    return (await promise) as Computed<T>;
  }

  /** Forgets every value (a test, or a schema change that makes values of another shape). */
  clear(): void {
    this.entries.clear();
    this.groups.clear();
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
    const started = this.now();
    const promise = compute().then((value) => ({
      value: deepFreeze(value),
      fingerprint: version.fingerprint,
      computedAt: version.readAt,
    }));
    const pending = { fingerprint: version.fingerprint, promise: promise as Promise<Computed<unknown>> };
    entry.pending = pending;
    promise.then(
      (computed) => {
        const finishedAt = this.now();
        this.computed(finishedAt - started, false);
        // A computation that started from an older state never replaces a newer value.
        if (!entry.done || entry.done.computedAt.getTime() <= computed.computedAt.getTime()) {
          entry.done = computed;
          entry.finishedAt = finishedAt;
          entry.computingMs = finishedAt - started;
        }
        if (entry.pending === pending) entry.pending = undefined;
      },
      () => {
        this.computed(this.now() - started, true);
        if (entry.pending === pending) entry.pending = undefined;
        if (!entry.done && !entry.pending && this.entries.get(key) === entry) this.forget(key);
      },
    );
    return promise;
  }

  /** The summed last computing times of a group's values (ms). */
  private costOf(group: string): number {
    let total = 0;
    for (const entry of this.groups.get(group) ?? []) total += entry.computingMs ?? 0;
    return total;
  }

  /** The entry for `key`, now the most recently used (the least recently used goes beyond the limit). */
  private touch(key: string, group: string): Entry {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { group };
      const members = this.groups.get(group) ?? new Set<Entry>();
      this.groups.set(group, members.add(entry));
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.limit) this.forget(this.entries.keys().next().value!);
    return entry;
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    if (!entry) return;
    const members = this.groups.get(entry.group);
    members?.delete(entry);
    if (members?.size === 0) this.groups.delete(entry.group);
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
