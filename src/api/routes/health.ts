import express from "express";
import { scrubSecrets } from "../../common/secrets";
import { Database } from "../../db/database";
import { JobQueue } from "../../queue/job-queue";

/** `/health` (the database answers) and `/ready` (it answers, every migration is applied, the queue started). */
export function healthRoutes(database: Database, queue: JobQueue): express.Router {
  const router = express.Router();
  router.get("/health", async (_request, response) => {
    // A database that hangs (or a pool with no connection to give) is unavailable, said within a bound: a health
    // check that hangs with it tells a load balancer nothing.
    try {
      await withinSeconds(HEALTH_SECONDS, database.dataSource.query("SELECT 1"));
      response.json({ status: "ok", database: database.mode });
    } catch (error) {
      response.status(503).json({
        status: "unavailable",
        database: database.mode,
        reason: scrubSecrets((error as Error).message).slice(0, 200),
      });
    }
  });
  router.get("/ready", async (_request, response) => {
    const checks: Record<string, string> = {};
    const check = async (name: string, probe: () => Promise<void>) => {
      try {
        await withinSeconds(5, probe());
        checks[name] = "ok";
      } catch (error) {
        checks[name] = scrubSecrets((error as Error).message).slice(0, 200);
      }
    };
    await check("database", async () => {
      await database.dataSource.query("SELECT 1");
    });
    await check("migrations", async () => {
      if (await database.dataSource.showMigrations())
        throw new Error("migrations are pending: run memicl migrate");
    });
    await check("queue", () => queue.start());
    const ready = Object.values(checks).every((value) => value === "ok");
    response.status(ready ? 200 : 503).json({ status: ready ? "ready" : "not ready", checks });
  });
  return router;
}

/** How long `/health` waits for the database before it says it is unavailable. */
const HEALTH_SECONDS = 3;

/** `work`, or an error once `seconds` have passed without its answer. */
function withinSeconds<T>(seconds: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${seconds} s`)), seconds * 1000);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}
