/**
 * When another worker may take a claimed item: its lease has lapsed and its owner either is gone or has beaten
 * since the lease was last renewed without renewing it (it let the item go). A worker whose beat is merely late
 * (a process starved of CPU or of pool connections) has not beaten since, so it keeps its items, and the call it
 * is making is not made a second time; it loses them only once it is declared dead (no beat for two leases) and
 * removed from the `worker` table. Leases without a renewal time (taken before it was kept) lapse as before.
 *
 * `c` is the alias (or table name) of `completion` in the statement.
 */
export function leaseLapsed(c: string): string {
  return `(${c}.lease_until < clock_timestamp() AND NOT EXISTS (
    SELECT 1 FROM worker lease_holder
    WHERE lease_holder.id = ${c}.lease_owner AND lease_holder.last_seen_at <= ${c}.lease_renewed_at))`;
}
