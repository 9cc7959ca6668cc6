import { EXPORT_COLUMNS } from "../../../src/report/export.service";
import { resultsState } from "../../../src/report/report.sql";
import { REPORT_CSV_COLUMNS, reportCsv } from "../../../src/report/report-csv";
import { reportMarkdown } from "../../../src/report/report-markdown";
import { METRIC_ROWS_VERSION } from "../../../src/report/report-row.service";
import { ROW_NAMES } from "../../../src/report/report-rows";
import { fisherExact, holmAdjust, mcnemarExact } from "../../../src/statistics/tests";
import { BACKENDS } from "../../support/databases";
import { classificationSample, finished, providersFile, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

const SAMPLE = "sampleId sampleName sampleSeed";
const PAIRED = `${SAMPLE} dataset settingA shotsA settingB shotsB pairs bothMemorized onlyA onlyB neither rateA rateB pValue pValueHolm`;
const REPORT = `query($id: ID!) { studyReport(experimentId: $id) {
  computedAt experimentId
  subject { experimentName provider requestedModel reportedModels templateVersions judges }
  decisions { ${SAMPLE} dataset split method methodName verdict decision meaning errorRate errorRateBasis minimumDetectableRate floorRate rate rateLow rateHigh rateLabel note }
  memorization { ${SAMPLE} dataset setting shots n exact nearExact inexact unjudged memorized rate ciLow ciHigh intervalMethod samples betweenSampleStandardDeviation }
  memorizationExactOnly { ${SAMPLE} dataset setting shots n memorized rate }
  memorizationByRegime { ${SAMPLE} dataset setting regime n memorized rate ciLow ciHigh intervalMethod }
  performance { ${SAMPLE} dataset shots repeats n correct unparseable failed accuracy ciLow ciHigh intervalMethod meanAccuracy accuracyStandardDeviation }
  memorizedVsNotMemorized { ${SAMPLE} dataset setting shots memorized { instances n correct accuracy correctInstances } notMemorized { instances n correct accuracy correctInstances } difference differenceCiLow differenceCiHigh pValue pValueHolm }
  correlations { ${SAMPLE} dataset setting measure n pearson pearsonPValue pearsonPValueHolm pearsonCiLow pearsonCiHigh pearsonDescriptive pearsonPermutationPValue spearman spearmanPValue spearmanPValueHolm spearmanPValueMethod points { shots memorization performance } }
  settingComparisons { ${PAIRED} }
  zeroVsK { ${PAIRED} }
  zeroVsFewShot { ${PAIRED} }
  transitionRates { ${SAMPLE} dataset setting fromShots toShots nearExact becameExact rate ciLow ciHigh }
  nearExactToExact { dataset setting fromShots toShots sampledInstanceId }
  contamination { ${SAMPLE} dataset setting shots subsetJudged exact nearExact contaminated instances memorizedInstances rate ciLow ciHigh }
  hypothesisTests multipleComparisons
} }`;

const RAW = `query($id: ID!) { experiment(id: $id) { runs { id kind setting shots
  completions(first: 500) { edges { node { id repeat correct parsedLabel sampledInstance { id } effectiveJudgment { verdict } } } } } } }`;

/** Independent reference: Pearson's r by its definition. */
function pearsonReference(xs: number[], ys: number[]): number {
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const cov = xs.reduce((total, x, i) => total + (x - mx) * (ys[i] - my), 0);
  const sx = Math.sqrt(xs.reduce((total, x) => total + (x - mx) ** 2, 0));
  const sy = Math.sqrt(ys.reduce((total, y) => total + (y - my) ** 2, 0));
  return cov / (sx * sy);
}

const ROWS = `query($filter: ReportRowFilter!, $after: String) { reportRows(filter: $filter, first: 500, after: $after) {
  edges { node { id name value numerator denominator ciLow ciHigh computedAt
    scope { experimentId sampleId sampleSeed dataset setting shots regime measure judge otherSetting otherShots otherDataset group } } }
  pageInfo { hasNextPage endCursor } } }`;

/** Every metric row of a filter, page after page. */
async function allMetrics(api: TestServer, filter: Record<string, unknown>): Promise<any[]> {
  const rows: any[] = [];
  let after: string | null = null;
  for (;;) {
    const response: any = await api.gql(ROWS, { filter, after });
    expect(response.errors).toBeUndefined();
    rows.push(...response.data.reportRows.edges.map((edge: any) => edge.node));
    if (!response.data.reportRows.pageInfo.hasNextPage) return rows;
    after = response.data.reportRows.pageInfo.endCursor;
  }
}

/** The metric of this name whose scope has these values (exactly one). */
function metricOf(metrics: any[], name: string, scope: Record<string, unknown>): any {
  const found = metrics.filter(
    (metric) =>
      metric.name === name && Object.entries(scope).every(([key, value]) => metric.scope[key] === value),
  );
  expect({ name, scope, found: found.length }).toEqual({ name, scope, found: 1 });
  return found[0];
}

/** The report's numbers and the metric's, side by side. */
function expectSameNumbers(metric: any, expected: Record<string, number | null>): void {
  const actual = Object.fromEntries(Object.keys(expected).map((key) => [key, metric[key]]));
  expect(actual).toEqual(expected);
}

describe.each(BACKENDS)("results (%s database)", (backend) => {
  let api: TestServer;
  let experimentId: string;
  let raw: any[];
  let report: any;

  const load = async () => {
    raw = (await api.gql(RAW, { id: experimentId })).data!.experiment.runs;
    const response = await api.gql(REPORT, { id: experimentId });
    expect(response.errors).toBeUndefined();
    report = response.data!.studyReport;
  };

  beforeAll(async () => {
    const file = providersFile({
      sim: {
        type: "simulated",
        simulation: {
          memorizedAtZeroShot: 0.3,
          memorizedAtManyShots: 0.9,
          halfRiseShots: 5,
          nearExactShare: 0.6,
          seed: 7,
        },
      },
    });
    api = await startTestServer(backend, { MEMICL_PROVIDERS_FILE: file, MEMICL_IN_PROCESS_WORKERS: "16" });
    const sampleId = await classificationSample(api, "study", {
      rows: 200,
      instances: 40,
      demonstrations: 20,
      shots: [0, 5, 20],
    });
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name: "study",
          sampleIds: [sampleId],
          provider: "sim",
          model: "m",
          performanceRepeats: 2,
          // The paper's three settings: the counts below are theirs (the control has tests of its own).
          settings: ["FULL_INFORMATION", "SEGMENT_PAIRS_AND_LABELS", "ONLY_SEGMENT_PAIRS"],
        },
      },
    );
    experimentId = started.data!.startExperiment.experiment.id;
    for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished, 60_000);
    await load();
  }, 120_000);
  afterAll(() => api?.close());

  const memorizationRuns = () => raw.filter((run) => run.kind === "MEMORIZATION");
  const verdictsOf = (run: any) =>
    run.completions.edges.map((edge: any) => edge.node.effectiveJudgment?.verdict ?? null);

  it("reports every memorization count and rate as the rows say", () => {
    expect(report.memorization).toHaveLength(9);
    for (const run of memorizationRuns()) {
      const verdicts = verdictsOf(run);
      const exact = verdicts.filter((v: string) => v === "EXACT").length;
      const nearExact = verdicts.filter((v: string) => v === "NEAR_EXACT").length;
      const inexact = verdicts.filter((v: string) => v === "INEXACT").length;
      const row = report.memorization.find((r: any) => r.setting === run.setting && r.shots === run.shots);
      expect(row).toMatchObject({
        dataset: "study",
        n: exact + nearExact + inexact,
        exact,
        nearExact,
        inexact,
        memorized: exact + nearExact,
      });
      expect(row.rate).toBeCloseTo((exact + nearExact) / (exact + nearExact + inexact), 10);
      expect(row.ciLow).toBeLessThanOrEqual(row.rate);
      expect(row.ciHigh).toBeGreaterThanOrEqual(row.rate);
      const exactOnly = report.memorizationExactOnly.find(
        (r: any) => r.setting === run.setting && r.shots === run.shots,
      );
      expect(exactOnly.memorized).toBe(exact);
      expect(row).toMatchObject({ sampleSeed: "5", samples: 1, intervalMethod: "WILSON" });
      const contamination = report.contamination.find(
        (r: any) => r.setting === run.setting && r.shots === run.shots,
      );
      // The rule on the 10-instance subset; the whole sample's rate beside it (one completion per instance).
      expect(contamination).toMatchObject({
        instances: row.n,
        memorizedInstances: row.memorized,
        subsetJudged: 10,
      });
      expect(contamination.exact).toBeLessThanOrEqual(exact);
      expect(contamination.contaminated).toBe(contamination.exact >= 1 || contamination.nearExact >= 2);
    }
    const fewShot = report.memorizationByRegime.find(
      (r: any) => r.setting === "FULL_INFORMATION" && r.regime === "FEW_SHOT",
    );
    const few = memorizationRuns().filter((run) => run.setting === "FULL_INFORMATION" && run.shots > 0);
    expect(fewShot.n).toBe(
      few.reduce(
        (total, run) => total + verdictsOf(run).filter((v: string) => v && v !== "UNPARSEABLE").length,
        0,
      ),
    );
    // The regime pools k = 5 and 20 of the same 40 instances: a cluster interval, not Wilson's.
    expect(fewShot.intervalMethod).toBe("CLUSTER_BOOTSTRAP");
    expect(fewShot.ciLow).toBeLessThanOrEqual(fewShot.rate);
    expect(fewShot.ciHigh).toBeGreaterThanOrEqual(fewShot.rate);
  });

  const verdictMap = (run: any) =>
    new Map<string, string>(
      run.completions.edges.map((edge: any) => [
        edge.node.sampledInstance.id,
        edge.node.effectiveJudgment?.verdict,
      ]),
    );
  const memorizedVerdict = (verdict: string | undefined) => verdict === "EXACT" || verdict === "NEAR_EXACT";

  it("serves a breakdown the report computed from the report's computation, not another", async () => {
    const ROWS = "computedAt sampleId setting shots n exact nearExact inexact memorized rate ciLow ciHigh";
    const read = await api.gql(
      `query($id: ID!) {
        studyReport(experimentId: $id) { computedAt memorization { ${ROWS} } memorizationExactOnly { ${ROWS} } }
        byCell: memorizationBreakdown(filter: { experimentId: $id }) { ${ROWS} }
        exactOnly: memorizationBreakdown(filter: { experimentId: $id, datasets: null }, measure: EXACT_ONLY) { ${ROWS} }
      }`,
      { id: experimentId },
    );
    expect(read.errors).toBeUndefined();
    const { studyReport, byCell, exactOnly } = read.data!;
    // The same rows, stamped with the state the report read: one computation of these results, not two.
    expect(byCell).toEqual(studyReport.memorization);
    expect(exactOnly).toEqual(studyReport.memorizationExactOnly);
    expect(byCell[0].computedAt).toBe(studyReport.computedAt);
  });

  it("compares settings and k on the same instances with McNemar's test, counted from the completions", () => {
    const runOf = (setting: string, shots: number) =>
      memorizationRuns().find((run) => run.setting === setting && run.shots === shots);
    const check = (row: any) => {
      const a = verdictMap(runOf(row.settingA, row.shotsA));
      const b = verdictMap(runOf(row.settingB, row.shotsB));
      let onlyA = 0;
      let onlyB = 0;
      let pairs = 0;
      for (const [id, verdict] of a) {
        if (!verdict || !b.get(id)) continue;
        pairs += 1;
        if (memorizedVerdict(verdict) && !memorizedVerdict(b.get(id))) onlyA += 1;
        if (!memorizedVerdict(verdict) && memorizedVerdict(b.get(id))) onlyB += 1;
      }
      expect(row).toMatchObject({ pairs, onlyA, onlyB });
      if (onlyA + onlyB > 0) expect(row.pValue).toBeCloseTo(mcnemarExact(onlyA, onlyB)!, 12);
    };
    expect(report.settingComparisons).toHaveLength(9); // 3 pairs of settings x 3 k
    expect(report.zeroVsK).toHaveLength(6); // 3 settings x (k = 5, 20)
    // The deprecated spelling answers the same rows.
    expect(report.zeroVsFewShot).toEqual(report.zeroVsK);
    for (const row of [...report.settingComparisons, ...report.zeroVsK]) check(row);
    for (const row of report.transitionRates) {
      const before = verdictMap(runOf(row.setting, row.fromShots));
      const after = verdictMap(runOf(row.setting, row.toShots));
      const near = [...before].filter(([id, verdict]) => verdict === "NEAR_EXACT" && after.get(id));
      expect(row.nearExact).toBe(near.length);
      expect(row.becameExact).toBe(near.filter(([id]) => after.get(id) === "EXACT").length);
    }
  });

  it("adjusts every p-value of the report with Holm, and says so", () => {
    const ps = [
      ...report.memorizedVsNotMemorized.map((row: any) => row.pValue),
      ...report.correlations.flatMap((row: any) => [row.pearsonPValue, row.spearmanPValue]),
      ...report.settingComparisons.map((row: any) => row.pValue),
      ...report.zeroVsK.map((row: any) => row.pValue),
    ].filter((p) => p !== null);
    expect(report.hypothesisTests).toBe(ps.length);
    expect(report.multipleComparisons).toMatch(/Holm/);
    const adjusted = holmAdjust(ps);
    const holm = [
      ...report.memorizedVsNotMemorized.map((row: any) => row.pValueHolm),
      ...report.correlations.flatMap((row: any) => [row.pearsonPValueHolm, row.spearmanPValueHolm]),
      ...report.settingComparisons.map((row: any) => row.pValueHolm),
      ...report.zeroVsK.map((row: any) => row.pValueHolm),
    ].filter((p) => p !== null);
    holm.forEach((p, index) => {
      expect(p).toBeCloseTo(adjusted[index]!, 12);
    });
    for (const row of report.correlations.filter((r: any) => r.n === 3 && r.spearman !== null))
      expect(row.spearmanPValueMethod).toBe("exact permutation");
  });

  it("reports performance per k as the mean and spread of each repeat's accuracy", () => {
    for (const run of raw.filter((r) => r.kind === "PERFORMANCE")) {
      const nodes = run.completions.edges.map((edge: any) => edge.node);
      const accuracies = [0, 1].map((repeat) => {
        const ofRepeat = nodes.filter((node: any) => node.repeat === repeat);
        return ofRepeat.filter((node: any) => node.correct).length / ofRepeat.length;
      });
      const mean = (accuracies[0] + accuracies[1]) / 2;
      const sd = Math.abs(accuracies[0] - accuracies[1]) / Math.SQRT2;
      const row = report.performance.find((r: any) => r.shots === run.shots);
      expect(row).toMatchObject({
        repeats: 2,
        n: 80,
        failed: 0,
        correct: nodes.filter((node: any) => node.correct).length,
        intervalMethod: "CLUSTER_BOOTSTRAP",
      });
      expect(row.accuracy).toBeCloseTo(row.correct / 80, 12);
      expect(row.unparseable).toBe(nodes.filter((node: any) => node.parsedLabel === null).length);
      expect(row.meanAccuracy).toBeCloseTo(mean, 10);
      expect(row.accuracyStandardDeviation).toBeCloseTo(sd, 10);
    }
  });

  it("splits performance by whether the instance was memorized in the same setting and k", () => {
    for (const run of memorizationRuns()) {
      const memorized = new Set(
        run.completions.edges
          .filter((edge: any) => ["EXACT", "NEAR_EXACT"].includes(edge.node.effectiveJudgment?.verdict))
          .map((edge: any) => edge.node.sampledInstance.id),
      );
      const performance = raw.find((r) => r.kind === "PERFORMANCE" && r.shots === run.shots);
      const nodes = performance.completions.edges.map((edge: any) => edge.node);
      const inGroup = nodes.filter((node: any) => memorized.has(node.sampledInstance.id));
      const row = report.memorizedVsNotMemorized.find(
        (r: any) => r.setting === run.setting && r.shots === run.shots,
      );
      expect(row.memorized).toMatchObject({
        instances: memorized.size,
        n: inGroup.length,
        correct: inGroup.filter((n: any) => n.correct).length,
      });
      expect(row.notMemorized.n).toBe(nodes.length - inGroup.length);
      // Over instances: each correct when the majority of its repeats are.
      const byInstance = new Map<string, { n: number; correct: number }>();
      for (const node of nodes) {
        const entry = byInstance.get(node.sampledInstance.id) ?? { n: 0, correct: 0 };
        entry.n += 1;
        if (node.correct) entry.correct += 1;
        byInstance.set(node.sampledInstance.id, entry);
      }
      const correctInstances = (inMemorized: boolean) =>
        [...byInstance.entries()].filter(
          ([id, entry]) => memorized.has(id) === inMemorized && 2 * entry.correct > entry.n,
        ).length;
      const m = { ...row.memorized, correctInstances: correctInstances(true) };
      const u = { ...row.notMemorized, correctInstances: correctInstances(false) };
      expect(row.memorized.correctInstances).toBe(m.correctInstances);
      expect(row.notMemorized.correctInstances).toBe(u.correctInstances);
      if (m.instances && u.instances) {
        expect(row.difference).toBeCloseTo(
          m.correctInstances / m.instances - u.correctInstances / u.instances,
          12,
        );
        expect(row.pValue).toBeCloseTo(
          fisherExact(
            m.correctInstances,
            m.instances - m.correctInstances,
            u.correctInstances,
            u.instances - u.correctInstances,
          )!,
          12,
        );
      }
    }
  });

  it("correlates performance with memorization across k, as Pearson's definition gives", () => {
    const row = report.correlations.find(
      (r: any) => r.setting === "ONLY_SEGMENT_PAIRS" && r.measure === "EXACT_OR_NEAR_EXACT",
    );
    expect(row.n).toBe(3);
    const xs = row.points.map((p: any) => p.performance);
    const ys = row.points.map((p: any) => p.memorization);
    expect(row.pearson).toBeCloseTo(pearsonReference(xs, ys), 10);
    // Three points: descriptive, with its exact permutation p (3! orderings) and no interval.
    expect(row).toMatchObject({ pearsonDescriptive: true, pearsonCiLow: null, pearsonCiHigh: null });
    expect([1 / 3, 2 / 3, 1].some((p) => Math.abs(p - row.pearsonPermutationPValue) < 1e-12)).toBe(true);
    for (const point of row.points) {
      expect(point.memorization).toBeCloseTo(
        report.memorization.find((r: any) => r.setting === "ONLY_SEGMENT_PAIRS" && r.shots === point.shots)
          .rate,
        10,
      );
    }
  });

  it("lists the instances that move from near-exact to exact as k grows", () => {
    const expected: string[] = [];
    for (const setting of ["FULL_INFORMATION", "SEGMENT_PAIRS_AND_LABELS", "ONLY_SEGMENT_PAIRS"]) {
      const runs = memorizationRuns().filter((run) => run.setting === setting);
      for (const a of runs)
        for (const b of runs) {
          if (b.shots <= a.shots) continue;
          const verdictAt = (run: any) =>
            new Map(
              run.completions.edges.map((edge: any) => [
                edge.node.sampledInstance.id,
                edge.node.effectiveJudgment?.verdict,
              ]),
            );
          const before = verdictAt(a);
          const after = verdictAt(b);
          for (const [id, verdict] of before)
            if (verdict === "NEAR_EXACT" && after.get(id) === "EXACT")
              expected.push(`${setting}|${a.shots}|${b.shots}|${id}`);
        }
    }
    const reported = report.nearExactToExact.map(
      (r: any) => `${r.setting}|${r.fromShots}|${r.toShots}|${r.sampledInstanceId}`,
    );
    expect(reported.sort()).toEqual(expected.sort());
    expect(expected.length).toBeGreaterThan(0);
  });

  it("exports every completion with every judgment over HTTP, as CSV and as JSONL", async () => {
    const base = api.server.url.replace(/\/graphql$/, "");
    const total = raw.reduce((sum, run) => sum + run.completions.edges.length, 0);
    const jsonl = await fetch(`${base}/export/experiments/${experimentId}/completions.jsonl`);
    expect(jsonl.headers.get("content-type")).toMatch(/ndjson/);
    const lines = (await jsonl.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(total);
    const memorization = lines.find((line) => line.kind === "MEMORIZATION");
    expect(memorization.judgments[0]).toMatchObject({
      judgeKind: "HEURISTIC",
      verdict: memorization.effective_verdict,
    });
    const csv = await (await fetch(`${base}/export/experiments/${experimentId}/completions.csv`)).text();
    const { parse } = await import("csv-parse/sync");
    const records = parse(csv, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(total);
    expect(JSON.parse(records.find((record) => record.kind === "MEMORIZATION")!.judgments)[0].judgeKind).toBe(
      "HEURISTIC",
    );
    // Every row says where it came from, and its judgments come flat too: concatenated exports stay apart.
    const row = records.find((record) => record.kind === "MEMORIZATION")!;
    expect(row).toMatchObject({
      experiment_id: experimentId,
      provider: "sim",
      template_key: expect.stringMatching(/^memorization\//),
      template_version: expect.stringMatching(/^\d+$/),
      temperature: "0",
      max_output_tokens: "100",
      effective_verdict: row.heuristic_verdict,
      effective_judge_kind: "HEURISTIC",
      effective_judge_name: "heuristic",
      llm_verdict: "",
    });
    expect(row.sample_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(row.sample_seed).toMatch(/^\d+$/);
    expect(Object.keys(row)).toEqual([...EXPORT_COLUMNS]);
    const missing = await fetch(
      `${base}/export/experiments/00000000-0000-0000-0000-000000000000/completions.csv`,
    );
    expect(missing.status).toBe(404);
  });

  it("serves the report's CSV over HTTP, the same text memicl report --format csv prints", async () => {
    const base = api.server.url.replace(/\/graphql$/, "");
    const response = await fetch(`${base}/export/experiments/${experimentId}/report.csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    const text = await response.text();
    // This test's report holds the fields its query asked for: each of its rows with a value is served, with the
    // same scope, value and counts (its interval where the query asked for it).
    const lines = reportCsv(report).trim().split("\n");
    const { parse } = require("csv-parse/sync");
    const records = parse(lines.join("\n"), { columns: true }) as Record<string, string>[];
    const keyOf = (record: Record<string, string>) =>
      REPORT_CSV_COLUMNS.slice(0, REPORT_CSV_COLUMNS.indexOf("value"))
        .filter((column) => column !== "sample_name")
        .map((column) => record[column])
        .join("|");
    const served = new Map(
      (parse(text, { columns: true }) as Record<string, string>[]).map((record) => [keyOf(record), record]),
    );
    const valued = records.filter((record) => /^-?\d/.test(record.value));
    expect(valued.length).toBeGreaterThan(50);
    for (const record of valued) {
      const twin = served.get(keyOf(record));
      expect(twin).toBeDefined();
      for (const column of ["value", "numerator", "denominator", "ci_low", "ci_high"])
        if (record[column] !== "") expect([column, twin![column]]).toEqual([column, record[column]]);
    }
    expect(text.split("\n")[0]).toBe(lines[0]);
    // Every row says which experiment and model it is of.
    expect(lines[0].split(",").slice(0, 4)).toEqual(["experiment_id", "experiment", "provider", "model"]);
    expect(lines[1].split(",")[0]).toBe(experimentId);
    const missing = await fetch(`${base}/export/experiments/00000000-0000-0000-0000-000000000000/report.csv`);
    expect(missing.status).toBe(404);
  });

  it("splits memorization by label and by reference length, and finds the ICL threshold", async () => {
    const response = await api.gql(
      `query($id: ID!) {
        memorizationByTarget(experimentId: $id) { sampleId setting shots groupBy group instances memorized }
        iclThresholds(experimentId: $id) { setting threshold highestWithoutGain points { shots memorizationRate gain pValue significantGain } }
      }`,
      { id: experimentId },
    );
    expect(response.errors).toBeUndefined();
    const { memorizationByTarget, iclThresholds } = response.data!;
    for (const cell of report.memorization.filter((r: any) => r.sampleId !== null)) {
      const parts = memorizationByTarget.filter(
        (r: any) => r.sampleId === cell.sampleId && r.setting === cell.setting && r.shots === cell.shots,
      );
      for (const groupBy of ["LABEL", "REFERENCE_LENGTH"]) {
        const within = parts.filter((r: any) => r.groupBy === groupBy);
        // Every judged instance (one completion each here) is in exactly one group of each kind.
        expect(within.reduce((sum: number, r: any) => sum + r.instances, 0)).toBe(cell.n);
        expect(within.reduce((sum: number, r: any) => sum + r.memorized, 0)).toBe(cell.memorized);
      }
      expect(parts.filter((r: any) => r.groupBy === "LABEL").map((r: any) => r.group)).toEqual([
        "alpha",
        "beta",
      ]);
    }
    expect(iclThresholds.map((row: any) => row.setting)).toEqual([
      "FULL_INFORMATION",
      "SEGMENT_PAIRS_AND_LABELS",
      "ONLY_SEGMENT_PAIRS",
    ]);
    for (const row of iclThresholds) {
      expect(row.points.map((point: any) => point.shots)).toEqual([5, 20]);
      const gains = row.points.filter((point: any) => point.significantGain);
      expect(row.threshold).toBe(
        gains.length ? Math.min(...gains.map((p: any) => p.memorizationRate)) : null,
      );
    }
  });

  it("rates memorization over non-trivial references, every judged instance counted in or out", async () => {
    const response = await api.gql(
      `query($id: ID!) { studyReport(experimentId: $id) { memorizationNonTrivial { sampleId setting shots instances memorized trivialInstances rate } } }`,
      { id: experimentId },
    );
    expect(response.errors).toBeUndefined();
    const rows = response.data!.studyReport.memorizationNonTrivial;
    expect(rows.length).toBe(report.memorization.filter((r: any) => r.sampleId !== null).length);
    for (const row of rows) {
      const cell = report.memorization.find(
        (r: any) => r.sampleId === row.sampleId && r.setting === row.setting && r.shots === row.shots,
      );
      expect(row.instances + row.trivialInstances).toBe(cell.n);
      expect(row.memorized).toBeLessThanOrEqual(cell.memorized);
    }
  });

  it("names what it reports: the experiment, provider, model as asked and reported, templates, judges", () => {
    expect(report.subject).toEqual({
      experimentName: "study",
      provider: "sim",
      requestedModel: "m",
      reportedModels: ["simulated:m"],
      templateVersions: expect.arrayContaining([expect.stringMatching(/^memorization\/.* v\d+$/)]),
      judges: ["heuristic"],
    });
    const markdown = reportMarkdown(report);
    expect(markdown).toMatch(
      /^# Study report: study\n\n- experiment: study \(.+\)\n- provider and model: sim \/ m \(reported: simulated:m\)/,
    );
  });

  it("opens with the decision: each sample's verdict, its error rate, minimum detectable rate and floor", () => {
    const lines = reportMarkdown(report).split("\n");
    const headings = lines.filter((line) => line.startsWith("## "));
    expect(headings[0]).toBe("## Decision");
    const first = lines.slice(0, lines.indexOf(headings[1]));
    const verdict = first.find((line) =>
      line.includes("Replication above the no-memory floor (the verdict)"),
    );
    expect(verdict).toBeDefined();
    // Its error rate without memory, the minimum detectable rate and the floor are cells of the same row.
    expect(verdict).toMatch(/\| 5\.0% \(the test's level/);
    expect(verdict).toMatch(/\| \*\*(Contaminated|No evidence above [\d.]+%|Cannot tell)\*\* \|/);
    expect(first.join("\n")).toContain("### The study's figures at a glance");
    expect(first.length).toBeLessThan(60);
    expect(report.decisions.length).toBeGreaterThan(0);
  });

  it("renders the report as Markdown and as a long CSV with every figure", () => {
    const markdown = reportMarkdown(report);
    expect(markdown).toContain("## Memorization (exact or near-exact) by dataset, sample, setting and k");
    expect(
      markdown
        .split("\n")
        .filter((line) => line.startsWith("| study | ") && line.includes("(seed 5) | FULL_INFORMATION |")),
    ).not.toHaveLength(0);
    expect(markdown).toContain("Multiple comparisons: Holm");
    const { parse } = require("csv-parse/sync");
    const records = parse(reportCsv(report), { columns: true }) as Record<string, string>[];
    const rate = records.find(
      (r) =>
        r.name === "memorization.rate" &&
        r.setting === "ONLY_SEGMENT_PAIRS" &&
        r.shots === "5" &&
        r.measure === "EXACT_OR_NEAR_EXACT" &&
        r.sample_id !== "",
    );
    expect(Number(rate!.value)).toBeCloseTo(
      report.memorization.find((r: any) => r.setting === "ONLY_SEGMENT_PAIRS" && r.shots === 5).rate,
      10,
    );
  });

  it("serves every number of the report as flat metric rows with the report's values", async () => {
    const metrics = await allMetrics(api, { experimentId });
    expect(new Set(metrics.map((metric) => metric.scope.experimentId))).toEqual(new Set([experimentId]));
    for (const metric of metrics) expect(ROW_NAMES).toContain(metric.name);
    const ids = metrics.map((metric) => Number(metric.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // A row is its name and scope: one row each, so a rewrite can keep every row's id (and a cursor's place).
    const keys = metrics.map((metric) => `${metric.name} ${JSON.stringify(metric.scope)}`);
    expect(new Set(keys).size).toBe(keys.length);
    const judged = { judge: "effective" };
    for (const [rows, measure] of [
      [report.memorization, "EXACT_OR_NEAR_EXACT"],
      [report.memorizationExactOnly, "EXACT_ONLY"],
    ] as const) {
      for (const row of rows) {
        const metric = metricOf(metrics, "memorization.rate", {
          ...judged,
          measure,
          sampleId: row.sampleId,
          dataset: row.dataset,
          setting: row.setting,
          shots: row.shots,
        });
        expectSameNumbers(metric, {
          value: row.rate,
          numerator: row.memorized,
          denominator: row.n,
          ...(measure === "EXACT_OR_NEAR_EXACT" ? { ciLow: row.ciLow, ciHigh: row.ciHigh } : {}),
        });
      }
    }
    for (const row of report.memorization) {
      const scope = { sampleId: row.sampleId, setting: row.setting, shots: row.shots, measure: null };
      expect(metricOf(metrics, "memorization.near_exact_share", scope).numerator).toBe(row.nearExact);
      expect(metricOf(metrics, "memorization.unjudged", scope).value).toBe(row.unjudged);
    }
    for (const row of report.memorizationByRegime) {
      const metric = metricOf(metrics, "memorization_by_regime.rate", {
        setting: row.setting,
        regime: row.regime,
        shots: null,
      });
      expectSameNumbers(metric, { value: row.rate, numerator: row.memorized, denominator: row.n });
    }
    for (const row of report.performance) {
      const scope = { sampleId: row.sampleId, dataset: row.dataset, shots: row.shots, setting: null };
      expectSameNumbers(metricOf(metrics, "performance.accuracy", scope), {
        value: row.accuracy,
        numerator: row.correct,
        denominator: row.n,
        ciLow: row.ciLow,
        ciHigh: row.ciHigh,
      });
      expect(metricOf(metrics, "performance.accuracy_sd", scope).value).toBe(row.accuracyStandardDeviation);
      expect(metricOf(metrics, "performance.mean_accuracy", scope).value).toBe(row.meanAccuracy);
    }
    for (const row of report.memorizedVsNotMemorized) {
      const scope = { setting: row.setting, shots: row.shots };
      expectSameNumbers(metricOf(metrics, "memorized_vs_not_memorized.difference", scope), {
        value: row.difference,
        ciLow: row.differenceCiLow,
        ciHigh: row.differenceCiHigh,
      });
      expect(metricOf(metrics, "memorized_vs_not_memorized.accuracy_memorized", scope)).toMatchObject({
        value: row.memorized.accuracy,
        numerator: row.memorized.correct,
        denominator: row.memorized.n,
      });
      expect(metricOf(metrics, "memorized_vs_not_memorized.fisher_p_holm", scope).value).toBe(row.pValueHolm);
    }
    for (const row of report.correlations) {
      const scope = { setting: row.setting, measure: row.measure };
      expectSameNumbers(metricOf(metrics, "correlations.pearson", scope), {
        value: row.pearson,
        denominator: row.n,
        ciLow: row.pearsonCiLow,
        ciHigh: row.pearsonCiHigh,
      });
      expect(metricOf(metrics, "correlations.spearman_p_holm", scope).value).toBe(row.spearmanPValueHolm);
    }
    for (const [name, rows] of [
      ["setting_comparisons.mcnemar_p_holm", report.settingComparisons],
      ["zero_vs_k.mcnemar_p_holm", report.zeroVsK],
    ] as const) {
      for (const row of rows) {
        const metric = metricOf(metrics, name, {
          setting: row.settingA,
          shots: row.shotsA,
          otherSetting: row.settingB,
          otherShots: row.shotsB,
        });
        expectSameNumbers(metric, {
          value: row.pValueHolm,
          numerator: row.onlyA,
          denominator: row.onlyA + row.onlyB,
        });
      }
    }
    for (const row of report.transitionRates) {
      const metric = metricOf(metrics, "transition_rates.near_exact_to_exact", {
        setting: row.setting,
        shots: row.fromShots,
        otherShots: row.toShots,
      });
      expectSameNumbers(metric, { value: row.rate, numerator: row.becameExact, denominator: row.nearExact });
    }
    for (const row of report.contamination) {
      const scope = { setting: row.setting, shots: row.shots };
      expect(metricOf(metrics, "contamination.contaminated", scope).value).toBe(row.contaminated ? 1 : 0);
      expectSameNumbers(metricOf(metrics, "contamination.rate", scope), {
        value: row.rate,
        numerator: row.memorizedInstances,
        denominator: row.instances,
        ciLow: row.ciLow,
        ciHigh: row.ciHigh,
      });
    }
  });

  it("filters metrics by name, setting, k and measure, pages them, and refuses unknown names", async () => {
    const filtered = await allMetrics(api, {
      experimentId,
      names: ["memorization.rate"],
      settings: ["ONLY_SEGMENT_PAIRS"],
      shots: [0, 20],
      measures: ["EXACT_ONLY"],
    });
    expect(
      filtered.map((metric) => [metric.scope.setting, metric.scope.shots, metric.scope.measure]),
    ).toEqual([
      ["ONLY_SEGMENT_PAIRS", 0, "EXACT_ONLY"],
      ["ONLY_SEGMENT_PAIRS", 20, "EXACT_ONLY"],
    ]);
    const first = await api.gql(
      `query($f: MetricFilter!) { metrics(filter: $f, first: 2) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
      { f: { experimentId, names: ["performance.accuracy"] } },
    );
    expect(first.data!.metrics.edges).toHaveLength(2);
    expect(first.data!.metrics.pageInfo.hasNextPage).toBe(true);
    const rest = await api.gql(
      `query($f: MetricFilter!, $after: String) { metrics(filter: $f, first: 10, after: $after) { edges { node { id scope { shots } } } } }`,
      { f: { experimentId, names: ["performance.accuracy"] }, after: first.data!.metrics.pageInfo.endCursor },
    );
    expect(rest.data!.metrics.edges.map((edge: any) => edge.node.scope.shots)).toEqual([20]);
    // The rows are rewritten when a run changes (a review, a rejudge): a cursor taken before keeps its place.
    await api.database.dataSource.query("UPDATE run SET done_count = done_count WHERE experiment_id = $1", [
      experimentId,
    ]);
    const again = await api.gql(
      `query($f: MetricFilter!, $after: String) { metrics(filter: $f, first: 10, after: $after) { edges { node { id scope { shots } } } } }`,
      { f: { experimentId, names: ["performance.accuracy"] }, after: first.data!.metrics.pageInfo.endCursor },
    );
    expect(again.data!.metrics.edges.map((edge: any) => edge.node.scope.shots)).toEqual([20]);
    const unknown = await api.gql(
      `query($f: MetricFilter!) { metrics(filter: $f) { edges { node { id } } } }`,
      {
        f: { experimentId, names: ["memorization.rates"] },
      },
    );
    expect(unknown.errors?.[0]).toMatchObject({
      message: expect.stringContaining('unknown report row name "memorization.rates"'),
      extensions: { code: "BAD_USER_INPUT" },
    });
    // A name from before every name was <table>.<statistic> still reads, as the name it became.
    const former = await api.gql(
      `query($f: MetricFilter!) { metrics(filter: $f, first: 500) { edges { node { name } } } }`,
      { f: { experimentId, names: ["zero_vs_few_shot.pairs"] } },
    );
    expect(former.errors).toBeUndefined();
    const formerNames = former.data!.metrics.edges.map((edge: any) => edge.node.name);
    expect(formerNames.length).toBeGreaterThan(0);
    expect(new Set(formerNames)).toEqual(new Set(["zero_vs_k.pairs"]));
    const missing = await api.gql(
      `query($f: MetricFilter!) { metrics(filter: $f) { edges { node { id } } } }`,
      {
        f: { experimentId: "00000000-0000-4000-8000-000000000000" },
      },
    );
    expect(missing.errors?.[0].extensions?.code).toBe("NOT_FOUND");
  });

  it("reports two samples of one dataset side by side, with a pooled row and the spread between them", async () => {
    const sampleId = await classificationSample(api, "twice", {
      rows: 60,
      instances: 12,
      demonstrations: 6,
      shots: [0, 5],
    });
    const dataset = await api.gql(`query($id: ID!) { sample(id: $id) { dataset { id } } }`, { id: sampleId });
    const second = await api.gql(
      `mutation($input: CreateSampleInput!) { createSample(input: $input) { sample { id } } }`,
      {
        input: {
          datasetId: dataset.data!.sample.dataset.id,
          seed: 6,
          name: "reseeded",
          instanceCount: 12,
          demonstrationCount: 6,
          shotCounts: [0, 5],
        },
      },
    );
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name: "two samples",
          sampleIds: [sampleId, second.data!.createSample.sample.id],
          provider: "sim",
          model: "m",
          performanceRepeats: 1,
        },
      },
    );
    for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished, 60_000);
    const response = await api.gql(REPORT, { id: started.data!.startExperiment.experiment.id });
    expect(response.errors).toBeUndefined();
    const rows = response.data!.studyReport.memorization.filter(
      (row: any) => row.setting === "FULL_INFORMATION" && row.shots === 5,
    );
    expect(rows.map((row: any) => [row.sampleSeed, row.sampleName, row.samples, row.n])).toEqual([
      ["5", null, 1, 12],
      ["6", "reseeded", 1, 12],
      [null, null, 2, 24],
    ]);
    expect(rows[2].memorized).toBe(rows[0].memorized + rows[1].memorized);
    expect(rows[2].betweenSampleStandardDeviation).toBeCloseTo(
      Math.abs(rows[0].rate - rows[1].rate) / Math.SQRT2,
      12,
    );
    const performance = response.data!.studyReport.performance.filter((row: any) => row.shots === 5);
    expect(performance.map((row: any) => [row.sampleSeed, row.n, row.intervalMethod])).toEqual([
      ["5", 12, "WILSON"],
      ["6", 12, "WILSON"],
      [null, 24, "WILSON"],
    ]);
  }, 90_000);

  it("lists experiments newest first with their progress, paged and filtered", async () => {
    const page = await api.gql(
      `{ experiments(first: 1) { edges { node { name } } pageInfo { hasNextPage endCursor } } experimentCount }`,
    );
    expect(page.errors).toBeUndefined();
    expect(page.data!.experimentCount).toBe(2);
    expect(page.data!.experiments.edges.map((edge: any) => edge.node.name)).toEqual(["two samples"]);
    expect(page.data!.experiments.pageInfo.hasNextPage).toBe(true);
    const next = await api.gql(
      `query($after: String) { experiments(first: 5, after: $after) { edges { node { id name progress { status runs activeRuns expected done failed lastError } } } } }`,
      { after: page.data!.experiments.pageInfo.endCursor },
    );
    const [study] = next.data!.experiments.edges.map((edge: any) => edge.node);
    expect(study.id).toBe(experimentId);
    expect(study.progress).toEqual({
      status: "SUCCEEDED",
      runs: raw.length,
      activeRuns: 0,
      expected: study.progress.done,
      done: raw.reduce((total, run) => total + run.completions.edges.length, 0),
      failed: 0,
      lastError: null,
    });
    const filtered = await api.gql(
      `{ experiments(first: 5, filter: { nameContains: "TWO" }) { edges { node { name } } } }`,
    );
    expect(filtered.data!.experiments.edges.map((edge: any) => edge.node.name)).toEqual(["two samples"]);
    // By model, provider, sample and dataset: the question of comparing models across experiments.
    const sampleId = (
      await api.gql(`{ experiment(id: "${experimentId}") { runs { sample { id dataset { name } } } } }`)
    ).data!.experiment.runs[0].sample;
    const names = async (filter: string) => {
      const response = await api.gql(
        `{ experiments(first: 10, filter: ${filter}) { edges { node { name } } } experimentCount(filter: ${filter}) }`,
      );
      expect(response.errors).toBeUndefined();
      const list = response.data!.experiments.edges.map((edge: any) => edge.node.name);
      expect(response.data!.experimentCount).toBe(list.length);
      return list;
    };
    expect(await names(`{ model: "m", provider: "sim" }`)).toContain("study");
    expect(await names(`{ model: "no such model" }`)).toEqual([]);
    expect(await names(`{ provider: "no such provider" }`)).toEqual([]);
    expect(await names(`{ sampleId: "${sampleId.id}" }`)).toContain("study");
    expect(await names(`{ sampleId: "00000000-0000-4000-8000-000000000000" }`)).toEqual([]);
    expect(await names(`{ sampleId: "not a uuid" }`)).toEqual([]);
    expect(await names(`{ dataset: "${sampleId.dataset.name}", nameContains: "stu" }`)).toEqual(["study"]);
    expect(await names(`{ dataset: "no such dataset" }`)).toEqual([]);
  });

  it("shows a human review in the report at once", async () => {
    const run = memorizationRuns().find((r) => r.setting === "FULL_INFORMATION" && r.shots === 0);
    const target = run.completions.edges.find(
      (edge: any) => edge.node.effectiveJudgment?.verdict === "INEXACT",
    ).node;
    const before = report.memorization.find((r: any) => r.setting === "FULL_INFORMATION" && r.shots === 0);
    const cellOf = (r: any) => r.setting === "FULL_INFORMATION" && r.shots === 0;
    const instancesBefore = report.contamination.find(cellOf).memorizedInstances;
    // Nothing is written between two reads: the second is served as computed for the first.
    await load();
    const computedBefore = report.computedAt;
    await load();
    expect(report.computedAt).toBe(computedBefore);
    const STAMPS = `query($id: ID!) { experiment(id: $id) { lastUpdatedAt runs { id lastUpdatedAt finishedAt } } }`;
    const stampsResponse = await api.gql(STAMPS, { id: experimentId });
    expect(stampsResponse.errors).toBeUndefined();
    const stampsBefore = stampsResponse.data!.experiment;
    await api.gql(
      `mutation($input: ReviewCompletionInput!) { reviewCompletion(input: $input) { judgment { id } } }`,
      {
        input: { completionId: target.id, reviewer: "ana", verdict: "EXACT" },
      },
    );
    await load();
    // The review touched its run: the next read computes the report again, from the state after the review.
    expect(Date.parse(report.computedAt)).toBeGreaterThan(Date.parse(computedBefore));
    const after = report.memorization.find((r: any) => r.setting === "FULL_INFORMATION" && r.shots === 0);
    expect(after).toMatchObject({
      n: before.n,
      exact: before.exact + 1,
      inexact: before.inexact - 1,
      memorized: before.memorized + 1,
    });
    // The per-instance figures (kept by the same trigger) move with it.
    expect(report.contamination.find(cellOf).memorizedInstances).toBe(instancesBefore + 1);
    // And a polling dashboard sees that something changed: the run's and the experiment's lastUpdatedAt move.
    const stampsAfter = (await api.gql(STAMPS, { id: experimentId })).data!.experiment;
    const stampOf = (stamps: any, id: string) => stamps.runs.find((r: any) => r.id === id).lastUpdatedAt;
    expect(Date.parse(stampOf(stampsAfter, run.id))).toBeGreaterThan(
      Date.parse(stampOf(stampsBefore, run.id)),
    );
    expect(Date.parse(stampsAfter.lastUpdatedAt)).toBeGreaterThan(Date.parse(stampsBefore.lastUpdatedAt));
    expect(stampsAfter.lastUpdatedAt).toBe(
      stampsAfter.runs
        .map((r: any) => r.lastUpdatedAt)
        .sort()
        .at(-1),
    );
    for (const other of stampsAfter.runs) {
      expect(Date.parse(other.lastUpdatedAt)).toBeGreaterThanOrEqual(Date.parse(other.finishedAt));
      if (other.id !== run.id) expect(other.lastUpdatedAt).toBe(stampOf(stampsBefore, other.id));
    }
  });

  it("rewrites the metric rows when a review changes the results, in the background and before any read", async () => {
    // The review of the previous test changed the results: the background refresher rewrites the rows without
    // anyone reading them (it looks every 2 s; the deadline is generous for a loaded machine).
    const state = async () =>
      (
        await api.database.dataSource.query(
          `SELECT s.computed_at FROM metric_state s WHERE s.experiment_id = $1`,
          [experimentId],
        )
      )[0]?.computed_at as Date | undefined;
    const stale = async () =>
      (
        await api.database.dataSource.query(
          `SELECT s.fingerprint <> (SELECT md5($2 || ':' || st.fingerprint) FROM (${resultsState("$1")}) AS st) AS stale
         FROM metric_state s WHERE s.experiment_id = $1`,
          [experimentId, METRIC_ROWS_VERSION],
        )
      )[0]?.stale as boolean | undefined;
    const deadline = Date.now() + 60_000;
    while ((await stale()) !== false && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await stale()).toBe(false);
    expect(await state()).toBeInstanceOf(Date);
    const cell = { setting: "FULL_INFORMATION", shots: 0, measure: "EXACT_OR_NEAR_EXACT" };
    const row = report.memorization.find((r: any) => r.setting === "FULL_INFORMATION" && r.shots === 0);
    let metrics = await allMetrics(api, { experimentId, names: ["memorization.rate"] });
    expectSameNumbers(metricOf(metrics, "memorization.rate", cell), {
      value: row.rate,
      numerator: row.memorized,
      denominator: row.n,
    });
    // A second review, read at once: the read brings the rows up to date before it answers.
    const run = memorizationRuns().find((r) => r.setting === "FULL_INFORMATION" && r.shots === 0);
    const target = run.completions.edges.find(
      (edge: any) => edge.node.effectiveJudgment?.verdict === "INEXACT",
    ).node;
    const reviewed = await api.gql(
      `mutation($input: ReviewCompletionInput!) { reviewCompletion(input: $input) { judgment { id } } }`,
      { input: { completionId: target.id, reviewer: "ben", verdict: "NEAR_EXACT" } },
    );
    expect(reviewed.errors).toBeUndefined();
    metrics = await allMetrics(api, { experimentId, names: ["memorization.rate"] });
    await load();
    const after = report.memorization.find((r: any) => r.setting === "FULL_INFORMATION" && r.shots === 0);
    expect(after.memorized).toBe(row.memorized + 1);
    expectSameNumbers(metricOf(metrics, "memorization.rate", cell), {
      value: after.rate,
      numerator: after.memorized,
      denominator: after.n,
    });
  });
});
