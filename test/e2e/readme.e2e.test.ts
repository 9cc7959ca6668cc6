import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MEMICL_COMMAND, ServeProcess, startServe } from "../support/cli";
import { discardDataFolder } from "../support/data-folders";
import { FakeOpenAiServer } from "../support/fake-openai-server";
import { providersFile } from "../support/runs";
import { describeWithSharedData } from "../support/shared-data";

const ROOT = path.resolve(__dirname, "../..");
/**
 * The README and the guides it links, read as one text in this order: the README's tour first, then the guides
 * where its examples continue. Every fenced sh and graphql block in them is an example this file runs.
 */
const DOCUMENTS = ["README.md", "docs/GUIDE.md", "docs/API.md", "docs/OPERATIONS.md"];
const README = DOCUMENTS.map((file) => fs.readFileSync(path.join(ROOT, file), "utf8")).join("\n");

/** The README's fenced blocks of one language, in order, with the line each starts on. */
function blocks(language: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  const lines = README.split("\n");
  for (let index = 0; index < lines.length; index++) {
    if (lines[index].trim() !== `\`\`\`${language}`) continue;
    const start = index + 1;
    let end = start;
    while (end < lines.length && lines[end].trim() !== "```") end++;
    found.push({ line: start + 1, text: lines.slice(start, end).join("\n") });
    index = end;
  }
  return found;
}

/** The shell block of imports, as commands (continuations joined, comments dropped). */
function importCommands(): string[][] {
  const block = blocks("sh").find((candidate) => candidate.text.startsWith("memicl import ../shared"));
  if (!block) throw new Error("the README has no block of `memicl import ../shared/...` commands");
  return block.text
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter(Boolean)
    .map((line) => line.split(/\s+/).slice(1));
}

describeWithSharedData("the README's examples, as written", () => {
  const fake = new FakeOpenAiServer();
  let dir: string;
  let env: Record<string, string>;
  let serve: ServeProcess;
  const ids: Record<string, string> = {};

  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${serve.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: any; errors?: { message: string }[] };
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-readme-"));
    fs.chmodSync(dir, 0o755);
    const url = await fake.start();
    env = {
      MEMICL_DATA_DIR: path.join(dir, "data"),
      DATABASE_URL: "",
      // The examples that name a real provider get one (a local stand-in); nothing runs the calls.
      MEMICL_PROVIDERS_FILE: providersFile({ openai: { type: "openai", baseUrl: url } }),
      MEMICL_IN_PROCESS_WORKERS: "0",
    };
  });
  afterAll(async () => {
    await serve?.stop();
    await discardDataFolder(env.MEMICL_DATA_DIR);
    await fake.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("imports the study's datasets with the README's commands", async () => {
    for (const args of importCommands()) {
      const result = await shell(`memicl ${args.join(" ")}`, env, ROOT);
      expect({ args, code: result.code, output: result.output }).toMatchObject({ code: 0 });
    }
    serve = await startServe(env);
    const datasets = await gql(`{ datasets(first: 10) { edges { node { id name instanceCount } } } }`);
    const byName = Object.fromEntries(
      datasets.data!.datasets.edges.map((edge: any) => [edge.node.name, edge.node.instanceCount]),
    );
    expect(byName).toMatchObject({ rte: 2490, wnli: 71, dbpedia: 5000 });
    ids.dataset = datasets.data!.datasets.edges.find((edge: any) => edge.node.name === "trec").node.id;
  }, 120_000);

  // Before the GraphQL blocks, which rename TREC's labels (as a reader following the README would).
  it("reproduces the settings table from the commands above it", async () => {
    const block = blocks("sh").find((candidate) =>
      candidate.text.startsWith("# the samples and prompts of the table"),
    );
    expect(block).toBeDefined();
    const [rteSample, trecSample, prompt] = shellCommands(block!.text);
    const table = settingsTable();
    for (const [sampleCommand, column] of [
      [rteSample, 0],
      [trecSample, 1],
    ] as const) {
      const sampled = await shell(sampleCommand, env, dir);
      expect({ command: sampleCommand, code: sampled.code }).toEqual({ command: sampleCommand, code: 0 });
      const sampleId = /sample ([0-9a-f-]{36})/.exec(sampled.output)![1];
      for (const [row, setting] of [
        "full-information",
        "segment-pairs-and-labels",
        "only-segment-pairs",
      ].entries()) {
        const command = prompt.replace("<sample id>", sampleId).replace("full-information", setting);
        const result = await shell(command, env, dir);
        expect(result.code).toBe(0);
        // The user message: after the "[user]" line, up to the expected continuation.
        const message = /\[user\]\n([\s\S]*?)\n\n\[expected continuation\]/.exec(result.output)![1];
        expect({ setting, column, message }).toEqual({ setting, column, message: table[row][column] });
      }
    }
  }, 120_000);

  it("runs every GraphQL block as pasted, with ids filled in", async () => {
    const graphqlBlocks = blocks("graphql");
    expect(graphqlBlocks.length).toBeGreaterThanOrEqual(10);
    for (const block of graphqlBlocks) {
      const text = block.text
        .replaceAll('"<dataset id>"', JSON.stringify(ids.dataset ?? ""))
        .replaceAll('"<sample id>"', JSON.stringify(ids.sample ?? ""))
        .replaceAll('"<id>"', JSON.stringify(ids.experiment ?? ""));
      expect({ line: block.line, placeholders: text.match(/"<[^>]+>"/g) }).toEqual({
        line: block.line,
        placeholders: null,
      });
      const operation = /^(query|mutation)\s+(\w+)/m.exec(text)?.[2];
      const variables: Record<string, unknown> =
        {
          Progress: { id: ids.run },
          Study: { id: ids.experiment },
          ReportRows: { id: ids.experiment },
          Instances: { id: ids.dataset },
        }[operation ?? ""] ?? {};
      const response = await gql(text, variables);
      expect({ line: block.line, errors: response.errors }).toEqual({ line: block.line, errors: undefined });
      // What later blocks need.
      if (response.data?.createSample) ids.sample = response.data.createSample.sample.id;
      if (response.data?.startExperiment) {
        ids.experiment = response.data.startExperiment.experiment.id;
        ids.run = response.data.startExperiment.runs[0].id;
      }
    }
    expect(Object.keys(ids).sort()).toEqual(["dataset", "experiment", "run", "sample"]);
  }, 120_000);

  it("runs the shell examples that need no network, as written (ids, files and the port filled in)", async () => {
    // Left out, and why: the synopsis and npm blocks (not examples) and the development commands.
    const runnable = blocks("sh").filter((block) =>
      /^(memicl sample|memicl experiment --sample <sample id> --provider simulated|memicl judge-agreement|memicl report|curl -s)/.test(
        block.text,
      ),
    );
    expect(runnable).toHaveLength(5);
    const port = new URL(serve.url).port;
    const gold = path.resolve(ROOT, "../shared/data/judge-gold/time-travel-human-labels.csv");
    for (const block of runnable) {
      for (const command of shellCommands(block.text)) {
        const filled = command
          .replaceAll("<sample id>", ids.sample)
          .replaceAll("<experiment id>", ids.experiment)
          .replaceAll("<id>", ids.sample)
          .replaceAll("GOLD.csv", gold)
          .replaceAll("localhost:4000", `127.0.0.1:${port}`);
        const result = await shell(filled, env, dir);
        expect({ line: block.line, command: filled, code: result.code, output: result.output }).toMatchObject(
          {
            code: 0,
          },
        );
        if (filled.startsWith("memicl sample --dataset trec"))
          expect(result.output).toContain(`sample ${ids.sample}`);
        if (filled.startsWith("memicl experiment")) {
          // The study's whole grid on the simulated model; the report and export below read it.
          expect(result.output).toMatch(/finished: 25 runs succeeded, 0 did not/);
          ids.experiment = /queued experiment ([0-9a-f-]{36})/.exec(result.output)![1];
        }
      }
    }
    const exported = fs.readFileSync(path.join(dir, "completions.csv"), "utf8");
    expect(exported).toMatch(/^completion_id,/);
    expect(exported.trim().split("\n").length).toBeGreaterThan(6000);
  }, 180_000);
});

/** The README's settings table: per row (setting), the RTE and TREC prompts as plain text. */
function settingsTable(): string[][] {
  const rows = README.split("\n").filter((line) => /^\| [123]\. /.test(line));
  expect(rows).toHaveLength(3);
  return rows.map((line) =>
    [...line.matchAll(/<pre>([\s\S]*?)<\/pre>/g)].map((match) =>
      match[1]
        .replaceAll("<br>", "\n")
        .replaceAll("&lt;", "<")
        .replaceAll("&gt;", ">")
        .replaceAll("&amp;", "&"),
    ),
  );
}

/** A shell block as commands: continuations joined, comments and optional `[...]` parts dropped. */
function shellCommands(text: string): string[] {
  return text
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").replace(/^#.*$/, ""))
    .map((line) => line.replace(/\s*\[[^\]]*\]/g, "").trim())
    .filter(Boolean);
}

/** Runs one command line with bash, `memicl` being this checkout's. */
function shell(command: string, env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(
      "bash",
      [
        "-c",
        `memicl() { ${[process.execPath, ...MEMICL_COMMAND].map((part) => `"${part}"`).join(" ")} "$@"; }\n${command}`,
      ],
      {
        cwd,
        env: { ...process.env, LOG_LEVEL: "warn", ...env },
      },
    );
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("the README", () => {
  it("is a tour, under 350 lines, linking every guide whose examples run here", () => {
    const text = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(text.split("\n").length).toBeLessThan(350);
    for (const guide of DOCUMENTS.slice(1)) expect(text).toContain(`](${guide}`);
  });
});
