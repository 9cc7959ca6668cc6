import fs from "node:fs";
import { removeDataFolder, stopCluster } from "../../src/db/embedded";
import { createLogger } from "../../src/logging/logger";

/**
 * Stops a test's embedded server and removes its data folder with its cluster. Run as root, the cluster lives
 * outside the data folder (the server's own user could not reach a folder in root's), so removing the folder
 * alone left a cluster behind after every such test.
 */
export async function discardDataFolder(dataDir: string): Promise<void> {
  if (!fs.existsSync(dataDir)) return;
  const logger = createLogger("silent");
  await stopCluster(dataDir, logger).catch(() => {});
  await removeDataFolder(dataDir, logger).catch(() => {});
}
