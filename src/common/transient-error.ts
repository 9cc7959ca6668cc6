// Which database errors pass: the same statement, tried again a moment later, can succeed.

/**
 * SQLSTATEs of errors that pass: a transaction chosen as a deadlock's or a serialization conflict's victim (rolled
 * back whole), a lock not available, the server shutting down, starting up or crashed, too many connections, and
 * every connection exception (class 08).
 */
const TRANSIENT_SQLSTATES = new Set(["40001", "40P01", "55P03", "57P01", "57P02", "57P03", "53300"]);

/** The network's errors on the way to the server. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EAI_AGAIN",
]);

/**
 * Whether a database error passes. Not a constraint, a type or a value the server refused: those fail the same way
 * every time. node-postgres's own errors for a connection that dropped or could not be made carry no code, only
 * their message; a database closed to new connections (`ALLOW_CONNECTIONS false`) answers 55000 with its reason.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && code !== "") {
    if (code.startsWith("08") || TRANSIENT_SQLSTATES.has(code) || NETWORK_CODES.has(code)) return true;
    return code === "55000" && /not currently accepting connections/.test(error.message);
  }
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client was closed and is not queryable/i.test(
    error.message,
  );
}
