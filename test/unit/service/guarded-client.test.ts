import { Client } from "pg";
import { createDataSource } from "../../../src/db/data-source";
import { GuardedClient } from "../../../src/db/guarded-client";

describe("the pool's clients", () => {
  const fatal = Object.assign(new Error("terminating connection due to unexpected postmaster exit"), {
    code: "57P01",
  });

  it("take an error emitted while no one else listens without throwing", () => {
    // A plain client throws it: the process would die of an unhandled 'error' event.
    expect(() => new Client().emit("error", fatal)).toThrow("postmaster exit");
    const guarded = new GuardedClient({ host: "127.0.0.1", port: 1 });
    expect(() => guarded.emit("error", fatal)).not.toThrow();
    // The pool's and a query runner's own listeners still hear it.
    const heard: Error[] = [];
    guarded.on("error", (error) => heard.push(error));
    guarded.emit("error", fatal);
    expect(heard).toEqual([fatal]);
  });

  it("are the pools' clients on both databases", () => {
    const dataSource = createDataSource({ url: "postgres://memicl@127.0.0.1:1/memicl", poolSize: 1 });
    expect((dataSource.options as { extra?: { Client?: unknown } }).extra?.Client).toBe(GuardedClient);
  });
});
