import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MEMICL_COMMAND, runCli } from "../support/cli";
import { discardDataFolder } from "../support/data-folders";
import { providersFile } from "../support/runs";

/** Runs from the command line: progress in a log, and cancel, resume, retry-failed and delete. */
describe("memicl experiment --wait and the run commands", () => {
  let dir: string;
  let env: Record<string, string>;
  let sampleId: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-cli-runs-"));
    fs.chmodSync(dir, 0o755);
    env = {
      MEMICL_DATA_DIR: path.join(dir, "data"),
      DATABASE_URL: "",
      MEMICL_PROVIDERS_FILE: providersFile({
        // Two calls a second: a grid of 12 takes several seconds, and a run can be caught unfinished.
        slow: { type: "simulated", maxConcurrency: 2, requestsPerMinute: 120 },
        priced: {
          type: "simulated",
          maxConcurrency: 2,
          prices: { m: { inputPerMillion: 100, outputPerMillion: 200 } },
        },
      }),
    };
    const rows = path.join(dir, "rows.jsonl");
    fs.writeFileSync(
      rows,
      `${Array.from({ length: 30 }, (_, i) => JSON.stringify({ text: `row ${i} has a few more words in it to cut`, label: `l${i % 2}` })).join("\n")}\n`,
    );
    expect((await runCli(["import", rows, "--name", "rows"], env)).code).toBe(0);
    const sampled = await runCli(
      ["sample", "--dataset", "rows", "--instances", "6", "--demonstrations", "0", "--shots", "0"],
      env,
    );
    sampleId = /sample ([0-9a-f-]{36})/.exec(sampled.stdout)![1];
  }, 60_000);
  afterAll(async () => {
    await discardDataFolder(env.MEMICL_DATA_DIR);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("writes progress lines while it runs when stderr is not a terminal", async () => {
    const result = await runCli(
      [
        "experiment",
        "--sample",
        sampleId,
        "--provider",
        "slow",
        "--model",
        "m",
        "--kinds",
        "memorization",
        "--settings",
        "only-segment-pairs,full-information",
        "--wait",
        "--progress-every",
        "1",
      ],
      env,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^database: embedded PostgreSQL/m);
    expect(result.stdout).toMatch(/finished: 2 runs succeeded, 0 did not/);
    const lines = result.stderr.split("\n").filter((line) => line.startsWith("progress: "));
    // At one line a second over several seconds, and a last one at the end.
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.at(-1)).toMatch(
      /^progress: 12\/12 completions \(100\.0%\), 0 failed, [\d.]+\/s, ETA \S+, \$0\.00, 2\/2 runs finished$/,
    );
    expect(lines.some((line) => / [0-9]\/12 completions/.test(line) || /1[01]\/12/.test(line))).toBe(true);
  }, 90_000);

  it("cancels, resumes, retries and deletes an experiment from the command line", async () => {
    const queued = await runCli(
      ["experiment", "--sample", sampleId, "--provider", "slow", "--model", "m", "--kinds", "memorization"],
      env,
    );
    const experimentId = /experiment ([0-9a-f-]{36}): 4 runs/.exec(queued.stdout)![1];

    const cancelled = await runCli(["cancel", experimentId], env);
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toMatch(new RegExp(`experiment ${experimentId} \\(4 runs\\): cancelled`));
    expect(cancelled.stdout.match(/ CANCELLED: /g)).toHaveLength(4);

    const resumed = await runCli(["resume", experimentId], env);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/resumed; items queued again: 24$/m);
    const retried = await runCli(["retry-failed", experimentId], env);
    expect(retried.code).toBe(0);

    const unknown = await runCli(["cancel", "00000000-0000-0000-0000-000000000000"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Run or experiment 00000000-0000-0000-0000-000000000000 does not exist/);

    expect((await runCli(["cancel", experimentId], env)).code).toBe(0);
    const dry = await runCli(["delete", "experiment", experimentId, "--dry-run"], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/would delete experiment .*: 1 experiments, 4 runs, 24 completions/);
    // On a terminal it asks first: "n" keeps it (script(1) gives the command a terminal).
    const asked = await onTerminal(["delete", "experiment", experimentId], env, "n\n");
    expect(asked).toMatch(/delete experiment .*: 1 experiments, 4 runs, 24 completions.*\? \[y\/N\]/);
    expect(asked).toMatch(/not deleted/);
    const kept = await runCli(["delete", "experiment", experimentId, "--dry-run"], env);
    expect(kept.stdout).toMatch(/would delete experiment .*: 1 experiments, 4 runs/);
    const deleted = await runCli(["delete", "experiment", experimentId], env);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toMatch(/deleted experiment .*4 runs/);
    const wrong = await runCli(["delete", "run", experimentId], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/kind: experiment, sample or dataset, not "run"/);
  }, 90_000);

  it("shows the estimate before a budgeted grid, stops when the budget pauses it, and resumes it", async () => {
    const args = [
      "experiment",
      "--sample",
      sampleId,
      "--provider",
      "priced",
      "--model",
      "m",
      "--kinds",
      "memorization",
    ];
    const paused = await runCli([...args, "--max-cost", "0.05", "--yes", "--wait"], env);
    expect(paused.stdout).toMatch(
      /^estimate: 24 calls, \d+ prompt tokens, at most 2400 output tokens, at most \$\d+\.\d\d; budget \$0\.05$/m,
    );
    expect(paused.stdout).toMatch(/^note: the grid could cost more than its budget/m);
    expect(paused.stdout).toMatch(
      /^paused: budget: the experiment's budget of \$0\.05 is reached: \$0\.0\d+ spent/m,
    );
    expect(paused.code).toBe(3);
    const experimentId = /experiment ([0-9a-f-]{36}): 4 runs/.exec(paused.stdout)![1];
    expect(paused.stdout).toContain(`raise it to resume: memicl budget ${experimentId} --max-cost <usd>`);

    const raised = await runCli(["budget", experimentId, "--max-cost", "10"], env);
    expect(raised.code).toBe(0);
    expect(raised.stdout).toMatch(
      new RegExp(
        `^experiment ${experimentId}: budget \\$10\\.00, spent \\$0\\.0\\d+, in flight up to \\$0\\.00 \\(0 calls\\), remaining \\$9\\.\\d\\d$`,
        "m",
      ),
    );
    expect(raised.stdout).toMatch(/^resumed [1-4] run\(s\) the budget had paused$/m);
    expect((await runCli(["budget", experimentId], env)).stderr).toMatch(/give --max-cost <usd> or --remove/);
    // From a shell without the providers file: the prices the runs recorded when they started are enough.
    const bare = { ...env, MEMICL_PROVIDERS_FILE: "" };
    const fromShell = await runCli(["budget", experimentId, "--max-cost", "12"], bare);
    expect({ code: fromShell.code, stderr: fromShell.stderr }).toEqual({ code: 0, stderr: "" });
    expect(fromShell.stdout).toMatch(new RegExp(`^experiment ${experimentId}: budget \\$12\\.00`, "m"));
    const unpriced = await runCli(
      ["experiment", "--sample", sampleId, "--provider", "slow", "--model", "m", "--max-cost", "1"],
      env,
    );
    expect(unpriced.code).toBe(1);
    expect(unpriced.stderr).toMatch(/provider "slow" has no price for model "m"/);
    expect((await runCli(["cancel", experimentId], env)).code).toBe(0);
  }, 90_000);
});

/** A memicl command run on a terminal (script(1)'s pseudo-terminal), given `input`; what the terminal showed. */
function onTerminal(args: string[], env: Record<string, string>, input: string): Promise<string> {
  const command = [process.execPath, ...MEMICL_COMMAND, ...args]
    .map((part) => `'${part.replace(/'/g, "'\\''")}'`)
    .join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], { env: { ...process.env, ...env } });
    let shown = "";
    child.stdout.on("data", (chunk) => {
      shown += chunk;
      if (/\[y\/N\]/.test(shown) && input) {
        child.stdin.write(input);
        input = "";
      }
    });
    child.on("error", reject);
    child.on("close", () => resolve(shown));
  });
}
