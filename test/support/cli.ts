import { ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { nodeFlagsOf } from "../../bench/node-flags";
import { patient } from "./patience";
import type { TestServer } from "./server";

export const MEMICL_BIN = path.resolve(__dirname, "../../bin/memicl.js");

/**
 * What runs `memicl` as its first line does (`node` with its flags, then the script): spawned as `node memicl.js`,
 * the command would run without the flags that line gives node (the young generation's size, see bin/memicl.js).
 */
export const MEMICL_COMMAND: readonly string[] = [...nodeFlagsOf(MEMICL_BIN), MEMICL_BIN];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `memicl` command (tests run `npm run build` first) and collects its output. */
export function runCli(args: string[], env: Record<string, string>, cwd?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...MEMICL_COMMAND, ...args], {
      // A command stops the embedded server it was the last on, as before the idle period, unless a test says.
      env: { MEMICL_EMBEDDED_IDLE_SECONDS: "0", ...process.env, ...env, LOG_LEVEL: "warn" },
      cwd,
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
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `memicl serve` on a port the operating system picks (PORT=0), reads the port from its banner and waits
 * until it answers on /health. A port chosen by the test could already be taken (by another test's outgoing
 * connection, for one), which made starts fail at random.
 */
export async function startServe(env: Record<string, string>, cwd?: string): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...MEMICL_COMMAND, "serve"], {
    env: { ...process.env, ...env, PORT: "0", LOG_LEVEL: "warn" },
    cwd,
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const deadline = Date.now() + patient(30_000);
  let url: string | undefined;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`memicl serve exited with ${child.exitCode}: ${output}`);
    url ??= bannerUrl(output);
    try {
      if (url && (await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`memicl serve did not start within ${patient(30_000)} ms (load-scaled): ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    url,
    output: () => output,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** The address in `memicl serve`'s banner ("... GraphQL at http://localhost:PORT/graphql ..."). */
function bannerUrl(output: string): string | undefined {
  const port = /GraphQL at http:\/\/localhost:(\d+)\/graphql/.exec(output)?.[1];
  return port ? `http://127.0.0.1:${port}` : undefined;
}

/** GraphQL over HTTP to a served memicl (`memicl serve` in its own process), as TestServer.gql speaks it. */
export function servedGql(baseUrl: string): Pick<TestServer, "gql"> {
  return {
    async gql(query: string, variables?: Record<string, unknown>) {
      const response = await fetch(`${baseUrl}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, ...((await response.json()) as object) };
    },
  } as Pick<TestServer, "gql">;
}
