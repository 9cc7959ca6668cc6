import os from "node:os";
import path from "node:path";
import { EmbeddedCluster, joinCluster } from "../../src/db/embedded";
import { createLogger } from "../../src/logging/logger";

/** The environment variable through which the test run's embedded server reaches the test files. */
export const TEST_CLUSTER_ENV = "MEMICL_TEST_EMBEDDED_ADMIN_URL";

/** The data folder of the embedded server the suite runs on (kept between runs: a restart takes 0.1 s). */
export const TEST_DATA_DIR = path.join(os.tmpdir(), `memicl-test-cluster-${process.getuid?.() ?? "user"}`);

let cluster: EmbeddedCluster | null = null;

/** Jest globalSetup: starts (or joins) the embedded PostgreSQL server every test file's databases live on. */
export async function startTestCluster(): Promise<void> {
  cluster = await joinCluster(TEST_DATA_DIR, createLogger("warn"));
  process.env[TEST_CLUSTER_ENV] = cluster.adminUrl;
}

/** Jest globalTeardown: leaves it (the last one out stops it). */
export async function stopTestCluster(): Promise<void> {
  await cluster?.release();
  cluster = null;
}
