import { startWorkers } from "../app/workers";
import { Config } from "../config/config";
import { startReportRowRefresher } from "../report/report-row.service";
import { openForCommand } from "./open-database";

/** `memicl worker`: works on queued completions (no HTTP) until SIGINT/SIGTERM; run as many as you like. */
export async function runWorker(config: Config, options: { concurrency?: number }): Promise<void> {
  const command = await openForCommand(config, { say: null });
  const concurrency = options.concurrency ?? config.workerConcurrency;
  const workers = await startWorkers(command.services, config, {
    role: "worker",
    concurrency,
    logger: command.logger,
  });
  // Report rows are kept current by every process that makes results change.
  const metricRefresher = startReportRowRefresher(command.services.reportRows, command.logger);
  process.stderr.write(
    `memicl: worker (pid ${process.pid}) making up to ${concurrency} calls at once; database: ${command.database.description}\n`,
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), 20_000).unref();
    await workers.stop();
    await metricRefresher.stop();
    await command.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}
