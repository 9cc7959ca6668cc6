import { spawn } from "node:child_process";
import { MEMICL_COMMAND, runCli } from "../../support/cli";
import { BACKENDS } from "../../support/databases";
import { patient } from "../../support/patience";
import { RefusingProxy } from "../../support/refusing-proxy";
import { providersFile } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

/**
 * A worker started while PostgreSQL refuses connections (too many clients) waits with backoff, says why, and
 * starts once the database lets it in; it does not exit.
 */
describe.each(BACKENDS.slice(0, 1))("a worker on a database that refuses connections (%s)", (backend) => {
  let api: TestServer;
  let proxy: RefusingProxy;

  beforeAll(async () => {
    api = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: providersFile({ sim: { type: "simulated" } }),
    });
    const target = new URL(api.database.url);
    proxy = new RefusingProxy({ host: target.hostname, port: Number(target.port || 5432) });
  }, 60_000);
  afterAll(async () => {
    await proxy?.stop();
    await api?.close();
  });

  it("refuses to start a process whose pools alone exceed the server's connections, naming the numbers", async () => {
    const refused = await runCli(["worker", "--concurrency", "2"], {
      DATABASE_URL: api.database.url,
      MEMICL_DB_POOL_SIZE: "1000",
      MEMICL_PROVIDERS_FILE: providersFile({ sim: { type: "simulated" } }),
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /this process opens up to 1005 connections \(MEMICL_DB_POOL_SIZE \+ MEMICL_QUEUE_POOL_SIZE \+ 1\) but the server allows \d+ in all \(max_connections \d+/,
    );
    expect(refused.stderr).not.toMatch(/unexpected error/);
  }, 60_000);

  it("waits, saying why, and registers once the database lets it in", async () => {
    const port = await proxy.start();
    const url = new URL(api.database.url);
    url.port = String(port);
    url.hostname = "127.0.0.1";
    const child = spawn(process.execPath, [...MEMICL_COMMAND, "worker", "--concurrency", "2"], {
      env: {
        ...process.env,
        DATABASE_URL: url.toString(),
        MEMICL_PROVIDERS_FILE: providersFile({ sim: { type: "simulated" } }),
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      const until = async (what: () => boolean | Promise<boolean>, label: string) => {
        const deadline = Date.now() + patient(30_000);
        while (!(await what())) {
          if (child.exitCode !== null) throw new Error(`the worker exited (${child.exitCode}): ${stderr}`);
          if (Date.now() > deadline) throw new Error(`${label}: not seen; stderr: ${stderr}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      await until(
        () => /refused a connection \(sorry, too many clients already\); trying again in/.test(stderr),
        "refusal",
      );
      await until(() => (stderr.match(/trying again in/g) ?? []).length >= 2, "second refusal");
      expect(child.exitCode).toBeNull();
      proxy.refusing = false;
      await until(async () => {
        const [{ live }] = await api.database.dataSource.query(
          `SELECT count(*)::int AS live FROM worker WHERE pid = $1`,
          [child.pid],
        );
        return live === 1;
      }, "registration");
      await until(() => /making up to 2 calls at once/.test(stderr), "start banner");
      expect(proxy.refused).toBeGreaterThanOrEqual(2);
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  }, 120_000);
});
