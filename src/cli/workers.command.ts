import { Config } from "../config/config";
import { openReadOnly } from "./open-database";

/** `memicl workers`: the live workers on this database, and what they can call. */
export async function runWorkers(config: Config): Promise<void> {
  const command = await openReadOnly(config);
  try {
    const workers = await command.services.workers.live();
    const out = process.stdout;
    if (workers.length === 0) {
      out.write(
        "no live workers: queued runs wait until `memicl serve` or `memicl worker` runs on this database\n",
      );
      return;
    }
    out.write(`${workers.length} live worker(s):\n`);
    for (const worker of workers) {
      const seen = ((Date.now() - new Date(worker.lastSeenAt).getTime()) / 1000).toFixed(0);
      out.write(
        `  ${worker.id} ${worker.role} pid ${worker.pid} on ${worker.host}: ${worker.inFlight}/${worker.concurrency} busy, ` +
          `providers ${worker.providers.join(", ") || "(none)"}, runs ${worker.runIds.length}, last seen ${seen} s ago\n`,
      );
    }
  } finally {
    await command.close();
  }
}
