import { isTransientDatabaseError } from "../../../src/common/transient-error";

/** An error as node-postgres or TypeORM throws it: a message and, from the server, a SQLSTATE. */
const error = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe("which database errors pass", () => {
  it.each([
    ["a deadlock's victim", error("deadlock detected", "40P01")],
    ["a serialization conflict", error("could not serialize access due to concurrent update", "40001")],
    ["a lock not available", error("could not obtain lock on row", "55P03")],
    ["the server shutting down", error("terminating connection due to administrator command", "57P01")],
    ["the server starting up", error("the database system is starting up", "57P03")],
    ["too many connections", error("sorry, too many clients already", "53300")],
    ["a connection exception", error("connection failure", "08006")],
    ["the server not listening", error("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")],
    ["a connection reset", error("read ECONNRESET", "ECONNRESET")],
    ["a dropped connection", error("Connection terminated unexpectedly")],
    ["the pool's wait for a connection", error("timeout exceeded when trying to connect")],
    [
      "a database closed to connections",
      error('database "memicl" is not currently accepting connections', "55000"),
    ],
  ])("%s passes", (_, failure) => {
    expect(isTransientDatabaseError(failure)).toBe(true);
  });

  it.each([
    ["a unique violation", error("duplicate key value violates unique constraint", "23505")],
    ["a NUL in text", error("unsupported Unicode escape sequence", "22P05")],
    ["a value out of range", error('value "3000000000" is out of range for type integer', "22003")],
    ["a syntax error", error('syntax error at or near "SELEC"', "42601")],
    ["another 55000", error("cannot change a read-only setting", "55000")],
    ["an error of memicl's own", error("cannot render the prompt")],
    ["not an Error", "Connection terminated"],
  ])("%s does not", (_, failure) => {
    expect(isTransientDatabaseError(failure)).toBe(false);
  });
});
