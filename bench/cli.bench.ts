import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { percentile } from "./percentile";

const BIN = path.resolve(__dirname, "../../bin/memicl.js");
const PRELOAD = path.resolve(__dirname, "../../test/support/loaded-packages.js");

/** Wall seconds of one process, and the packages it loaded (with the preload). */
function once(args: string[], env: Record<string, string>): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, stdio: "ignore" });
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

function packagesOf(args: string[], env: Record<string, string>): number {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "memicl-cli-bench-")), "loaded.json");
  spawnSync(process.execPath, ["-r", PRELOAD, BIN, ...args], {
    env: { ...process.env, ...env, LOADED_OUT: out },
    stdio: "ignore",
  });
  const count = (JSON.parse(fs.readFileSync(out, "utf8")) as string[]).length;
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  return count;
}

/**
 * `npm run bench -- cli [--runs 9] [--pg URL]`: each command against `node -e 0`, run in pairs (one, then the
 * other, alternating which goes first) on a quiet machine; the medians, their ratio, and the packages the command
 * loads. The read-only commands run against a fresh, migrated database on the PostgreSQL server at --pg.
 */
export async function benchCli(args: string[]) {
  const option = (name: string, fallback: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : fallback;
  };
  const runs = Number(option("--runs", "9"));
  const adminUrl = option(
    "--pg",
    process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  );
  const name = `memicl_cli_bench_${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.toString(), LOG_LEVEL: "warn" };
  const rows: string[] = [];
  try {
    once([BIN, "migrate"], env);
    // A small file for the command that writes through the service's data source (it adds the rows each run).
    const csv = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "memicl-cli-bench-")), "tiny.csv");
    fs.writeFileSync(csv, "text,label\nthe sky is blue,yes\ngrass is red,no\n");
    const commands = [
      ["--help"],
      ["--version"],
      ["report", "--help"],
      ["experiments"],
      ["workers"],
      ["keys", "list"],
      ["migrate"],
      ["import", csv, "--name", "tiny"],
    ];
    for (const command of commands) {
      const base: number[] = [];
      const timed: number[] = [];
      for (let run = 0; run < runs; run += 1) {
        const pair = [
          () => base.push(once(["-e", "0"], env)),
          () => timed.push(once([BIN, ...command], env)),
        ];
        if (run % 2) pair.reverse();
        for (const step of pair) step();
      }
      const baseline = percentile(base, 50);
      const median = percentile(timed, 50);
      rows.push(
        `| memicl ${command.join(" ").replace(csv, "tiny.csv")} | ${median.toFixed(3)} | ${baseline.toFixed(3)} | ${(median / baseline).toFixed(1)}x | ${packagesOf(command, env)} |`,
      );
    }
    fs.rmSync(path.dirname(csv), { recursive: true, force: true });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  process.stdout.write(
    [
      `| command | median (s) | node -e 0 (s) | ratio | packages loaded |`,
      "| --- | ---: | ---: | ---: | ---: |",
      ...rows,
      "",
      `${runs} pairs each.`,
      "",
      ...consecutiveOnEmbedded(),
    ].join("\n"),
  );
}

/**
 * Ten consecutive commands on a new embedded data folder without a serve (a first study: ten small imports), with
 * the server left up between commands (the default idle period) and stopped after each (MEMICL_EMBEDDED_IDLE_SECONDS
 * =0), interleaved command by command: the first command's wall time and the others' median and worst.
 */
function consecutiveOnEmbedded(): string[] {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-cli-embedded-"));
  fs.chmodSync(root, 0o755);
  const csv = path.join(root, "pairs.csv");
  fs.writeFileSync(
    csv,
    `sentence1,sentence2,label\n${Array.from({ length: 50 }, (_, i) => `First ${i} says a thing,Second ${i} says another,${i % 2 ? "entailment" : "not_entailment"}`).join("\n")}\n`,
  );
  const ways = [
    { name: "left up between commands (default)", idle: "600", times: [] as number[] },
    { name: "stopped after each (MEMICL_EMBEDDED_IDLE_SECONDS=0)", idle: "0", times: [] as number[] },
  ];
  try {
    for (let command = 0; command < 10; command += 1)
      for (const way of command % 2 ? [...ways].reverse() : ways)
        way.times.push(
          once([BIN, "import", csv, "--name", `d${command}`], {
            DATABASE_URL: "",
            MEMICL_DATA_DIR: path.join(root, way.idle),
            MEMICL_EMBEDDED_IDLE_SECONDS: way.idle,
            LOG_LEVEL: "warn",
          }),
        );
  } finally {
    for (const way of ways)
      spawnSync(process.execPath, [BIN, "db", "remove", "--yes"], {
        env: { ...process.env, DATABASE_URL: "", MEMICL_DATA_DIR: path.join(root, way.idle) },
        stdio: "ignore",
      });
    fs.rmSync(root, { recursive: true, force: true });
  }
  return [
    "| ten consecutive imports on a new embedded folder | first (s) | median of the next 9 (s) | worst of the next 9 (s) |",
    "| --- | ---: | ---: | ---: |",
    ...ways.map(
      (way) =>
        `| ${way.name} | ${way.times[0].toFixed(2)} | ${percentile(way.times.slice(1), 50).toFixed(2)} | ${Math.max(...way.times.slice(1)).toFixed(2)} |`,
    ),
    "",
  ];
}
