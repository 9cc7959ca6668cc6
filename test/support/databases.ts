import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { MIGRATIONS } from "../../migrations";
import { connect, Database } from "../../src/db/database";
import { startInMemory } from "../../src/db/embedded";

export type Backend = "embedded" | "postgres";

/** The backends the suite runs on: always the embedded database; PostgreSQL too when TEST_DATABASE_URL is set. */
export const BACKENDS: Backend[] = process.env.TEST_DATABASE_URL ? ["embedded", "postgres"] : ["embedded"];

export interface TestDatabase extends Database {
  backend: Backend;
}

/**
 * A fresh, migrated database of its own: an in-memory PGlite loaded from a migrated template
 * (cached on disk per migration set, since a cold PGlite takes seconds), or a new database on the server.
 */
export async function createTestDatabase(
  backend: Backend,
  options: { onQuery?: (sql: string) => void; poolSize?: number } = {},
): Promise<TestDatabase> {
  const poolSize = options.poolSize ?? 6;
  if (backend === "embedded") {
    const server = await startInMemory(await migratedTemplate());
    const database = await connect(
      "embedded",
      server.url,
      "in-memory PGlite",
      server,
      { onQuery: options.onQuery },
      poolSize,
    );
    return { ...database, backend };
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `memicl_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await connect(
    "server",
    url.toString(),
    `PostgreSQL ${name}`,
    null,
    { onQuery: options.onQuery },
    poolSize,
  );
  return {
    ...database,
    backend,
    async close() {
      await database.close();
      await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function migratedTemplate(): Promise<Blob> {
  const names = MIGRATIONS.map((migration) => migration.name).join(",");
  const tag = createHash("sha256").update(names).digest("hex").slice(0, 16);
  const file = path.join(os.tmpdir(), `memicl-test-template-${tag}.tar.gz`);
  if (!fs.existsSync(file)) {
    const server = await startInMemory();
    const database = await connect("embedded", server.url, "template", null, {}, 2);
    await database.close();
    const blob = await server.dump();
    await server.close();
    const tmp = `${file}.${process.pid}`;
    fs.writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
    fs.renameSync(tmp, file);
  }
  return new Blob([fs.readFileSync(file)]);
}
