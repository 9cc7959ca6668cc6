import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BACKENDS, createTestDatabase, TestDatabase, withClient } from "../support/databases";

const BIN = path.resolve(__dirname, "../../bin/memicl.js");
const PRELOAD = path.resolve(__dirname, "../support/loaded-packages.js");

/** Runs the built CLI with the preload that records the packages it loaded. */
function run(args: string[], databaseUrl: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-loaded-"));
  const out = path.join(dir, "loaded.json");
  return new Promise<{ code: number | null; stdout: string; stderr: string; loaded: string[] }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, ["-r", PRELOAD, BIN, ...args], {
        env: { ...process.env, DATABASE_URL: databaseUrl, LOADED_OUT: out, LOG_LEVEL: "warn" },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
      });
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      child.on("error", reject);
      child.on("close", (code) => {
        try {
          resolve({ code, stdout, stderr, loaded: JSON.parse(fs.readFileSync(out, "utf8")) });
        } catch (error) {
          reject(error);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      });
    },
  );
}

/**
 * Commands that only read build the core services: they load neither the queue (pg-boss) nor the providers
 * (openai), and never change the schema; a database behind the code is refused with the command to run.
 */
/**
 * What neither `migrate` nor `import` uses: the queue and the providers (run services), the report's validator,
 * metrics and judge (core services built on first use, src/app/core-services.ts), and GraphQL (the entities' types
 * are handed to type-graphql when a schema is built, src/graphql/deferred-types.ts).
 */
const UNUSED_BY_IMPORT = [
  "pg-boss",
  "openai",
  "class-validator",
  "prom-client",
  "diff",
  "wink-nlp",
  "graphql",
  "type-graphql",
  "graphql-scalars",
];

describe.each(BACKENDS)("read-only commands (%s)", (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(() => database.close());

  it.each([
    ["report", "00000000-0000-4000-8000-000000000000"],
    ["export", "00000000-0000-4000-8000-000000000000", "--format", "csv"],
    ["experiments"],
    ["workers"],
    ["keys", "list"],
    ["prompt", "--sample", "00000000-0000-4000-8000-000000000000"],
    ["estimate", "--sample", "00000000-0000-4000-8000-000000000000", "--provider", "simulated"],
    ["providers"],
  ])("memicl %s loads neither pg-boss nor openai", async (...args) => {
    const result = await run(args, database.url);
    expect(result.loaded).not.toContain("pg-boss");
    expect(result.loaded).not.toContain("openai");
    // The check itself: the database client did load.
    expect(result.loaded).toContain("pg");
    expect(result.stderr + result.stdout).not.toMatch(/schema is behind/);
  });

  it.each([["experiments"], ["workers"], ["keys", "list"]])(
    "memicl %s reads with one connection: no ORM, no GraphQL, no validator",
    async (...args) => {
      const result = await run(args, database.url);
      expect(result.code).toBe(0);
      expect(result.loaded).toContain("pg");
      for (const heavy of ["typeorm", "graphql", "class-validator", "type-graphql"])
        expect(result.loaded).not.toContain(heavy);
    },
  );

  it.each([["--help"], ["--version"], ["report", "--help"]])(
    "memicl %s loads no database, GraphQL or validation library",
    async (...args) => {
      const result = await run(args, database.url);
      expect(result.code).toBe(0);
      for (const heavy of ["typeorm", "graphql", "type-graphql", "zod", "pg", "class-validator", "diff"])
        expect({ heavy, loaded: result.loaded.includes(heavy) }).toEqual({ heavy, loaded: false });
      // The check itself: the command parser did load.
      expect(result.loaded).toContain("commander");
    },
  );

  it("commands that write but queue nothing (migrate, import) load neither, nor what other services use", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-loaded-import-"));
    const file = path.join(dir, "tiny.csv");
    fs.writeFileSync(file, "text,label\nthe sky is blue,yes\ngrass is red,no\n");
    try {
      for (const args of [["migrate"], ["import", file, "--name", `tiny_${backend}`]]) {
        const result = await run(args, database.url);
        expect({
          args,
          loaded: result.loaded.filter((name) => UNUSED_BY_IMPORT.includes(name)),
        }).toEqual({ args, loaded: [] });
        expect(result.loaded).toContain("typeorm");
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a command that queues work does load them (the check can see it)", async () => {
    const result = await run(["cancel", "00000000-0000-4000-8000-000000000000"], database.url);
    expect(result.loaded).toContain("pg-boss");
  });

  it("a command that reads the report loads what the report uses (the check can see it)", async () => {
    const result = await run(["report", "00000000-0000-4000-8000-000000000000"], database.url);
    for (const used of ["prom-client", "diff"]) expect(result.loaded).toContain(used);
    // The report's types and the paging types are handed to type-graphql only by a schema
    // (src/graphql/deferred-types.ts), and the report's validated inputs live apart (report.inputs.ts).
    for (const unused of ["class-validator", "graphql", "type-graphql"])
      expect({ unused, loaded: result.loaded.includes(unused) }).toEqual({ unused, loaded: false });
  });

  it("refuses a schema that is behind, naming memicl migrate, without changing it", async () => {
    const count = () =>
      withClient(
        database.url,
        async (client) => (await client.query("SELECT count(*)::int AS n FROM migrations")).rows[0].n,
      );
    const before = await count();
    const newest = await withClient(
      database.url,
      async (client) =>
        (await client.query("SELECT name FROM migrations ORDER BY id DESC LIMIT 1")).rows[0].name,
    );
    await withClient(database.url, (client) =>
      client.query("DELETE FROM migrations WHERE name = $1", [newest]),
    );
    const result = await run(["report", "00000000-0000-4000-8000-000000000000"], database.url);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("run `memicl migrate`");
    expect(result.loaded).not.toContain("pg-boss");
    expect(await count()).toBe(before - 1);
    // Put back as it was, so the database can be dropped as usual.
    await withClient(database.url, (client) =>
      client.query("INSERT INTO migrations (timestamp, name) VALUES ($1, $2)", [
        Number(newest.match(/\d+$/)?.[0] ?? 0),
        newest,
      ]),
    );
  });

  it.each([
    ["prompt", "--sample", "00000000-0000-4000-8000-000000000000"],
    ["estimate", "--sample", "00000000-0000-4000-8000-000000000000"],
    ["providers"],
  ])("memicl %s on a fresh database refuses, naming memicl migrate, and creates nothing", async (...args) => {
    const fresh = await createTestDatabase(backend);
    try {
      // An empty database: what a fresh data folder's is before anything migrated it.
      await withClient(fresh.url, (client) =>
        client.query("DROP SCHEMA public CASCADE; CREATE SCHEMA public"),
      );
      await withClient(fresh.url, (client) => client.query("DROP SCHEMA IF EXISTS pgboss CASCADE"));
      const result = await run(args, fresh.url);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("run `memicl migrate`");
      const tables = await withClient(
        fresh.url,
        async (client) =>
          (await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).rows[0]
            .n,
      );
      expect(tables).toBe(0);
    } finally {
      await fresh.close();
    }
  });
});
