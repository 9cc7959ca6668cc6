import { randomUUID } from "node:crypto";
import os from "node:os";

/** What a lease needs of the database: one statement at a time, each on whatever pooled connection is free. */
export interface LeaseQuery {
  query(text: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * A lease on a piece of upkeep that only one process should run at a time (the reconciler's pass, a metric
 * refresh). It holds no connection: a process that held a transaction open for the pass's lock and then waited
 * for a second pooled connection deadlocked at a pool of two, and held the lock for good. A lease lapses on its
 * own `seconds` after it was last taken or renewed, so a holder that stops making progress gives it up.
 */
export class MaintenanceLease {
  private readonly holder = `${os.hostname()}:${process.pid}:${randomUUID()}`.slice(0, 200);

  constructor(
    private readonly db: LeaseQuery,
    readonly name: string,
    private readonly seconds: number,
  ) {}

  /** Takes the lease if it is free or lapsed; true when this holder has it now. */
  async take(): Promise<boolean> {
    const rows = (await this.db.query(
      `INSERT INTO maintenance_lease (name, holder, until)
       VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3))
       ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until
       WHERE maintenance_lease.until < clock_timestamp() OR maintenance_lease.holder = EXCLUDED.holder
       RETURNING 1`,
      [this.name, this.holder, this.seconds],
    )) as unknown[];
    return returned(rows).length > 0;
  }

  /** Renews the lease for another `seconds`; false when it lapsed and another holder took it meanwhile. */
  async renew(): Promise<boolean> {
    const rows = (await this.db.query(
      `UPDATE maintenance_lease SET until = clock_timestamp() + make_interval(secs => $3)
       WHERE name = $1 AND holder = $2 RETURNING 1`,
      [this.name, this.holder, this.seconds],
    )) as unknown[];
    return returned(rows).length > 0;
  }

  /** Gives the lease up (when this holder still has it). */
  async release(): Promise<void> {
    await this.db.query("DELETE FROM maintenance_lease WHERE name = $1 AND holder = $2", [
      this.name,
      this.holder,
    ]);
  }

  /** Runs `work` under the lease when it can be taken (null otherwise), giving it up afterwards. */
  async run<T>(work: (lease: MaintenanceLease) => Promise<T>): Promise<T | null> {
    if (!(await this.take())) return null;
    try {
      return await work(this);
    } finally {
      await this.release().catch(() => {});
    }
  }
}

/** A statement's returned rows: TypeORM answers an UPDATE or DELETE with [rows, count], an INSERT with rows. */
function returned(answer: unknown[]): unknown[] {
  return answer.length === 2 && Array.isArray(answer[0]) && typeof answer[1] === "number"
    ? (answer[0] as unknown[])
    : answer;
}
