/**
 * The completions this process holds a claim on and is still working on (claimed with a fetched batch, waiting
 * for a slot, calling, or storing). The worker's beat renews the leases of these and of nothing else: an item
 * whose outcome could not be recorded (the database went away while it was being stored) leaves this set, its
 * lease lapses, and the reconciler gives it back to the queue once the database answers again. Renewing every
 * RUNNING row a worker owned kept such items claimed for as long as the process lived.
 *
 * A beat and a claim never overlap (`claiming`, `renewing`). A beat that read this set while a claim was on its
 * way, and reached the database after the claim, would set the worker's `last_seen_at` past the new items'
 * `lease_renewed_at` without renewing them: the lease rule (lease.ts) reads that as "let go", and another worker
 * could take them, and call them a second time, once the lease lapsed before the next beat (a beat waiting for a
 * pooled connection on a loaded machine).
 */
export class HeldClaims {
  private readonly held = new Set<string>();
  /** Claims under way; a beat waits until none is. */
  private claims = 0;
  private claimsDone: (() => void) | null = null;
  /** A beat under way or waiting for claims; a claim waits until it is over. */
  private renewal: Promise<void> | null = null;

  add(completionId: string): void {
    this.held.add(completionId);
  }

  delete(completionId: string): void {
    this.held.delete(completionId);
  }

  ids(): string[] {
    return [...this.held];
  }

  get size(): number {
    return this.held.size;
  }

  /** Runs a claim (its statement, and adding what it claimed here), never while a beat is under way. */
  async claiming<T>(claim: () => Promise<T>): Promise<T> {
    while (this.renewal) await this.renewal;
    this.claims += 1;
    try {
      return await claim();
    } finally {
      this.claims -= 1;
      if (this.claims === 0) this.claimsDone?.();
    }
  }

  /** Runs a beat with the items held once no claim is under way; claims that come meanwhile wait for it. */
  async renewing(beat: (ids: string[]) => Promise<void>): Promise<void> {
    while (this.renewal) await this.renewal;
    let over!: () => void;
    this.renewal = new Promise<void>((resolve) => {
      over = resolve;
    });
    try {
      while (this.claims > 0)
        await new Promise<void>((resolve) => {
          this.claimsDone = resolve;
        });
      this.claimsDone = null;
      await beat(this.ids());
    } finally {
      this.renewal = null;
      over();
    }
  }
}
