import { RunningWorkers, startWorkers } from "../app/workers";
import { Config } from "../config/config";
import { databaseRefusal, refusalBackoffSeconds } from "../db/refusal";
import { startReportRowRefresher } from "../report/report-row.service";
import { CommandContext, openForCommand } from "./open-database";

/**
 * `memicl worker`: works on queued completions (no HTTP) until SIGINT/SIGTERM; run as many as you like. A database
 * that refuses connections at start (full, starting up) is waited for, with backoff, saying why each time.
 */
export async function runWorker(config: Config, options: { concurrency?: number }): Promise<void> {
  const concurrency = options.concurrency ?? config.workerConcurrency;
  let stopping = false;
  let wake: (() => void) | null = null;
  let started: { command: CommandContext; workers: RunningWorkers } | null = null;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    wake?.();
    setTimeout(() => process.exit(1), 20_000).unref();
    if (started) {
      await started.workers.stop();
      await metricRefresher?.stop();
      await started.command.close();
    }
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
  let metricRefresher: { stop(): Promise<void> } | null = null;
  for (let attempt = 0; !started; attempt++) {
    let command: CommandContext | null = null;
    try {
      command = await openForCommand(config, { say: null });
      const workers = await startWorkers(command.services, config, {
        role: "worker",
        concurrency,
        logger: command.logger,
      });
      started = { command, workers };
    } catch (error) {
      await command?.close().catch(() => {});
      const refusal = databaseRefusal(error);
      if (!refusal || stopping) throw error;
      const seconds = refusalBackoffSeconds(attempt);
      process.stderr.write(
        `memicl: worker (pid ${process.pid}): the database refused a connection (${refusal}); trying again in ${seconds} s\n`,
      );
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, seconds * 1000);
      });
      wake = null;
      if (stopping) return;
    }
  }
  // Report rows are kept current by every process that makes results change.
  metricRefresher = startReportRowRefresher(started.command.services.reportRows, started.command.logger);
  process.stderr.write(
    `memicl: worker (pid ${process.pid}) making up to ${concurrency} calls at once; database: ${started.command.database.description}\n`,
  );
}
