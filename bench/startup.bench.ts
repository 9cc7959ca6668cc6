import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../src/common/free-port";
import { percentile } from "./percentile";

const BIN = path.resolve(__dirname, "../../bin/memicl.js");

interface Start {
  /** From the command to its first GraphQL answer. */
  answered: number;
  /** From the command to its log's "started the embedded PostgreSQL server" (the cluster up). */
  database: number | null;
  /** From the command to "serving GraphQL" (migrations checked, queue and workers up, listening). */
  listening: number | null;
}

/** One `memicl serve` on the data folder: the times of its phases, then SIGTERM and wait for it to end. */
async function startOnce(dataDir: string): Promise<Start> {
  const port = await freePort();
  const began = Date.now();
  const child = spawn(process.execPath, [BIN, "serve"], {
    env: { ...process.env, MEMICL_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const seen: Partial<Record<"database" | "listening", number>> = {};
  let buffered = "";
  const read = (chunk: Buffer) => {
    buffered += chunk.toString();
    for (;;) {
      const end = buffered.indexOf("\n");
      if (end < 0) break;
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (
        seen.database === undefined &&
        /started the embedded PostgreSQL server|database: embedded/.test(line)
      )
        seen.database = Date.now() - began;
      if (seen.listening === undefined && /is serving GraphQL/.test(line))
        seen.listening = Date.now() - began;
    }
  };
  child.stdout.on("data", read);
  child.stderr.on("data", read);
  const ended = new Promise((resolve) => child.once("exit", resolve));
  let answered = 0;
  const deadline = began + 120_000;
  while (answered === 0) {
    if (Date.now() > deadline) throw new Error("memicl serve did not answer within 120 s");
    try {
      const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ version { codeVersion } }" }),
        signal: AbortSignal.timeout(1000),
      });
      if (response.ok && (await response.text()).includes("codeVersion")) answered = Date.now() - began;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  child.kill("SIGTERM");
  await ended;
  return { answered, database: seen.database ?? null, listening: seen.listening ?? null };
}

/**
 * `npm run bench -- startup [--restarts 5]`: `memicl serve` as `npm start` runs it on a built checkout, on a fresh
 * data folder (the first start makes the cluster) and then restarted on it: the time to the first GraphQL answer,
 * and to the two phases its log marks (the embedded cluster up; listening).
 */
export async function benchStartup(args: string[]) {
  const index = args.indexOf("--restarts");
  const restarts = index >= 0 ? Number(args[index + 1]) : 5;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-bench-startup-"));
  // The data folder belongs to the embedded server's own system user when memicl runs as root.
  fs.chmodSync(dataDir, 0o755);
  try {
    const first = await startOnce(path.join(dataDir, "data"));
    const again: Start[] = [];
    for (let i = 0; i < restarts; i += 1) again.push(await startOnce(path.join(dataDir, "data")));
    const seconds = (ms: number | null) => (ms === null ? "-" : (ms / 1000).toFixed(2));
    const median = (pick: (start: Start) => number | null) =>
      percentile(
        again.map(pick).filter((value): value is number => value !== null),
        50,
      );
    const [load] = os.loadavg();
    process.stdout.write(
      `memicl serve, ${os.cpus().length} cores, load ${load.toFixed(1)} at the end; ${restarts} restarts\n\n` +
        "| start | cluster up (s) | listening (s) | first GraphQL answer (s) |\n" +
        "| --- | ---: | ---: | ---: |\n" +
        `| first (makes the cluster) | ${seconds(first.database)} | ${seconds(first.listening)} | ${seconds(first.answered)} |\n` +
        `| restart, median | ${seconds(median((s) => s.database))} | ${seconds(median((s) => s.listening))} | ${seconds(median((s) => s.answered))} |\n` +
        `| restart, slowest | - | - | ${seconds(Math.max(...again.map((s) => s.answered)))} |\n`,
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
