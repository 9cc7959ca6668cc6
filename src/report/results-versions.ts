// How reads learn the state of an experiment's results (its fingerprint, report.sql.ts `resultsVersion`). Pure:
// the caller says how to read a state from the database, and the clock.
import { ResultsVersion } from "./results-cache";

/** A state of an experiment's results, and whether a run of it is still going. */
export interface ActiveVersion extends ResultsVersion {
  active: boolean;
}

/**
 * How long a state read while a run is going serves the reads that may lag (not `fresh`). Each such read would
 * otherwise read the fingerprint itself: ten dashboards polling the report and a breakdown each second sent twenty
 * a second, about 1 ms of PostgreSQL and 1 ms of `memicl serve` each, taken from the run they watch. Half a second
 * is well inside the lag such a read allows already (a value is computed again at most once a second).
 */
export const DEFAULT_VERSION_REUSE_MS = 500;

export interface ResultsVersionsOptions {
  /** Reads the state now (the database); rejects for an unknown experiment. */
  read: (experimentId: string) => Promise<ActiveVersion>;
  /** The clock (ms), a test's own. */
  now?: () => number;
  reuseMs?: number;
  /** States kept at most (the least recently read go first). */
  limit?: number;
}

/**
 * The state of each experiment's results for the reads of its values. A read that asks for `fresh` always reads
 * it anew, and so does every read once the runs are done (a finished experiment's reads show the current state).
 * While a run is going, a read that may lag shares the state read last, when that was read less than `reuseMs`
 * ago or is being read now.
 */
export class ResultsVersions {
  private readonly states = new Map<string, { atMs: number; version: Promise<ActiveVersion> }>();
  private readonly readState: (experimentId: string) => Promise<ActiveVersion>;
  private readonly now: () => number;
  private readonly reuseMs: number;
  private readonly limit: number;

  constructor(options: ResultsVersionsOptions) {
    this.readState = options.read;
    this.now = options.now ?? (() => Date.now());
    this.reuseMs = options.reuseMs ?? DEFAULT_VERSION_REUSE_MS;
    this.limit = options.limit ?? 500;
  }

  async of(experimentId: string, { fresh = false }: { fresh?: boolean } = {}): Promise<ActiveVersion> {
    const last = this.states.get(experimentId);
    if (!fresh && last && this.now() - last.atMs < this.reuseMs) {
      // The last state (still being read, or read just now) serves while it says a run is going.
      const version = await last.version.catch(() => null);
      if (version?.active) return version;
    }
    const atMs = this.now();
    const version = this.readState(experimentId);
    this.states.delete(experimentId);
    this.states.set(experimentId, { atMs, version });
    if (this.states.size > this.limit) this.states.delete(this.states.keys().next().value!);
    version.catch(() => {
      if (this.states.get(experimentId)?.version === version) this.states.delete(experimentId);
    });
    return version;
  }
}
