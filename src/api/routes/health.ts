import express from "express";
import { scrubSecrets } from "../../common/secrets";
import { Database } from "../../db/database";
import { JobQueue } from "../../queue/job-queue";

/** `/health` (the database answers) and `/ready` (it answers, every migration is applied, the queue started). */
export function healthRoutes(database: Database, queue: JobQueue): express.Router {
  const router = express.Router();
  router.get("/health", async (_request, response) => {
    try {
      await database.dataSource.query("SELECT 1");
      response.json({ status: "ok", database: database.mode });
    } catch {
      response.status(503).json({ status: "unavailable", database: database.mode });
    }
  });
  router.get("/ready", async (_request, response) => {
    const checks: Record<string, string> = {};
    const check = async (name: string, probe: () => Promise<void>) => {
      try {
        await Promise.race([
          probe(),
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error("no answer within 5 s")), 5_000).unref(),
          ),
        ]);
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
