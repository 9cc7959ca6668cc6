// Whether an error means PostgreSQL is refusing connections for now (full, starting, restarting), so that waiting
// and trying again is the answer. Pure.

/**
 * SQLSTATEs of a server that refuses for now: too many connections (53300), out of resources (53000), starting
 * up or shutting down (57P03), and connection failures (08xxx).
 */
const FULL_CODES = new Set(["53300", "53000", "57P03"]);
const UNREACHABLE_CODES = new Set(["08000", "08001", "08003", "08004", "08006"]);

/** What a server says when it is full or not ready. */
const FULL_MESSAGE =
  /too many (?:clients|connections)|remaining connection slots are reserved|the database system is (?:starting up|shutting down|in recovery mode)/i;
/** What a client library says when the server is unreachable or closed the connection before it was ready. */
const UNREACHABLE_MESSAGE =
  /ECONNREFUSED|ECONNRESET|Connection terminated (?:unexpectedly|due to connection timeout)|timeout expired/i;

/**
 * The reason a database refused a connection for now (its message), or null where the error is anything else
 * (bad credentials, a missing database or a failing statement are not waited out). A full or starting server
 * always counts; an unreachable one (connection refused or cut) only with `unreachableToo`: a worker waits for a
 * restarting server, a one-off command says at once that it cannot reach it. Looks through `cause` chains
 * and aggregate errors, as drivers and pg-boss wrap them.
 */
export function databaseRefusal(error: unknown, unreachableToo = true, depth = 0): string | null {
  if (!error || typeof error !== "object" || depth > 5) return null;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  const text = typeof message === "string" ? message : "";
  const full = (typeof code === "string" && FULL_CODES.has(code)) || FULL_MESSAGE.test(text);
  const unreachable =
    unreachableToo &&
    ((typeof code === "string" && UNREACHABLE_CODES.has(code)) || UNREACHABLE_MESSAGE.test(text));
  if (full || unreachable) return text || `SQLSTATE ${String(code)}`;
  if (Array.isArray(errors))
    for (const inner of errors) {
      const found = databaseRefusal(inner, unreachableToo, depth + 1);
      if (found) return found;
    }
  return databaseRefusal(cause, unreachableToo, depth + 1);
}

/** Seconds to wait before attempt `attempt` (0-based) after a refusal: doubling from 1 s to 30 s, with jitter. */
export function refusalBackoffSeconds(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30, 2 ** Math.min(attempt, 5));
  return Math.round(base * (0.5 + random() * 0.5) * 10) / 10;
}
