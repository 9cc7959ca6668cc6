import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { EmbeddedCluster, joinCluster, removeDataFolder } from "../../src/db/embedded";
import { createLogger } from "../../src/logging/logger";

/** The environment variable through which the test run's embedded server reaches the test files. */
export const TEST_CLUSTER_ENV = "MEMICL_TEST_EMBEDDED_ADMIN_URL";

/** The data folder of the embedded server the suite runs on (removed at the end unless MEMICL_KEEP_TEST_CLUSTER=true). */
export const TEST_DATA_DIR = path.join(os.tmpdir(), `memicl-test-cluster-${process.getuid?.() ?? "user"}`);

let cluster: EmbeddedCluster | null = null;

/** The environment variable naming the folder test files put their scratch files in (removed at the end). */
export const TEST_SCRATCH_ENV = "MEMICL_TEST_SCRATCH_DIR";

/** Jest globalSetup: starts (or joins) the embedded PostgreSQL server every test file's databases live on. */
export async function startTestCluster(): Promise<void> {
  cluster = await joinCluster(TEST_DATA_DIR, createLogger("warn"));
  await withoutDurability(cluster.adminUrl);
  process.env[TEST_CLUSTER_ENV] = cluster.adminUrl;
  process.env[TEST_SCRATCH_ENV] = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-test-scratch-"));
}

/**
 * The suite's server writes nothing it must keep through a power loss: no flush to disk at each commit and no
 * full pages in the log (settings of this server alone, which the suite removes at its end). Crashes of memicl's
 * processes, and of the server itself, recover as before: what a kill loses is what the kernel has not written,
 * and the kernel keeps running. A user's embedded server keeps PostgreSQL's defaults.
 */
async function withoutDurability(adminUrl: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const setting of ["fsync = off", "synchronous_commit = off", "full_page_writes = off"])
      await client.query(`ALTER SYSTEM SET ${setting}`);
    await client.query("SELECT pg_reload_conf()");
  } finally {
    await client.end();
  }
}

/**
 * Jest globalTeardown: leaves the cluster (the last one out stops it) and removes the run's scratch files. The
 * cluster (about 70 MB) is removed too, unless MEMICL_KEEP_TEST_CLUSTER=true keeps it for the next run (which
 * then starts in 0.1 s instead of initialising a cluster again, about 2 s).
 */
export async function stopTestCluster(): Promise<void> {
  await cluster?.release();
  cluster = null;
  const scratch = process.env[TEST_SCRATCH_ENV];
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  if (process.env.MEMICL_KEEP_TEST_CLUSTER !== "true")
    await removeDataFolder(TEST_DATA_DIR, createLogger("warn")).catch((error) => {
      // Another test run still uses it: the last one out removes it.
      if (!/memicl processes use this database/.test((error as Error).message)) throw error;
    });
}
