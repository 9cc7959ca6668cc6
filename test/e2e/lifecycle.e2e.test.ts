import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { MIGRATIONS } from "../../migrations";
import { runCli, startServe } from "../support/cli";
import { adminUrlOf, BACKENDS, dropDatabase, urlOf, withClient } from "../support/databases";
import { startTestServer } from "../support/server";

// A file of its own, in no group (test/support/groups.ts): the version query's hash is that of the first schema its
// process builds, as in `memicl serve`. A later one, built after other servers answered requests, can list a
// field's arguments in another order (type-graphql sorts a field's parameters in place when it is called).
describe("versions", () => {
  it("prints the package version with memicl --version", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../package.json"), "utf8"));
    const result = await runCli(["--version"], {});
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });

  it("answers the version query with the code version and the committed schema's hash", async () => {
    const api = await startTestServer("embedded");
    try {
      const response = await api.gql("{ version { codeVersion schemaHash node } }");
      const committed = fs.readFileSync(path.resolve(__dirname, "../../schema/schema.graphql"), "utf8");
      const { version } = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../package.json"), "utf8"));
      expect(response.data!.version).toEqual({
        codeVersion: `memicl@${version}`,
        schemaHash: createHash("sha256").update(committed.trimEnd()).digest("hex"),
        node: process.version,
      });
    } finally {
      await api.close();
    }
  });
});

describe.each(BACKENDS)("migrations started at the same moment (%s database)", (backend) => {
  it("five processes migrating one fresh database take turns: every migration applied once", async () => {
    const adminUrl = adminUrlOf(backend);
    const name = `memicl_race_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
    try {
      const url = urlOf(adminUrl, name);
      const results = await Promise.all(
        Array.from({ length: 5 }, () => runCli(["migrate"], { DATABASE_URL: url })),
      );
      expect(results.map((result) => [result.code, result.stderr])).toEqual(results.map(() => [0, ""]));
      const rows = await withClient(
        url,
        async (client) => (await client.query("SELECT name FROM migrations")).rows,
      );
      expect(rows.map((row) => row.name).sort()).toEqual(
        MIGRATIONS.map((migration) => migration.name).sort(),
      );
    } finally {
      await dropDatabase(adminUrl, name);
    }
  }, 90_000);
});

describe.each(BACKENDS)("servers started at the same moment on a fresh database (%s)", (backend) => {
  it("both serve: queue creation takes turns instead of deadlocking", async () => {
    const adminUrl = adminUrlOf(backend);
    const name = `memicl_pair_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
    const env = { DATABASE_URL: urlOf(adminUrl, name), MEMICL_IN_PROCESS_WORKERS: "4" };
    const started = await Promise.allSettled([startServe(env), startServe(env), startServe(env)]);
    try {
      expect(started.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
      const workers = await withClient(
        urlOf(adminUrl, name),
        async (client) => (await client.query("SELECT count(*)::int AS n FROM worker")).rows[0].n,
      );
      expect(workers).toBe(3);
    } finally {
      for (const result of started) if (result.status === "fulfilled") await result.value.stop();
      await dropDatabase(adminUrl, name);
    }
  }, 90_000);
});
