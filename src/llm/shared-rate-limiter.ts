import { setTimeout as sleep } from "node:timers/promises";
import { DataSource } from "typeorm";
import { ProviderConfig } from "./provider-config";

/**
 * A limit holding a request back: which one (`requests`, `tokens` per minute, or `calls-in-flight` for a
 * database-wide maxConcurrency), its size, and when the next slot is expected.
 */
export interface RateLimitWait {
  kind: string;
  /** The limit: per minute for the rates, calls at once for `calls-in-flight`. */
  perMinute: number;
  until: Date;
  /** How long this request has waited for the limit so far. */
  waitedMs: number;
}

/** How a run says it waits for a provider's rate limit (the reconciler writes the same words). */
export function rateLimitReason(provider: string, wait: RateLimitWait): string {
  if (wait.kind === "calls-in-flight")
    return `waiting for a call slot of provider "${provider}" (maxConcurrency ${wait.perMinute} across all processes)`;
  return (
    `waiting for the ${wait.kind}-per-minute limit of provider "${provider}" (${wait.perMinute} per minute); ` +
    `next slot about ${wait.until.toISOString().slice(0, 19)}Z`
  );
}

/**
 * Requests- and tokens-per-minute limits of one provider, shared by every worker on the database: two token
 * buckets in `provider_rate_bucket`, refilled by the database clock and taken with one conditional UPDATE.
 * (rate-limiter-flexible's PostgreSQL store was the first choice; its named prepared statements collided on
 * the earlier embedded database, which shared one session between connections; one UPDATE is all it takes.)
 */
/**
 * The requests bucket for a limit of `rpm` requests a minute: one second of requests as burst (keeps the rate even),
 * refilled so that no minute, however it is cut, holds more than the limit. A bucket of burst B refilled at r a
 * second admits up to B + 60 r requests in any 60 seconds; providers that count a rolling minute refuse the rest
 * (429s, retried after their Retry-After). r = (rpm - B) / 60 is 59/60 of the limit for rpm >= 60 (within 2%).
 */
export function requestBucket(rpm: number): { capacity: number; refillPerSecond: number } {
  const capacity = Math.max(1, rpm / 60);
  return { capacity, refillPerSecond: Math.max(rpm - capacity, rpm / 2) / 60 };
}

export class SharedRateLimiter {
  private ready: Promise<void> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly provider: ProviderConfig,
  ) {}

  get limited(): boolean {
    return this.provider.requestsPerMinute !== null || this.provider.tokensPerMinute !== null;
  }

  /**
   * The reason a request of about `tokens` tokens can never be sent (larger than the tokens-per-minute limit),
   * or null. Such a request would wait for ever or be refused by the provider, so it is failed before any call.
   */
  neverFits(tokens: number): string | null {
    const limit = this.provider.tokensPerMinute;
    if (limit === null || tokens <= limit) return null;
    return (
      `this prompt needs about ${tokens} tokens (prompt and maximum output), more than provider ` +
      `"${this.provider.name}" allows in a minute (tokensPerMinute ${limit}): it was not sent`
    );
  }

  /**
   * Waits until one request of about `tokens` tokens fits both limits, then takes it. `onWait` is told when a
   * limit holds the request back (which limit, and when the next slot is expected), so the run can say why it waits.
   */
  async acquire(tokens: number, signal: AbortSignal, onWait?: (wait: RateLimitWait) => void): Promise<void> {
    if (!this.limited) return;
    this.ready ??= this.configure();
    await this.ready;
    if (this.provider.requestsPerMinute !== null) await this.take("requests", 1, signal, onWait);
    if (this.provider.tokensPerMinute !== null) await this.take("tokens", tokens, signal, onWait);
  }

  /**
   * With `maxConcurrencyScope: database`, waits for one of the provider's `maxConcurrency` slots shared by every
   * process on the database and leases it for the attempt (the lease outlives the attempt's timeout, so a dead
   * process's slot comes back on its own); returns what gives it back. Otherwise returns null at once: the
   * process's own slot pool is the limit.
   */
  async acquireSlot(
    signal: AbortSignal,
    onWait?: (wait: RateLimitWait) => void,
  ): Promise<(() => Promise<void>) | null> {
    if (this.provider.maxConcurrencyScope !== "database") return null;
    this.slotsReady ??= this.configureSlots();
    await this.slotsReady;
    const started = performance.now();
    let pause = 5;
    for (;;) {
      const [taken]: [{ slot: number; token: string }[], number] = await this.dataSource.query(
        // The free slot is a scalar subquery (evaluated once): as a joined subquery, the planner rescanned it for
        // every row and one statement took every free slot.
        `UPDATE provider_call_slot SET token = gen_random_uuid(),
                until = clock_timestamp() + make_interval(secs => $2)
         WHERE provider = $1 AND slot = (
           SELECT slot FROM provider_call_slot
           WHERE provider = $1 AND (token IS NULL OR until < clock_timestamp())
           ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING slot, token`,
        [this.provider.name, this.provider.timeoutSeconds + 30],
      );
      if (taken.length > 0) {
        const { slot, token } = taken[0];
        return async () => {
          await this.dataSource.query(
            "UPDATE provider_call_slot SET token = NULL, until = NULL WHERE provider = $1 AND slot = $2 AND token = $3",
            [this.provider.name, slot, token],
          );
        };
      }
      onWait?.({
        kind: "calls-in-flight",
        perMinute: this.provider.maxConcurrency,
        until: new Date(Date.now() + pause),
        waitedMs: performance.now() - started,
      });
      await sleep(pause, undefined, { signal });
      pause = Math.min(200, pause * 2);
    }
  }

  private slotsReady: Promise<void> | null = null;

  private async configureSlots(): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO provider_call_slot (provider, slot) SELECT $1, generate_series(0, $2 - 1)
       ON CONFLICT (provider, slot) DO NOTHING`,
      [this.provider.name, this.provider.maxConcurrency],
    );
    await this.dataSource.query("DELETE FROM provider_call_slot WHERE provider = $1 AND slot >= $2", [
      this.provider.name,
      this.provider.maxConcurrency,
    ]);
  }

  private perMinute(kind: string): number {
    return (kind === "requests" ? this.provider.requestsPerMinute : this.provider.tokensPerMinute) ?? 0;
  }

  private buckets(): { kind: string; capacity: number; refillPerSecond: number }[] {
    const buckets = [];
    const { requestsPerMinute: rpm, tokensPerMinute: tpm } = this.provider;
    // Tokens may burst to ten seconds' worth so large prompts fit.
    if (rpm !== null) buckets.push({ kind: "requests", ...requestBucket(rpm) });
    if (tpm !== null)
      buckets.push({ kind: "tokens", capacity: Math.max(1, tpm / 6), refillPerSecond: tpm / 60 });
    return buckets;
  }

  private async configure(): Promise<void> {
    for (const bucket of this.buckets()) {
      await this.dataSource.query(
        `INSERT INTO provider_rate_bucket (provider, kind, capacity, available, refill_per_second, updated_at)
         VALUES ($1, $2, $3, $3, $4, clock_timestamp())
         ON CONFLICT (provider, kind) DO UPDATE SET capacity = EXCLUDED.capacity, refill_per_second = EXCLUDED.refill_per_second`,
        [this.provider.name, bucket.kind, bucket.capacity, bucket.refillPerSecond],
      );
    }
  }

  private async take(
    kind: string,
    wanted: number,
    signal: AbortSignal,
    onWait?: (wait: RateLimitWait) => void,
  ): Promise<void> {
    const bucket = this.buckets().find((candidate) => candidate.kind === kind)!;
    const cost = Math.min(wanted, bucket.capacity); // a request larger than the bucket would wait forever
    const level =
      "least(capacity, available + extract(epoch FROM clock_timestamp() - updated_at) * refill_per_second)";
    const started = performance.now();
    for (;;) {
      // The level is computed from the row inside the UPDATE, so concurrent takers re-check it after the row lock.
      // TypeORM answers an UPDATE with [rows, rowCount].
      const [taken]: [unknown[], number] = await this.dataSource.query(
        `UPDATE provider_rate_bucket SET available = ${level} - $3, updated_at = clock_timestamp()
         WHERE provider = $1 AND kind = $2 AND ${level} >= $3
         RETURNING 1`,
        [this.provider.name, kind, cost],
      );
      if (taken.length > 0) return;
      // Denied: how long until it fits, recorded on the bucket (`waiting_until`) so every process's reconciler
      // can say what the provider's runs wait for.
      const [rows]: [{ wait_seconds: number; waiting_until: Date }[], number] = await this.dataSource.query(
        `UPDATE provider_rate_bucket
         SET waiting_until = clock_timestamp() + make_interval(secs => greatest(0, ($3 - ${level}) / refill_per_second))
         WHERE provider = $1 AND kind = $2
         RETURNING greatest(0, ($3 - ${level}) / refill_per_second) AS wait_seconds, waiting_until`,
        [this.provider.name, kind, cost],
      );
      const row = rows[0];
      if (row && onWait)
        onWait({
          kind,
          perMinute: this.perMinute(kind),
          until: new Date(row.waiting_until),
          waitedMs: performance.now() - started,
        });
      const waitMs = Math.min(1000, Math.max(5, (row?.wait_seconds ?? 0.05) * 1000));
      await sleep(waitMs, undefined, { signal });
    }
  }
}
