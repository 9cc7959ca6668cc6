/**
 * The completions this process holds a claim on and is still working on (claimed with a fetched batch, waiting
 * for a slot, calling, or storing). The worker's beat renews the leases of these and of nothing else: an item
 * whose outcome could not be recorded (the database went away while it was being stored) leaves this set, its
 * lease lapses, and the reconciler gives it back to the queue once the database answers again. Renewing every
 * RUNNING row a worker owned kept such items claimed for as long as the process lived.
 */
export class HeldClaims {
  private readonly held = new Set<string>();

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
}
