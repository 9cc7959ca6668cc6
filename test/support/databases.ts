import { createHash } from "node:crypto";
import { Client } from "pg";
import { MIGRATIONS } from "../../migrations";
import { connect, Database } from "../../src/db/database";
import { TEST_CLUSTER_ENV } from "./test-cluster";

export type Backend = "embedded" | "postgres";

/** The backends the suite runs on: always the embedded database; PostgreSQL too when TEST_DATABASE_URL is set. */
export const BACKENDS: Backend[] = process.env.TEST_DATABASE_URL ? ["embedded", "postgres"] : ["embedded"];

export interface TestDatabase extends Database {
  backend: Backend;
  /** The URL of the server's maintenance database (for tests that create databases of their own). */
  adminUrl: string;
}

/** The maintenance URL of a backend: the test run's embedded server (see test-cluster.ts), or TEST_DATABASE_URL. */
export function adminUrlOf(backend: Backend): string {
  const url = backend === "embedded" ? process.env[TEST_CLUSTER_ENV] : process.env.TEST_DATABASE_URL;
  if (!url) throw new Error(`no ${backend} database for tests (is jest's globalSetup configured?)`);
  return url;
}

/**
 * A fresh, migrated database of its own on the backend's server, cloned from a migrated template database
 * (made once per migration set), and dropped on close.
 */
export async function createTestDatabase(
  backend: Backend,
  options: { onQuery?: (sql: string) => void; poolSize?: number } = {},
): Promise<TestDatabase> {
  const adminUrl = adminUrlOf(backend);
  const template = await migratedTemplate(adminUrl);
  const name = `memicl_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const database = await connect("server", urlOf(adminUrl, name), `${backend} ${name}`, null, {
    onQuery: options.onQuery,
    poolSize: options.poolSize ?? 6,
  });
  return {
    ...database,
    mode: backend === "embedded" ? "embedded" : "server",
    backend,
    adminUrl,
    async close() {
      await database.close();
      await dropDatabase(adminUrl, name);
    },
  };
}

export function urlOf(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

export async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function migratedTemplate(adminUrl: string): Promise<string> {
  const names = MIGRATIONS.map((migration) => migration.name).join(",");
  const name = `memicl_template_${createHash("sha256").update(names).digest("hex").slice(0, 12)}`;
  return withClient(adminUrl, async (client) => {
    await client.query("SELECT pg_advisory_lock(hashtext('memicl:test-template'))");
    try {
      const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (rowCount === 0) {
        const building = `${name}_building`;
        await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await client.query(`CREATE DATABASE ${building}`);
        const database = await connect("server", urlOf(adminUrl, building), "template", null, {
          poolSize: 2,
        });
        await database.close();
        await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      }
      return name;
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('memicl:test-template'))");
    }
  });
}
