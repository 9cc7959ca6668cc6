import { setTimeout as sleep } from "node:timers/promises";
import { DataSource } from "typeorm";
import { ProviderConfig } from "./provider-config";

/**
 * Requests- and tokens-per-minute limits of one provider, shared by every worker on the database: two token
 * buckets in `provider_rate_bucket`, refilled by the database clock and taken with one conditional UPDATE.
 * (rate-limiter-flexible's PostgreSQL store was the first choice; its named prepared statements collided on
 * the earlier embedded database, which shared one session between connections; one UPDATE is all it takes.)
 */
export class SharedRateLimiter {
  private ready: Promise<void> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly provider: ProviderConfig,
  ) {}

  get limited(): boolean {
    return this.provider.requestsPerMinute !== null || this.provider.tokensPerMinute !== null;
  }

  /** Waits until one request of about `tokens` tokens fits both limits, then takes it. */
  async acquire(tokens: number, signal: AbortSignal): Promise<void> {
    if (!this.limited) return;
    this.ready ??= this.configure();
    await this.ready;
    if (this.provider.requestsPerMinute !== null) await this.take("requests", 1, signal);
    if (this.provider.tokensPerMinute !== null) await this.take("tokens", tokens, signal);
  }

  private buckets(): { kind: string; capacity: number; refillPerSecond: number }[] {
    const buckets = [];
    const { requestsPerMinute: rpm, tokensPerMinute: tpm } = this.provider;
    // One second of requests as burst keeps the rate even; tokens may burst to ten seconds' worth so large prompts fit.
    if (rpm !== null)
      buckets.push({ kind: "requests", capacity: Math.max(1, rpm / 60), refillPerSecond: rpm / 60 });
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

  private async take(kind: string, wanted: number, signal: AbortSignal): Promise<void> {
    const bucket = this.buckets().find((candidate) => candidate.kind === kind)!;
    const cost = Math.min(wanted, bucket.capacity); // a request larger than the bucket would wait forever
    const level =
      "least(capacity, available + extract(epoch FROM clock_timestamp() - updated_at) * refill_per_second)";
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
      const [row]: { wait_seconds: number }[] = await this.dataSource.query(
        `SELECT greatest(0, ($3 - ${level}) / refill_per_second) AS wait_seconds FROM provider_rate_bucket WHERE provider = $1 AND kind = $2`,
        [this.provider.name, kind, cost],
      );
      const waitMs = Math.min(1000, Math.max(5, (row?.wait_seconds ?? 0.05) * 1000));
      await sleep(waitMs, undefined, { signal });
    }
  }
}
