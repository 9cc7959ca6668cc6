// The worker table's reads, apart from the registry so that `memicl workers` loads no ORM.

export interface WorkerTiming {
  /** How long a claimed item stays claimed without a beat from its worker. */
  leaseSeconds: number;
}

/** A worker that missed about two leases' worth of beats (one every third of a lease) is dead. */
export function deadAfterSeconds(timing: WorkerTiming): number {
  return timing.leaseSeconds * 2;
}

/** Live workers (beat within the dead-after window), newest first. */
export const liveWorkersSql = `
  SELECT * FROM worker WHERE last_seen_at > clock_timestamp() - make_interval(secs => $1)
  ORDER BY started_at DESC`;
