// The embedded server's reaper: a detached process a CLI command starts when it is the last memicl process to leave
// a server it leaves up for an idle period (embedded.ts `armReaper`). It waits for the idle deadline, which each
// later command moves, and stops the server once the deadline passes with no memicl process on it. Run as
// `node idle-reaper.js DATA_DIR CLUSTER_DIR`; it exits when the server is in use again or stopped (a folder removed
// under it stops it: nothing can join a server whose password went with its folder).

import { setTimeout as sleep } from "node:timers/promises";
import { createLogger } from "../logging/logger";
import { idleUntil, stopIfIdle } from "./embedded";

/** Waits out the idle period (looking again at least every 5 s: a later command may shorten it) and stops the server if it is still unused. */
export async function reap(dataDir: string, clusterDir: string): Promise<void> {
  const logger = createLogger("warn");
  for (;;) {
    const until = idleUntil(dataDir);
    if (until !== null && until > Date.now()) await sleep(Math.min(until - Date.now() + 50, 5_000));
    if ((await stopIfIdle(dataDir, clusterDir, logger)) === "done") return;
  }
}

if (require.main === module) {
  const [dataDir, clusterDir] = process.argv.slice(2);
  if (!dataDir || !clusterDir) process.exit(2);
  reap(dataDir, clusterDir).then(
    () => process.exit(0),
    () => process.exit(1),
  );
}
