import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MIGRATIONS } from "../../migrations";
import { freePort, runCli, startServe } from "../support/cli";
import { nliCsv } from "../support/fixtures";

async function datasetNames(url: string): Promise<string[]> {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "{ datasets(first: 50) { edges { node { name instanceCount } } } }" }),
  });
  const body = (await response.json()) as any;
  return body.data.datasets.edges.map((edge: any) => `${edge.node.name}:${edge.node.instanceCount}`);
}

describe("the memicl command on an embedded data folder", () => {
  let dir: string;
  let env: Record<string, string>;
  let csv: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-cli-"));
    env = { MEMICL_DATA_DIR: path.join(dir, "data"), DATABASE_URL: "" };
    csv = path.join(dir, "pairs.csv");
    fs.writeFileSync(csv, nliCsv(12));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("imports on its own, shares the folder with a running server, and the server keeps the data across restarts", async () => {
    const alone = await runCli(["import", csv, "--name", "first"], env);
    expect(alone.stderr).toBe("");
    expect(alone.stdout).toMatch(/database: embedded database in .*data\n/);
    expect(alone.stdout).toMatch(
      /imported 12 rows from pairs.csv into new dataset "first" \(split train, NLI\)/,
    );
    expect(alone.stdout).toMatch(/dataset id: [0-9a-f-]{36}/);

    const port = freePort();
    const server = await startServe(env, port);
    try {
      const shared = await runCli(["import", csv, "--name", "second"], env);
      expect(shared.stdout).toMatch(/through the running memicl process \(pid \d+\)/);
      expect(shared.stdout).toMatch(/imported 12 rows/);
      expect(await datasetNames(server.url)).toEqual(["first:12", "second:12"]);

      const rival = await runCli(["serve"], { ...env, PORT: String(freePort()) });
      expect(rival.code).toBe(1);
      expect(rival.stderr).toMatch(/in use by another memicl process \(pid \d+/);
    } finally {
      expect(await server.stop()).toBe(0);
    }

    const again = await startServe(env, port);
    try {
      expect(await datasetNames(again.url)).toEqual(["first:12", "second:12"]);
    } finally {
      await again.stop();
    }
  });

  it("says that a file was imported before and changes nothing", async () => {
    const result = await runCli(["import", csv, "--name", "first"], env);
    expect(result.stdout).toMatch(
      /already imported: pairs.csv is in dataset "first" \(12 rows, split train\); nothing changed/,
    );
  });

  it("fails with the line of a malformed row and leaves no dataset behind", async () => {
    const bad = path.join(dir, "bad.tsv");
    fs.writeFileSync(bad, "index\tsentence1\tsentence2\tlabel\n0\ta\tb\tyes\n1\tonly\n");
    const result = await runCli(["import", bad, "--name", "broken"], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^memicl: line 3: wrong number of columns/);
    const retry = await runCli(["import", csv, "--name", "broken"], env);
    expect(retry.stdout).toMatch(/into new dataset "broken"/);
  });

  it("migrates and lists the applied migrations", async () => {
    const result = await runCli(["migrate"], env);
    expect(result.stdout).toContain(`schema up to date; ${MIGRATIONS.length} migration(s) applied:`);
    for (const migration of MIGRATIONS) expect(result.stdout).toContain(`  ${migration.name}\n`);
  });

  it("stops at start-up with a message naming a bad variable", async () => {
    const result = await runCli(["serve"], { ...env, PORT: "not-a-port" });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/PORT="not-a-port": must be a whole number/);
  });
});
