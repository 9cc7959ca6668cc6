import { toCsv } from "../../../web/src/csv";
import { wordDiff } from "../../../web/src/diff";
import {
  floorPoints,
  headline,
  inSettingOrder,
  memorizationPoints,
  performancePoints,
  Report,
  transitionCells,
} from "../../../web/src/figures/data";
import { judgeLabel, money } from "../../../web/src/format";
import type { MemorizationSetting } from "../../../web/src/generated/operations";
import { latestOnly } from "../../../web/src/latest";

describe("the review page's word difference", () => {
  it("marks what only the answer has and what only the reference has, and gives both texts back", () => {
    const reference = "The cat was too cautious.";
    const answer = "The mouse was too cautious. Sentence 2:";
    const parts = wordDiff(reference, answer);
    expect(parts).toEqual([
      { text: "The ", kind: "same" },
      { text: "cat ", kind: "missing" },
      { text: "mouse ", kind: "added" },
      { text: "was too cautious. ", kind: "same" },
      { text: "Sentence 2:", kind: "added" },
    ]);
    const text = (kinds: string[]) =>
      parts
        .filter((part) => kinds.includes(part.kind))
        .map((part) => part.text)
        .join("");
    expect(text(["same", "added"])).toBe(answer);
    expect(text(["same", "missing"]).trim()).toBe(reference);
  });

  it("handles empty texts and whitespace-only differences", () => {
    expect(wordDiff("", "")).toEqual([]);
    expect(wordDiff("a b", "")).toEqual([{ text: "a b", kind: "missing" }]);
    expect(wordDiff("", "a")).toEqual([{ text: "a", kind: "added" }]);
    expect(wordDiff("a  b", "a b").every((part) => part.kind === "same")).toBe(true);
  });
});

describe("the dashboard's figure data", () => {
  it("orders settings as the study does, the control last, on every page", () => {
    expect(
      inSettingOrder([
        "Control: general instruction",
        "Setting 3: segment pairs only",
        "Setting 1: full information",
        "a template's own",
      ]),
    ).toEqual([
      "Setting 1: full information",
      "Setting 3: segment pairs only",
      "Control: general instruction",
      "a template's own",
    ]);
  });

  const rate = (
    sampleId: string | null,
    setting: MemorizationSetting,
    shots: number,
    value: number | null,
  ) => ({
    sampleId,
    sampleSeed: sampleId,
    dataset: "rte",
    setting,
    shots,
    n: 10,
    memorized: value === null ? 0 : value * 10,
    rate: value,
    ciLow: value,
    ciHigh: value,
  });
  const report: Report = {
    computedAt: "2026-12-01T00:00:00.000Z",
    decisions: [],
    memorization: [
      rate("s1", "FULL_INFORMATION", 0, 0.1),
      rate("s2", "FULL_INFORMATION", 0, 0.3),
      rate(null, "FULL_INFORMATION", 0, 0.2),
      rate(null, "FULL_INFORMATION", 25, null),
      { ...rate("s9", "ONLY_SEGMENT_PAIRS", 0, 0.5), dataset: "trec" },
    ],
    memorizationExactOnly: [rate(null, "FULL_INFORMATION", 0, 0.1)],
    versusControl: [],
    noMemoryFloor: [
      {
        sampleId: "s1",
        dataset: "rte",
        setting: "FULL_INFORMATION",
        shots: 0,
        instances: 10,
        floorInstances: 1,
        aboveFloor: 0,
        eligibleInstances: 8,
        eligibleMemorized: 1,
      },
      {
        sampleId: "s2",
        dataset: "rte",
        setting: "FULL_INFORMATION",
        shots: 0,
        instances: 10,
        floorInstances: 3,
        aboveFloor: 2,
        eligibleInstances: 6,
        eligibleMemorized: 2,
      },
      {
        sampleId: "s1",
        dataset: "rte",
        setting: "FULL_INFORMATION",
        shots: 25,
        instances: 0,
        floorInstances: 0,
        aboveFloor: 0,
        eligibleInstances: 0,
        eligibleMemorized: 0,
      },
      {
        sampleId: "s9",
        dataset: "trec",
        setting: "ONLY_SEGMENT_PAIRS",
        shots: 0,
        instances: 4,
        floorInstances: 4,
        aboveFloor: 0,
        eligibleInstances: 0,
        eligibleMemorized: 0,
      },
    ],
    performance: [
      {
        sampleId: null,
        dataset: "rte",
        shots: 0,
        repeats: 3,
        n: 60,
        accuracy: 0.5,
        ciLow: 0.4,
        ciHigh: 0.6,
        meanAccuracy: 0.95,
        accuracyStandardDeviation: 0.1,
      },
    ],
    memorizedVsNotMemorized: [],
    transitionRates: [
      {
        sampleId: null,
        dataset: "rte",
        setting: "FULL_INFORMATION",
        fromShots: 0,
        toShots: 25,
        nearExact: 0,
        becameExact: 0,
        rate: null,
      },
    ],
    correlations: [],
  };

  it("plots a dataset's pooled rows when it has several samples, else its one sample's", () => {
    expect(headline(report.memorization, "rte").map((row) => row.sampleId)).toEqual([null, null]);
    expect(headline(report.memorization, "trec").map((row) => row.sampleId)).toEqual(["s9"]);
    expect(headline(report.memorization, "wnli")).toEqual([]);
  });

  it("plots one point per rated row and measure, and clips the spread to [0, 1]", () => {
    expect(memorizationPoints(report, "rte").map((p) => [p.measure, p.label, p.shots, p.rate])).toEqual([
      ["exact + near-exact", "S1", 0, 0.2],
      ["exact only", "S1", 0, 0.1],
    ]);
    // Each point's tip says what qualifies its rate, pooled over the dataset's samples at its setting and k.
    expect(memorizationPoints(report, "rte")[0]).toMatchObject({
      floor: "20.0%",
      aboveFloor: "10.0%",
      nonTrivialOutsideFloor: "21.4%",
    });
    expect(performancePoints(report, "rte")).toMatchObject([{ meanAccuracy: 0.95, sdLow: 0.85, sdHigh: 1 }]);
    // The floor pools a dataset's samples and settings at each k; a k with no judged instance has no point.
    expect(floorPoints(report, "rte")).toEqual([
      { measure: "exact + near-exact", shots: 0, rate: 0.2, label: "floor" },
    ]);
    expect(transitionCells(report, "rte")).toMatchObject([
      { from: "k=0", to: "k=25", text: "–", rate: null },
    ]);
  });

  it("writes figure data as CSV with quoting", () => {
    expect(
      toCsv([
        { a: 1, b: 'say "hi", then go' },
        { a: null, c: "x" },
      ]),
    ).toBe('a,b,c\n1,"say ""hi"", then go",\n,,x\n');
  });
});

describe("the dashboard's words and numbers", () => {
  it("names a judge once when its name is its kind", () => {
    expect(judgeLabel("HEURISTIC", "heuristic")).toBe("heuristic");
    expect(judgeLabel("LLM", "llm:judge/gpt-4o")).toBe("llm llm:judge/gpt-4o");
    expect(judgeLabel("HUMAN", "ana")).toBe("human ana");
  });

  it("shows every cost with two decimals, and what is below a cent as such", () => {
    expect([0, 0.004, 0.5, 12.345].map(money)).toEqual(["$0.00", "<$0.01", "$0.50", "$12.35"]);
    expect(money(null)).toBe("–");
  });
});

describe("a page's requests of one kind", () => {
  /** A request whose answer (or failure) the test sends when it likes. */
  function pending<T>() {
    let answer!: (value: T) => void;
    let fail!: (error: unknown) => void;
    const promise = new Promise<T>((resolve, reject) => {
      answer = resolve;
      fail = reject;
    });
    return { promise, answer, fail };
  }

  it("uses only the latest request's answer when an earlier one comes back after it", async () => {
    const requests = latestOnly();
    const shown: string[] = [];
    const first = pending<string>();
    const second = pending<string>();
    const done = [
      requests(first.promise, (v) => shown.push(v)),
      requests(second.promise, (v) => shown.push(v)),
    ];
    second.answer("k = 50");
    first.answer("k = 25");
    await Promise.all(done);
    expect(shown).toEqual(["k = 50"]);
  });

  it("uses each answer that comes back before the next request is made", async () => {
    const requests = latestOnly();
    const shown: string[] = [];
    await requests(Promise.resolve("a"), (v) => shown.push(v));
    await requests(Promise.resolve("b"), (v) => shown.push(v));
    expect(shown).toEqual(["a", "b"]);
  });

  it("reports the latest request's failure and drops an earlier one's", async () => {
    const requests = latestOnly();
    const failures: unknown[] = [];
    const first = pending<string>();
    const second = pending<string>();
    const done = [
      requests(
        first.promise,
        () => {},
        (e) => failures.push(e),
      ),
      requests(
        second.promise,
        () => {},
        (e) => failures.push(e),
      ),
    ];
    first.fail(new Error("stale"));
    second.fail(new Error("current"));
    await Promise.all(done);
    expect(failures.map((e) => (e as Error).message)).toEqual(["current"]);
  });

  it("keeps each kind's order apart", async () => {
    const renders = latestOnly();
    const estimates = latestOnly();
    const shown: string[] = [];
    const render = pending<string>();
    const done = [
      renders(render.promise, (v) => shown.push(v)),
      estimates(Promise.resolve("estimate"), (v) => shown.push(v)),
    ];
    render.answer("prompt");
    await Promise.all(done);
    expect(shown.sort()).toEqual(["estimate", "prompt"]);
  });
});
