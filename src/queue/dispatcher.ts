import PgBoss from "pg-boss";
import { Logger } from "../logging/logger";
import { JobHandler, JobKind, JobKinds, queueName, WorkOptions } from "./job-queue";

const POLL_MS = 500;
// Acknowledging is off every call's path (a job whose completion is stored needs nothing more), so acks wait
// to share a statement.
const ACK_BATCH = 100;
const ACK_DELAY_MS = 100;
/**
 * Jobs past their slot-bound part (see `JobHandler.handle`) per slot. Storing answers in batches takes a few
 * tens of milliseconds; against a fast model, one per slot held slots back (docs/BENCHMARKS.md).
 */
const FINISHING_PER_SLOT = 4;

interface Buffered<K extends JobKind> {
  job: PgBoss.Job<JobKinds[K]>;
  prepared: unknown;
}

/**
 * A pool of slots over pg-boss's fetch/complete/fail. Each slot takes the next job as soon as its own
 * finishes, from a small local buffer the fetch loop keeps filled (so a freed slot does not wait for a
 * round trip); each provider has its own limit and its own buffer; a provider whose queue came back empty
 * is not asked again until the poll interval passes or something is enqueued here. Jobs are acknowledged in
 * small batches. A buffered job of a process that dies is only a job: its completion was never claimed, and
 * the reconciler queues it again.
 */
export class Dispatcher<K extends JobKind> {
  private busy = 0;
  /** Jobs whose slot was freed early (see `JobHandler.handle`) and that have not settled yet. */
  private finishing = 0;

  /** Jobs in a slot or finishing outside one. */
  get working(): number {
    return this.busy + this.finishing;
  }
  private readonly perProvider = new Map<string, number>();
  private readonly buffers = new Map<string, Buffered<K>[]>();
  private readonly idleUntil = new Map<string, number>();
  private running = true;
  private signal: (() => void) | null = null;
  private readonly acks = new Map<string, string[]>();
  private ackTimer: NodeJS.Timeout | null = null;
  private readonly handlers = new Set<Promise<void>>();
  private loop: Promise<void> | null = null;
  private readonly providerNames: string[];
  private next = 0;

  constructor(
    private readonly boss: PgBoss,
    readonly kind: K,
    private readonly handler: JobHandler<K>,
    private readonly options: WorkOptions,
    private readonly logger: Logger,
  ) {
    this.providerNames = Object.keys(options.providers);
    for (const name of this.providerNames) this.buffers.set(name, []);
  }

  run(): void {
    this.loop = this.fetchLoop().catch((error) =>
      this.logger.error({ err: error }, "job dispatcher stopped"),
    );
  }

  /** Something was enqueued in this process: look at every provider's queue now. */
  wake(): void {
    this.idleUntil.clear();
    this.poke();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.poke();
    await this.loop;
    await Promise.allSettled([...this.handlers]);
    // Jobs still buffered go back to the queue at once rather than waiting for their expiry.
    for (const [provider, buffered] of this.buffers) {
      if (buffered.length === 0) continue;
      await this.handler
        .discard?.(buffered.map(({ prepared }) => prepared))
        .catch((error) =>
          this.logger.warn({ err: error }, "could not give back buffered work; the reconciler will"),
        );
      await this.boss
        .fail(
          queueName(this.kind, provider),
          buffered.map(({ job }) => job.id),
        )
        .catch(() => {});
      buffered.length = 0;
    }
    await this.flushAcks();
  }

  private poke(): void {
    const signal = this.signal;
    this.signal = null;
    signal?.();
  }

  /**
   * Free capacity for a provider: its own limit, and as many again buffered ahead, minus what it runs and holds in
   * its buffer. Fetched in batches of half that, the buffer is refilled while half of it is left: with a buffer of
   * half the limit, refilled only once it ran dry, slots sat empty during every fetch's round trip (30.7 of 32 in
   * flight on average, against 31.7 now, in `npm run bench -- engine`).
   */
  private room(provider: string): number {
    const limit = this.options.providers[provider];
    return 2 * limit - (this.perProvider.get(provider) ?? 0) - this.buffers.get(provider)!.length;
  }

  private async fetchLoop(): Promise<void> {
    while (this.running) {
      let fetched = 0;
      const now = Date.now();
      for (let index = 0; index < this.providerNames.length && this.running; index++) {
        const provider = this.providerNames[(this.next + index) % this.providerNames.length];
        const room = this.room(provider);
        // Fetch in batches: wait until half of the room is free, unless the buffer ran dry.
        const batchFloor =
          this.buffers.get(provider)!.length === 0 ? 1 : Math.ceil(this.options.providers[provider] / 2);
        if (room < batchFloor || (this.idleUntil.get(provider) ?? 0) > now) continue;
        let jobs: PgBoss.Job<JobKinds[K]>[];
        try {
          jobs = await this.boss.fetch<JobKinds[K]>(queueName(this.kind, provider), { batchSize: room });
        } catch (error) {
          this.logger.error({ err: error, provider }, "could not fetch jobs; trying again in a second");
          this.idleUntil.set(provider, Date.now() + 1_000);
          continue;
        }
        if (jobs.length < room) this.idleUntil.set(provider, Date.now() + POLL_MS);
        if (jobs.length === 0) continue;
        let prepared: unknown[];
        try {
          prepared = this.handler.prepare ? await this.handler.prepare(jobs.map((job) => job.data)) : [];
        } catch (error) {
          this.logger.error(
            { err: error, provider },
            "could not prepare fetched jobs; the queue will retry them",
          );
          await this.boss
            .fail(
              queueName(this.kind, provider),
              jobs.map((job) => job.id),
            )
            .catch(() => {});
          continue;
        }
        this.buffers.get(provider)!.push(...jobs.map((job, index) => ({ job, prepared: prepared[index] })));
        fetched += jobs.length;
      }
      this.next += 1;
      this.fillSlots();
      if (!this.running) break;
      if (fetched === 0) await this.pause(POLL_MS);
    }
  }

  /** Hands buffered jobs to free slots, round-robin across providers within their limits. */
  private fillSlots(): void {
    let progress = true;
    while (progress && this.busy < this.options.concurrency) {
      progress = false;
      for (const provider of this.providerNames) {
        if (this.busy >= this.options.concurrency) break;
        const buffered = this.buffers.get(provider)!;
        if (
          buffered.length === 0 ||
          (this.perProvider.get(provider) ?? 0) >= this.options.providers[provider]
        )
          continue;
        this.dispatch(provider, buffered.shift()!);
        progress = true;
      }
    }
  }

  /** Waits for a slot to free, a wake-up, or `ms`. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.signal = null;
        resolve();
      }, ms);
      this.signal = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private dispatch(provider: string, { job, prepared }: Buffered<K>): void {
    this.busy += 1;
    this.perProvider.set(provider, (this.perProvider.get(provider) ?? 0) + 1);
    let slotHeld = true;
    let settledOutside = false;
    const freeSlot = () => {
      if (!slotHeld) return;
      slotHeld = false;
      this.busy -= 1;
      this.perProvider.set(provider, (this.perProvider.get(provider) ?? 1) - 1);
      // The next buffered job starts at once; the fetch loop refills the buffer.
      if (this.running) this.fillSlots();
      this.poke();
    };
    const slotFree = () => {
      // At most FINISHING_PER_SLOT x `concurrency` jobs finish outside their slots: past that (storing is slower
      // than calling), a job keeps its slot until it settles, which holds the pace to what storing keeps up with.
      if (!slotHeld || this.finishing >= this.options.concurrency * FINISHING_PER_SLOT) return;
      this.finishing += 1;
      settledOutside = true;
      freeSlot();
    };
    const handled = this.handler
      .handle(job.data, prepared, slotFree)
      .then(
        () => this.ack(job.name, job.id),
        async (error: Error) => {
          this.logger.error(
            { err: error, kind: this.kind, job: job.data },
            "job failed; the queue will retry it",
          );
          await this.boss
            .fail(job.name, job.id, { message: String(error?.message ?? error) })
            .catch((failure) => this.logger.error({ err: failure }, "could not mark a job failed"));
        },
      )
      .finally(() => {
        if (settledOutside) this.finishing -= 1;
        this.handlers.delete(handled);
        freeSlot();
      });
    this.handlers.add(handled);
  }

  private ack(queue: string, id: string): void {
    const ids = this.acks.get(queue) ?? [];
    ids.push(id);
    this.acks.set(queue, ids);
    if (ids.length >= ACK_BATCH) void this.flushAcks();
    else this.ackTimer ??= setTimeout(() => void this.flushAcks(), ACK_DELAY_MS);
  }

  private async flushAcks(): Promise<void> {
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.ackTimer = null;
    const batches = [...this.acks.entries()];
    this.acks.clear();
    for (const [queue, ids] of batches) {
      // A job left unacknowledged (the process died first) is harmless: its completion is already written,
      // and whoever takes the job again finds nothing to do.
      await this.boss
        .complete(queue, ids)
        .catch((error) => this.logger.warn({ err: error }, "could not acknowledge jobs"));
    }
  }
}
