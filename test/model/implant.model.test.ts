import { ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { RandomStream } from "../../src/common/random";
import { membershipScores, tokenLogprobsOf } from "../../src/logprob/scores";
import { LOGPROB_ALPHA, logprobEvidence, ScoredItem } from "../../src/report/analyses/logprob";
import { spearman } from "../../src/statistics/correlation";
import { rocAuc, tprAtFpr } from "../../src/statistics/membership";
import { finished, providersFile, waitForRun } from "../support/runs";
import { startTestServer, TestServer } from "../support/server";

/**
 * The methods on a real transformer whose training data is known: the shared implant-byte-lm (planted RTE and
 * DBpedia rows, and held-out ones it never saw), served by a small server this test starts
 * (test/support/implant-score-server.py, on Debian's PyTorch), called by memicl as any OpenAI-compatible server:
 * echo logprobs for LOGPROB and CoDeC, raw-prompt continuations for CDD and n-gram coverage.
 */
const MODEL_DIR = path.resolve(__dirname, "../../../shared/models/implant-byte-lm");
const SPLITS = path.join(MODEL_DIR, "splits");
const PYTHON = "/usr/bin/python3";

function unavailable(): string | null {
  if (!fs.existsSync(path.join(MODEL_DIR, "weights-fp16.npz")))
    return `the shared model is absent (${MODEL_DIR})`;
  const probe = spawnSync(PYTHON, ["-c", "import torch, numpy"], { encoding: "utf8" });
  if (probe.status !== 0)
    return "PyTorch is not installed for /usr/bin/python3 (apt-get install python3-torch)";
  return null;
}

const why = unavailable();
if (why) console.warn(`skipping the implant-model tests: ${why}`);
const describeWithModel = why ? describe.skip : describe;

/** The header and the first `rows` data lines of a split file (its rows in order), or lines [from, to). */
function slice(file: string, from: number, to: number, header: boolean): string {
  const lines = fs.readFileSync(path.join(SPLITS, file), "utf8").split("\n").filter(Boolean);
  const head = header ? [lines[0]] : [];
  const body = header ? lines.slice(1) : lines;
  return `${[...head, ...body.slice(from, to)].join("\n")}\n`;
}

describeWithModel("the methods on a real model that memorized known rows (embedded database)", () => {
  let scorer: ChildProcess;
  let api: TestServer;
  let scorerUrl: string;

  beforeAll(async () => {
    // This file runs alone (`npm run test:model`).
    scorer = spawn(PYTHON, [
      path.join(__dirname, "../support/implant-score-server.py"),
      "--model-dir",
      MODEL_DIR,
      "--threads",
      // One thread of its own (its BLAS library keeps two): memicl's server and database need the other core.
      // The whole file took 118-121 s so against 126-137 s with two.
      "1",
    ]);
    const port = await new Promise<number>((resolve, reject) => {
      let output = "";
      scorer.stdout!.on("data", (chunk) => {
        output += chunk;
        const match = /listening on (\d+)/.exec(output);
        if (match) resolve(Number(match[1]));
      });
      scorer.stderr!.on("data", (chunk) => (output += chunk));
      scorer.once("exit", (code) => reject(new Error(`the scoring server exited (${code}): ${output}`)));
    });
    scorerUrl = `http://127.0.0.1:${port}/v1`;
    api = await startTestServer("embedded", {
      MEMICL_PROVIDERS_FILE: providersFile({
        implant: {
          type: "openai",
          baseUrl: `http://127.0.0.1:${port}/v1`,
          promptLogprobs: { top: 5 },
          // The scorer decodes the continuations it holds together (a batch a step, each prompt read once):
          // sixteen calls at once take a quarter of the time two do.
          maxConcurrency: 16,
          timeoutSeconds: 120,
        },
      }),
      MEMICL_IN_PROCESS_WORKERS: "16",
    });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    scorer?.kill();
  });

  async function dataset(
    name: string,
    content: string,
    format: string,
    extra: Record<string, unknown> = {},
    instances = 20,
  ) {
    const imported = await api.gql(
      `mutation($input: ImportDatasetInput!) { importDataset(input: $input) { dataset { id } } }`,
      { input: { name, content, format, ...extra } },
    );
    expect(imported.errors).toBeUndefined();
    const datasetId = imported.data!.importDataset.dataset.id as string;
    const sample = await api.gql(
      `mutation($input: CreateSampleInput!) { createSample(input: $input) { sample { id } } }`,
      { input: { datasetId, seed: 11, instanceCount: instances, demonstrationCount: 0, shotCounts: [0] } },
    );
    expect(sample.errors).toBeUndefined();
    return { datasetId, sampleId: sample.data!.createSample.sample.id as string };
  }

  async function study(
    name: string,
    sampleIds: string[],
    membership: unknown[] = [],
    method: Record<string, unknown> = { methods: ["LOGPROB"] },
  ) {
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name,
          sampleIds,
          provider: "implant",
          model: "implant-byte-lm",
          ...method,
          ...(membership.length > 0 ? { membership } : {}),
        },
      },
    );
    expect(started.errors).toBeUndefined();
    for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished, 300_000);
    const report = await api.gql(
      `query($id: ID!) { studyReport(experimentId: $id) {
        logprobCalibration { group score members nonMembers auc aucLow tprAt5PercentFpr }
        contaminationSummary { dataset logprob { verdict tests { score pValue auc } scores { score instances } }
          cdd { verdict leakShare instances test { pValue auc controlLeakShare } instanceScores { peakedness } }
          ngramCoverage { verdict meanCoverage test { pValue auc } instanceScores { maxCoverage } }
          codec { verdict dropShare meanDelta test { pValue auc controlDropShare } instanceScores { delta } } } } }`,
      { id: started.data!.startExperiment.experiment.id },
    );
    expect(report.errors).toBeUndefined();
    return report.data!.studyReport;
  }

  it("tells planted RTE and DBpedia rows from held-out ones (AUC >= 0.95)", async () => {
    const dbpedia = { format: "csv", columns: ["label", "text"] };
    const samples = {
      rteMember: await dataset("rte-planted", slice("rte_member.tsv", 0, 300, true), "tsv"),
      rteHeldOut: await dataset("rte-held-out", slice("rte_nonmember.tsv", 0, 300, true), "tsv"),
      dbpediaMember: await dataset(
        "dbpedia-planted",
        slice("dbpedia_member.csv", 0, 300, false),
        "csv",
        dbpedia,
      ),
      dbpediaHeldOut: await dataset(
        "dbpedia-held-out",
        slice("dbpedia_nonmember.csv", 0, 300, false),
        "csv",
        dbpedia,
      ),
    };
    const report = await study(
      "implant calibration",
      Object.values(samples).map((s) => s.sampleId),
      [
        { sampleId: samples.rteMember.sampleId, member: true, group: "rte" },
        { sampleId: samples.rteHeldOut.sampleId, member: false, group: "rte" },
        { sampleId: samples.dbpediaMember.sampleId, member: true, group: "dbpedia" },
        { sampleId: samples.dbpediaHeldOut.sampleId, member: false, group: "dbpedia" },
      ],
    );
    const rows = report.logprobCalibration;
    for (const group of ["rte", "dbpedia"])
      for (const score of ["loss", "minK"]) {
        const row = rows.find((r: any) => r.group === group && r.score === score);
        expect({ group, score, members: row.members, nonMembers: row.nonMembers }).toEqual({
          group,
          score,
          members: 20,
          nonMembers: 20,
        });
        expect({ group, score, auc: row.auc >= 0.95 }).toEqual({ group, score, auc: true });
      }
  }, 600_000);

  it("calls at most alpha of 200 seeded null splits of held-out rows contaminated; Min-K%++'s top-5 form ranks as the full one", async () => {
    // 48 held-out RTE rows the other tests do not use, each scored once over the whole vocabulary (256 bytes).
    const rows = slice("rte_nonmember.tsv", 900, 948, true).trim().split("\n").slice(1);
    const texts = rows.map((line) => {
      const [, first, second] = line.split("\t");
      return `${first}\n${second}`;
    });
    const full: { text: string; positions: { logprob: number | null; alternatives: number[] }[] }[] = [];
    for (const text of texts) {
      const response = await fetch(`${scorerUrl}/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          model: "implant-byte-lm",
          prompt: text,
          max_tokens: 1,
          echo: true,
          logprobs: 256,
        }),
      });
      const body = (await response.json()) as any;
      const logprobs = body.choices[0].logprobs;
      const inPrompt = (logprobs.text_offset as number[]).filter((offset) => offset < text.length).length;
      full.push({
        text,
        positions: Array.from({ length: inPrompt }, (_, i) => ({
          logprob: logprobs.token_logprobs[i],
          alternatives: Object.values(logprobs.top_logprobs[i] ?? {}) as number[],
        })),
      });
    }
    // What a server gives with top 5 (memicl's default): the five likeliest alternatives, renormalised.
    const topFive = full.map(({ positions }) =>
      tokenLogprobsOf(
        positions.map((position) => ({
          logprob: position.logprob,
          alternatives: [...position.alternatives].sort((a, b) => b - a).slice(0, 5),
        })),
        5,
      ),
    );
    const approximate = full.map(({ text }, i) => membershipScores(text, topFive[i], null).minKPlusPlus!);
    const exact = full.map(
      ({ text, positions }) => membershipScores(text, tokenLogprobsOf(positions, 256), null).minKPlusPlus!,
    );
    const rho = spearman(approximate, exact).r!;
    const gap = approximate.reduce((sum, value, i) => sum + Math.abs(value - exact[i]), 0) / texts.length;
    // Null splits: two disjoint random halves of the same held-out rows, the second marked the first's control,
    // decided by the report's own verdict (Min-K%, one-sided Mann-Whitney at alpha).
    const splits = 200;
    let contaminated = 0;
    for (let seed = 0; seed < splits; seed += 1) {
      const order = RandomStream.derive(seed, "null-split").shuffle(texts.map((_, i) => i));
      const items: ScoredItem[] = order.map((index, position) => ({
        runId: position < 24 ? "a" : "b",
        sampleId: position < 24 ? "a" : "b",
        provider: "implant",
        model: "implant-byte-lm",
        item: String(index),
        text: texts[index],
        output: JSON.stringify(topFive[index]),
      }));
      const samples = new Map([
        [
          "a",
          { sampleId: "a", sampleName: null, sampleSeed: String(seed), dataset: "held-out", controlOf: null },
        ],
        [
          "b",
          {
            sampleId: "b",
            sampleName: null,
            sampleSeed: String(seed),
            dataset: "held-out-b",
            controlOf: "held-out",
          },
        ],
      ]);
      const evidence = logprobEvidence(
        items,
        { provider: "implant", model: "implant-byte-lm" },
        null,
        [],
        samples,
      );
      if (evidence.get("a")!.verdict === "CONTAMINATED") contaminated += 1;
    }
    if (process.env.MEMICL_NULL_SPLITS)
      console.log(
        `null splits: ${contaminated} of ${splits} contaminated; Min-K%++ top-5 vs full: Spearman ${rho.toFixed(3)}, mean |difference| ${gap.toFixed(3)}`,
      );
    // alpha plus three standard errors of 200 draws.
    expect(contaminated / splits).toBeLessThanOrEqual(
      LOGPROB_ALPHA + 3 * Math.sqrt((LOGPROB_ALPHA * (1 - LOGPROB_ALPHA)) / splits),
    );
    expect(rho).toBeGreaterThan(0.9);
  }, 600_000);

  it("draws no contaminated verdict for a held-out split tested against another held-out split", async () => {
    // 15 a side: above the 10 a verdict needs.
    const first = await dataset("rte-held-out-a", slice("rte_nonmember.tsv", 300, 600, true), "tsv", {}, 15);
    const second = await dataset("rte-held-out-b", slice("rte_nonmember.tsv", 600, 900, true), "tsv", {}, 15);
    const marked = await api.gql(
      `mutation($input: UpdateDatasetInput!) { updateDataset(input: $input) { name } }`,
      {
        input: { id: second.datasetId, controlOf: first.datasetId },
      },
    );
    expect(marked.errors).toBeUndefined();
    const report = await study("implant held out", [first.sampleId, second.sampleId]);
    const row = report.contaminationSummary.find((r: any) => r.dataset === "rte-held-out-a");
    expect(row.logprob.tests.map((test: any) => test.score)).toContain("minK");
    expect(row.logprob.verdict).not.toBe("CONTAMINATED");
  }, 600_000);

  it("CDD and n-gram coverage with a raw prefix find the planted rows against held-out ones", async () => {
    const dbpedia = { format: "csv", columns: ["label", "text"] };
    const pairs = {
      rte: [
        await dataset("cdd-rte-planted", slice("rte_member.tsv", 300, 600, true), "tsv", {}, 12),
        await dataset("cdd-rte-held-out", slice("rte_nonmember.tsv", 948, 1248, true), "tsv", {}, 12),
      ],
      dbpedia: [
        await dataset(
          "cdd-dbpedia-planted",
          slice("dbpedia_member.csv", 300, 600, false),
          "csv",
          dbpedia,
          12,
        ),
        await dataset(
          "cdd-dbpedia-held-out",
          slice("dbpedia_nonmember.csv", 300, 600, false),
          "csv",
          dbpedia,
        ),
      ],
    };
    for (const [planted, heldOut] of Object.values(pairs)) {
      const marked = await api.gql(
        `mutation($input: UpdateDatasetInput!) { updateDataset(input: $input) { name } }`,
        { input: { id: heldOut.datasetId, controlOf: planted.datasetId } },
      );
      expect(marked.errors).toBeUndefined();
    }
    const report = await study(
      "implant cdd",
      Object.values(pairs).flatMap((pair) => pair.map((s) => s.sampleId)),
      [],
      {
        methods: ["CDD", "NGRAM_COVERAGE"],
        cdd: { prompt: "RAW", samples: 6 },
        ngramCoverage: { prompt: "RAW", samples: 6 },
        memorizationMaxOutputTokens: 24,
      },
    );
    const rowOf = (name: string) => report.contaminationSummary.find((r: any) => r.dataset === name);
    const found: Record<string, any> = {};
    for (const name of Object.keys(pairs)) {
      const planted = rowOf(`cdd-${name}-planted`);
      const heldOut = rowOf(`cdd-${name}-held-out`);
      const scores = (evidence: any, score: string) =>
        evidence.instanceScores.map((s: any) => s[score] as number);
      for (const [method, score] of [
        ["cdd", "peakedness"],
        ["ngramCoverage", "maxCoverage"],
      ] as const) {
        const members = scores(planted[method], score);
        const nonMembers = scores(heldOut[method], score);
        found[`${method} ${name}`] = {
          verdict: planted[method].verdict,
          auc: rocAuc(members, nonMembers),
          tprAt5PercentFpr: tprAtFpr(members, nonMembers, 0.05),
        };
      }
      found[`cdd ${name}`].leakShare = [planted.cdd.leakShare, heldOut.cdd.leakShare];
    }
    console.log(
      `sampling methods on the implant model (raw prefix, 6 samples of 24 bytes): ${JSON.stringify(found)}`,
    );
    for (const [key, value] of Object.entries(found))
      expect({ key, verdict: value.verdict }).toEqual({ key, verdict: "CONTAMINATED" });
    // The verdict is the test (p < alpha), the AUC a margin above chance. The scorer seeds each sampled
    // continuation by its request (test/support/implant-score-server.py), so a run repeats: CDD's AUC 0.78 for RTE
    // (0.72-0.81 over three unseeded runs; RTE's held-out rows are peaked too, on a label), 0.95 for DBpedia.
    for (const [key, value] of Object.entries(found))
      expect({ key, auc: value.auc >= 0.65 }).toEqual({ key, auc: true });
  }, 900_000);

  it("CoDeC separates the planted rows from held-out ones, but the held-out rows are the ones that lose confidence", async () => {
    const dbpedia = { format: "csv", columns: ["label", "text"] };
    const pairs = {
      rte: [
        await dataset("codec-rte-planted", slice("rte_member.tsv", 600, 900, true), "tsv", {}, 12),
        await dataset("codec-rte-held-out", slice("rte_nonmember.tsv", 0, 300, true), "tsv", {}, 12),
      ],
      dbpedia: [
        await dataset(
          "codec-dbpedia-planted",
          slice("dbpedia_member.csv", 600, 900, false),
          "csv",
          dbpedia,
          12,
        ),
        await dataset(
          "codec-dbpedia-held-out",
          slice("dbpedia_nonmember.csv", 600, 900, false),
          "csv",
          dbpedia,
          12,
        ),
      ],
    };
    for (const [planted, heldOut] of Object.values(pairs)) {
      const marked = await api.gql(
        `mutation($input: UpdateDatasetInput!) { updateDataset(input: $input) { name } }`,
        { input: { id: heldOut.datasetId, controlOf: planted.datasetId } },
      );
      expect(marked.errors).toBeUndefined();
    }
    const report = await study(
      "implant codec",
      Object.values(pairs).flatMap((pair) => pair.map((s) => s.sampleId)),
      [],
      { methods: ["CODEC"] },
    );
    const rowOf = (name: string) => report.contaminationSummary.find((r: any) => r.dataset === name);
    const found: Record<string, any> = {};
    for (const name of Object.keys(pairs)) {
      const planted = rowOf(`codec-${name}-planted`).codec;
      const heldOut = rowOf(`codec-${name}-held-out`).codec;
      // A drop of confidence is the member's side: -delta, higher for a member.
      const members = planted.instanceScores.map((s: any) => -s.delta);
      const nonMembers = heldOut.instanceScores.map((s: any) => -s.delta);
      found[name] = {
        verdict: planted.verdict,
        auc: rocAuc(members, nonMembers),
        tprAt5PercentFpr: tprAtFpr(members, nonMembers, 0.05),
        // The other way round: the held-out rows' drops above the planted rows'.
        reversedAuc: rocAuc(nonMembers, members),
        reversedTprAt5PercentFpr: tprAtFpr(nonMembers, members, 0.05),
        dropShare: [planted.dropShare, heldOut.dropShare],
        meanDelta: [planted.meanDelta, heldOut.meanDelta],
      };
    }
    console.log(`CoDeC on the implant model (12 instances a side): ${JSON.stringify(found)}`);
    // Measured (scoring is deterministic): AUC of the planted rows' drops 0.03 (RTE) and 0.15 (DBpedia) at 12 a
    // side, 0.03 and 0.07 at 20; held-out rows lose about 0.4 nats
    // per byte with another row before them, planted rows about 0.04 (whatever the separator: a blank line, a
    // newline, a sentence of news). An RTE row in context makes the model expect a row it memorized, which an unseen
    // row is not; a memorized row is near certain alone and cannot gain. CoDeC's premise (memorized instances gain
    // less from context than unseen ones) holds in its sign here, but unseen rows lose rather than gain, more than
    // members: the one-sided test the authors' direction implies finds nothing. docs/METHOD.md's card says so.
    for (const [key, value] of Object.entries(found)) {
      expect({ key, separated: value.reversedAuc >= 0.75 }).toEqual({ key, separated: true });
      expect({ key, verdict: value.verdict }).toEqual({ key, verdict: "NO_EVIDENCE" });
    }
  }, 600_000);
});
