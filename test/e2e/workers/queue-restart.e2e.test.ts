import { createHook } from "node:async_hooks";
import { createLogger } from "../../../src/logging/logger";
import { PgBossQueue } from "../../../src/queue/pg-boss-queue";
import { BACKENDS, createTestDatabase, TestDatabase } from "../../support/databases";

/** The timers pg-boss's own code sets while `use` runs that are still set when it ends. */
async function pgBossTimersLeftBy(use: () => Promise<void>): Promise<string[]> {
  const live = new Map<number, string>();
  const hook = createHook({
    init(id, type) {
      if (type !== "Timeout") return;
      const stack = new Error().stack ?? "";
      if (stack.includes("pg-boss")) live.set(id, stack.split("\n").slice(2, 5).join(" / "));
    },
    destroy(id) {
      live.delete(id);
    },
  });
  hook.enable();
  try {
    await use();
  } finally {
    hook.disable();
  }
  return [...live.values()];
}

/**
 * The job queue used after it was stopped (a reconciler pass that outlived the workers that stopped it, a request
 * that arrives while the server shuts down) starts again, and its next stop leaves nothing running: pg-boss does
 * not start twice, and its upkeep timer, started a second time, outlived every stop and kept the process alive
 * (jest had to kill its worker).
 */
describe.each(BACKENDS)("the job queue stopped and used again (%s database)", (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("works again after a stop, and its next stop leaves no timer of pg-boss's running", async () => {
    const queue = new PgBossQueue(database.url, createLogger("silent"), 2);
    const left = await pgBossTimersLeftBy(async () => {
      await queue.start();
      await queue.stop();
      expect(await queue.settleOrphanedJobs("completion", 60, 10)).toBe(0);
      await queue.stop();
    });
    expect(left).toEqual([]);
  });
});
