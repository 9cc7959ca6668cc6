import { randomUUID } from "node:crypto";
import os from "node:os";
import { DataSource } from "typeorm";
import { CODE_VERSION } from "../config/code-version";
import { Logger } from "../logging/logger";
import { JobQueue } from "../queue/job-queue";
import { HeldClaims } from "./held-claims";
import type { WorkerTiming } from "./worker.sql";

export interface WorkerSelf {
  role: string;
  concurrency: number;
  providers: string[];
}

/** A worker beats every third of a lease; one that missed about two leases' worth of beats is dead. */
export function beatIntervalMs(timing: WorkerTiming): number {
  return Math.max(500, Math.floor((timing.leaseSeconds * 1000) / 3));
}

/**
 * This process as a worker: registered in the `worker` table, beating (which also renews the leases of the
 * items it holds), and gone from the table when it stops.
 */
export class WorkerRegistration {
  readonly id = randomUUID();
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;
  private self: WorkerSelf | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly queue: JobQueue,
    private readonly logger: Logger,
    private readonly timing: WorkerTiming,
    /** The claims this process is working on: the only leases its beat renews. */
    private readonly held: HeldClaims = new HeldClaims(),
  ) {}

  async start(self: WorkerSelf): Promise<void> {
    this.self = self;
    await this.dataSource.query(
      `INSERT INTO worker (id, host, pid, role, concurrency, providers, code_version)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [this.id, os.hostname(), process.pid, self.role, self.concurrency, self.providers, CODE_VERSION],
    );
    this.timer = setInterval(() => {
      this.beating ??= this.beat().finally(() => {
        this.beating = null;
      });
    }, beatIntervalMs(this.timing));
    this.timer.unref();
  }

  /**
   * Renews the leases of the items this process is working on (and no other item it once claimed) and says what
   * it is doing.
   */
  async beat(): Promise<void> {
    const self = this.self;
    if (!self) return;
    const inFlight = this.queue.inFlight();
    try {
      await this.held.renewing((held) =>
        this.dataSource.query(
          // The rows are locked in id order and a row another statement holds (its answer being stored this
          // moment) is skipped, not waited for: a renewal never waits in a cycle with a store, and the next beat
          // renews what this one skipped (a lease outlives several beats).
          `WITH mine AS (
           SELECT id FROM completion
           WHERE lease_owner = $1 AND status = 'RUNNING' AND id = ANY($10::bigint[])
           ORDER BY id FOR UPDATE SKIP LOCKED
         ), renewed AS (
           UPDATE completion
           SET lease_until = clock_timestamp() + make_interval(secs => $2), lease_renewed_at = statement_timestamp()
           WHERE id IN (SELECT id FROM mine) AND lease_owner = $1 AND status = 'RUNNING'
           RETURNING run_id
         )
         INSERT INTO worker (id, host, pid, role, concurrency, providers, code_version, in_flight, run_ids, last_seen_at)
         VALUES ($1, $4, $5, $6, $7, $8, $9, $3, coalesce((SELECT array_agg(DISTINCT run_id) FROM renewed), '{}'), statement_timestamp())
         ON CONFLICT (id) DO UPDATE
         SET last_seen_at = statement_timestamp(), in_flight = $3, run_ids = EXCLUDED.run_ids`,
          [
            this.id,
            this.timing.leaseSeconds,
            inFlight.completion + inFlight.judgment,
            os.hostname(),
            process.pid,
            self.role,
            self.concurrency,
            self.providers,
            CODE_VERSION,
            held,
          ],
        ),
      );
    } catch (error) {
      this.logger.warn({ err: error }, "worker heartbeat failed; trying again at the next beat");
    }
  }

  async stop(): Promise<void> {
    if (!this.self) return;
    this.self = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beating;
    await this.dataSource
      .query("DELETE FROM worker WHERE id = $1", [this.id])
      .catch((error) => this.logger.warn({ err: error }, "could not deregister the worker"));
  }
}
