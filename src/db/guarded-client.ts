import { Client, ClientConfig } from "pg";

/**
 * A pg client that never crashes the process with an unhandled `error` event. pg-pool listens for errors on idle
 * clients and TypeORM on the clients its query runners hold, but between the two a client has no listener: when
 * a client's query ends and the pool hands it at once to a runner waiting for a connection, TypeORM attaches its
 * listener a promise later, and an error already read from the same socket chunk (every backend's "terminating
 * connection due to unexpected postmaster exit" when the server dies) is emitted to nobody, which throws.
 * `memicl serve` died that way when its embedded server was killed mid-run. The error needs no handling here: the
 * client is dead, and its next query fails to whoever sends it (a job retried, a request answered with an error).
 */
export class GuardedClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.on("error", () => {});
  }
}
