import { Run, RunStatus } from "./run.entity";

/** How often a live subscription looks at the database: at most twice a second, whatever the run's pace. */
export const PROGRESS_INTERVAL_MS = 500;

const TERMINAL = new Set<string>([RunStatus.SUCCEEDED, RunStatus.FAILED, RunStatus.CANCELLED]);

/** What a subscriber sees change: counts, status, cost, the last error. */
export function progressFingerprint(run: Run): string {
  return JSON.stringify([
    run.status,
    run.doneCount,
    run.failedCount,
    run.cacheHitCount,
    String(run.promptTokens),
    String(run.completionTokens),
    String(run.costUsd),
    run.lastError,
    run.waitingReason,
    run.maxCostUsd,
  ]);
}

/** What a poller reads: the runs watched, and the budget over them (an experiment's), which can change alone. */
export interface ProgressState {
  runs: Run[];
  budgetUsd?: string | null;
}

/**
 * Live progress, read from the database (so a worker in any process shows) by one poller per watched key (a run,
 * an experiment) however many subscribers it has: the current state first, then every change, at most every
 * `intervalMs`; the stream ends after the state where every run is finished. A subscriber that goes away (its
 * client disconnected: `return()`) leaves at once, and the poller stops with its last subscriber, so no query is
 * made for a client that is gone. (An async generator cannot do that: `return()` waits for its next `yield`,
 * which never comes for a run that does not change.)
 */
export class ProgressHub {
  private readonly pollers = new Map<string, Poller>();

  constructor(private readonly intervalMs = PROGRESS_INTERVAL_MS) {}

  watch<T>(
    key: string,
    read: () => Promise<ProgressState>,
    toEvent: (state: ProgressState) => T,
  ): AsyncIterableIterator<T> {
    let poller = this.pollers.get(key);
    if (!poller) {
      const created: Poller = new Poller(read, this.intervalMs, () => {
        if (this.pollers.get(key) === created) this.pollers.delete(key);
      });
      this.pollers.set(key, created);
      poller = created;
    }
    return poller.subscribe(toEvent);
  }

  /** Keys polled now (for tests and metrics). */
  get polling(): number {
    return this.pollers.size;
  }
}

type Delivery = { state: ProgressState } | { end: true } | { error: unknown };

class Poller {
  private readonly subscribers = new Set<(delivery: Delivery) => void>();
  private latest: ProgressState | null = null;
  private wake: (() => void) | null = null;
  private running = false;

  constructor(
    private readonly read: () => Promise<ProgressState>,
    private readonly intervalMs: number,
    private readonly done: () => void,
  ) {}

  subscribe<T>(toEvent: (state: ProgressState) => T): AsyncIterableIterator<T> {
    const queue: Delivery[] = [];
    let waiting: ((result: IteratorResult<T>) => void) | null = null;
    let failing: ((error: unknown) => void) | null = null;
    let finished = false;
    const deliver = (delivery: Delivery) => {
      if (finished) return;
      queue.push(delivery);
      flush();
    };
    const leave = () => {
      finished = true;
      this.subscribers.delete(deliver);
      if (this.subscribers.size === 0) this.stop();
    };
    const flush = () => {
      if (!waiting || queue.length === 0) return;
      const next = queue.shift()!;
      const resolve = waiting;
      const reject = failing!;
      waiting = null;
      failing = null;
      if ("state" in next) resolve({ value: toEvent(next.state), done: false });
      else if ("end" in next) {
        leave();
        resolve({ value: undefined, done: true });
      } else {
        leave();
        reject(next.error);
      }
    };
    this.subscribers.add(deliver);
    if (this.latest) deliver({ state: this.latest });
    if (!this.running) void this.loop();
    const iterator: AsyncIterableIterator<T> = {
      next: () =>
        finished && queue.length === 0
          ? Promise.resolve({ value: undefined, done: true })
          : new Promise<IteratorResult<T>>((resolve, reject) => {
              waiting = resolve;
              failing = reject;
              flush();
            }),
      return: () => {
        leave();
        waiting?.({ value: undefined, done: true });
        waiting = null;
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  private stop(): void {
    this.done();
    this.wake?.();
  }

  private async loop(): Promise<void> {
    this.running = true;
    let last: string | null = null;
    try {
      while (this.subscribers.size > 0) {
        let state: ProgressState;
        try {
          state = await this.read();
        } catch (error) {
          for (const deliver of [...this.subscribers]) deliver({ error });
          this.stop();
          return;
        }
        const { runs } = state;
        const fingerprint = JSON.stringify([runs.map(progressFingerprint), state.budgetUsd ?? null]);
        if (fingerprint !== last) {
          last = fingerprint;
          this.latest = state;
          for (const deliver of [...this.subscribers]) deliver({ state });
        }
        if (runs.length > 0 && runs.every((run) => TERMINAL.has(run.status))) {
          for (const deliver of [...this.subscribers]) deliver({ end: true });
          this.stop();
          return;
        }
        if (this.subscribers.size === 0) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.intervalMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
      }
    } finally {
      this.running = false;
    }
  }
}
