import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { MIGRATIONS } from "../../migrations";
import { serverPidOf } from "../../src/db/embedded";
import { runCli, startServe } from "../support/cli";
import { discardDataFolder } from "../support/data-folders";
import { nliCsv } from "../support/fixtures";
import { patient } from "../support/patience";

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
    // As root, the embedded server runs as the postgres user, which must reach the data folder.
    fs.chmodSync(dir, 0o755);
    env = { MEMICL_DATA_DIR: path.join(dir, "data"), DATABASE_URL: "" };
    csv = path.join(dir, "pairs.csv");
    fs.writeFileSync(csv, nliCsv(12));
  });
  afterAll(async () => {
    await discardDataFolder(env.MEMICL_DATA_DIR);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("imports on its own, shares the server with other memicl processes, and the last one out stops it", async () => {
    const alone = await runCli(["import", csv, "--name", "first"], env);
    expect(alone.stderr).toBe("");
    expect(alone.stdout).toMatch(
      /database: embedded PostgreSQL [\d.]+ in .*data \(set by MEMICL_DATA_DIR[^)]*\), started by this process/,
    );
    expect(alone.stdout).toMatch(
      /imported 12 rows from pairs.csv into new dataset "first" \(split train, NLI\)/,
    );
    expect(alone.stdout).toMatch(/dataset id: [0-9a-f-]{36}/);
    // The command was the last (only) one out: the server stopped with it.
    expect(serverPidOf(path.join(env.MEMICL_DATA_DIR, "pg"))).toBeNull();
    // Only the owner may read the password; the cluster itself is the engine's alone.
    expect(fs.statSync(path.join(env.MEMICL_DATA_DIR, "password")).mode & 0o077).toBe(0);
    expect(fs.statSync(path.join(env.MEMICL_DATA_DIR, "pg")).mode & 0o077).toBe(0);

    const server = await startServe(env);
    try {
      const shared = await runCli(["import", csv, "--name", "second"], env);
      expect(shared.stdout).toMatch(/already running \(pid \d+\)/);
      expect(shared.stdout).toMatch(/imported 12 rows/);
      expect(await datasetNames(server.url)).toEqual(["first:12", "second:12"]);

      const second = await startServe(env);
      expect(await datasetNames(second.url)).toEqual(["first:12", "second:12"]);
      expect(await second.stop()).toBe(0);
      // The first server still has its database.
      expect(await datasetNames(server.url)).toEqual(["first:12", "second:12"]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(serverPidOf(path.join(env.MEMICL_DATA_DIR, "pg"))).toBeNull();

    const again = await startServe(env);
    try {
      expect(await datasetNames(again.url)).toEqual(["first:12", "second:12"]);
    } finally {
      await again.stop();
    }
  });

  it("recovers after memicl serve is killed with SIGKILL, with no manual step and nothing lost", async () => {
    const killed = await startServe(env);
    expect(await killed.stop("SIGKILL")).toBeNull();
    // The server outlives a killed owner; the next process joins it at once.
    const pid = serverPidOf(path.join(env.MEMICL_DATA_DIR, "pg"));
    expect(pid).not.toBeNull();
    const again = await startServe(env);
    try {
      expect(await datasetNames(again.url)).toEqual(["first:12", "second:12"]);
      expect(again.output()).toMatch(/already running/);
    } finally {
      await again.stop();
    }

    // Now the server itself dies uncleanly: the next start recovers it from its write-ahead log.
    const third = await startServe(env);
    const serverPid = serverPidOf(path.join(env.MEMICL_DATA_DIR, "pg"))!;
    process.kill(serverPid, "SIGKILL");
    await third.stop("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const recovered = await startServe(env);
    try {
      expect(await datasetNames(recovered.url)).toEqual(["first:12", "second:12"]);
    } finally {
      await recovered.stop();
    }
  });

  it("recognises a folder of the PGlite era and leaves it untouched", async () => {
    const old = path.join(dir, "old");
    fs.mkdirSync(path.join(old, "pgdata"), { recursive: true });
    fs.writeFileSync(path.join(old, "pgdata", "PG_VERSION"), "17\n");
    const result = await runCli(["migrate"], { ...env, MEMICL_DATA_DIR: old });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/holds a database of an earlier memicl \(PGlite/);
    expect(fs.readdirSync(old)).toEqual(["pgdata"]);
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

  it("exits with a clear message when its port is taken, and lets go of the data folder", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      // It used to print the error and hang: its workers and pools kept the process up.
      const result = await runCli(["serve"], { ...env, PORT: String(port), MEMICL_IN_PROCESS_WORKERS: "2" });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use`);
    } finally {
      blocker.close();
    }
    expect((await runCli(["migrate"], env)).code).toBe(0);
  }, 60_000);

  it("leaves the server up between commands for the idle period; db stop and the reaper stop it", async () => {
    const cluster = path.join(env.MEMICL_DATA_DIR, "pg");
    const lingering = { ...env, MEMICL_EMBEDDED_IDLE_SECONDS: "120" };
    const first = await runCli(["import", csv, "--name", "lingering"], lingering);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/started by this process/);
    expect(first.stderr).toMatch(/the embedded database stays up 2 min after the last command/);
    const pid = serverPidOf(cluster);
    expect(pid).not.toBeNull();
    const info = await runCli(["db", "info"], lingering);
    expect(info.stdout).toMatch(/used by no memicl process: it stops at \S+ unless a command joins it/);
    // The next commands join it: nothing is started, nothing said about it.
    for (const name of ["lingering-2", "lingering-3"]) {
      const next = await runCli(["import", csv, "--name", name], lingering);
      expect(next.stdout).toContain(`already running (pid ${pid})`);
      expect(next.stderr).toBe("");
    }
    expect(serverPidOf(cluster)).toBe(pid);
    expect((await runCli(["db", "stop"], lingering)).stdout).toMatch(
      /stopped the embedded database's server/,
    );
    expect(serverPidOf(cluster)).toBeNull();

    // With nobody on it for the idle period, the reaper stops it on its own.
    const brief = await runCli(["import", csv, "--name", "brief"], {
      ...env,
      MEMICL_EMBEDDED_IDLE_SECONDS: "1",
    });
    expect(brief.stdout).toMatch(/started by this process/);
    const deadline = Date.now() + patient(30_000);
    while (serverPidOf(cluster) !== null && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(serverPidOf(cluster)).toBeNull();
    expect((await runCli(["db", "info"], env)).stdout).toMatch(/server not running/);
  });
});
