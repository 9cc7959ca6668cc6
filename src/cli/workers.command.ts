import { Config } from "../config/config";
import { deadAfterSeconds, liveWorkersSql } from "../worker/worker.sql";
import { openPlainReadOnly } from "./read-only";

/** `memicl workers`: the live workers on this database, and what they can call. */
export async function runWorkers(config: Config): Promise<void> {
  const reader = await openPlainReadOnly(config);
  try {
    const workers = await reader.query<{
      id: string;
      role: string;
      pid: number;
      host: string;
      in_flight: number;
      concurrency: number;
      providers: string[];
      run_ids: string[];
      last_seen_at: Date;
    }>(liveWorkersSql, [deadAfterSeconds(config)]);
    const out = process.stdout;
    if (workers.length === 0) {
      out.write(
        "no live workers: queued runs wait until `memicl serve` or `memicl worker` runs on this database\n",
      );
      return;
    }
    out.write(`${workers.length} live worker(s):\n`);
    for (const worker of workers) {
      const seen = ((Date.now() - new Date(worker.last_seen_at).getTime()) / 1000).toFixed(0);
      out.write(
        `  ${worker.id} ${worker.role} pid ${worker.pid} on ${worker.host}: ${worker.in_flight}/${worker.concurrency} busy, ` +
          `providers ${worker.providers.join(", ") || "(none)"}, runs ${worker.run_ids.length}, last seen ${seen} s ago\n`,
      );
    }
  } finally {
    await reader.close();
  }
}
