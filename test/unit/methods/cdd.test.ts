import fc from "fast-check";
import { RandomStream } from "../../../src/common/random";
import {
  CDD_TEST_ALPHA,
  ContinuationItem,
  ContinuationRunState,
  cddEvidence,
} from "../../../src/report/analyses/cdd";
import { SampleInfo } from "../../../src/report/analyses/rows";
import {
  CDD_DEFAULTS,
  cddInstance,
  cddParameterProblems,
  peakednessOfTokens,
  tokenEditDistance,
} from "../../../src/sampling/cdd";
import { ContaminationVerdict } from "../../../src/study/contamination-verdict";
import reference from "../../reference/cdd.json";

// Reference values: test/reference/cdd.json, written by test/reference/cdd.py (a textbook edit distance, numpy).

describe("CDD's peakedness against an independent reference", () => {
  it.each(reference.cases.map((c, i) => [i, c] as const))("case %d", (_, c) => {
    expect(c.samples.map((sample) => tokenEditDistance(c.greedy, sample))).toEqual(c.distances);
    const instance = peakednessOfTokens(c.greedy, c.samples, c)!;
    expect(instance.longest).toBe(c.longest);
    expect(instance.peakedness).toBeCloseTo(c.peakedness, 12);
    expect(instance.leaked).toBe(c.leaked);
    expect(instance.samples).toBe(c.samples.length);
  });
});

const tokens = fc.array(fc.integer({ min: 0, max: 250_000 }), { maxLength: 30 });

describe("the token edit distance", () => {
  it("is a metric bounded by the longer sequence", () => {
    fc.assert(
      fc.property(tokens, tokens, tokens, (a, b, c) => {
        const ab = tokenEditDistance(a, b);
        expect(ab).toBe(tokenEditDistance(b, a));
        expect(ab === 0).toBe(a.length === b.length && a.every((t, i) => t === b[i]));
        expect(ab).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(ab).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
        expect(ab).toBeLessThanOrEqual(tokenEditDistance(a, c) + tokenEditDistance(c, b));
      }),
    );
  });

  it("counts whole tokens, whatever their ids (ids past the surrogate range too)", () => {
    expect(tokenEditDistance([1, 2, 3], [1, 3])).toBe(1);
    expect(tokenEditDistance([199_999, 55_296, 57_343], [199_999, 57_343, 55_296])).toBe(2);
    const many = Array.from({ length: 60_000 }, (_, i) => i);
    expect(tokenEditDistance(many, [...many.slice(1), 60_000])).toBe(2);
    // More distinct tokens than one code unit each can stand for: still exact.
    const more = Array.from({ length: 70_000 }, (_, i) => i);
    expect(tokenEditDistance(more.slice(0, 2), more)).toBe(69_998);
  });
});

describe("peakedness", () => {
  it("is 1 when every sample is the greedy answer and 0 when none is near it", () => {
    expect(
      peakednessOfTokens(
        [1, 2, 3],
        [
          [1, 2, 3],
          [1, 2, 3],
        ],
        CDD_DEFAULTS,
      ),
    ).toMatchObject({
      peakedness: 1,
      leaked: true,
    });
    expect(peakednessOfTokens([1, 2, 3], [[4, 5, 6], [7]], CDD_DEFAULTS)).toMatchObject({
      peakedness: 0,
      leaked: false,
    });
    expect(peakednessOfTokens([1], [], CDD_DEFAULTS)).toBeNull();
  });

  it("does not depend on the samples' order, and grows with alpha", () => {
    fc.assert(
      fc.property(
        tokens,
        fc.array(tokens, { minLength: 1, maxLength: 8 }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        (greedy, samples, a, b) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          const forward = peakednessOfTokens(greedy, samples, { alpha: low, xi: 0.01 })!;
          const backward = peakednessOfTokens(greedy, [...samples].reverse(), { alpha: low, xi: 0.01 })!;
          expect(backward.peakedness).toBe(forward.peakedness);
          expect(forward.peakedness).toBeGreaterThanOrEqual(0);
          expect(forward.peakedness).toBeLessThanOrEqual(1);
          expect(
            peakednessOfTokens(greedy, samples, { alpha: high, xi: 0.01 })!.peakedness,
          ).toBeGreaterThanOrEqual(forward.peakedness);
          expect(forward.leaked).toBe(forward.peakedness > 0.01);
        },
      ),
    );
  });

  it("reads texts through the tokenizer: a one-word change is a token or two", () => {
    const greedy = "the man went to the store to buy some bread";
    const instance = cddInstance(
      greedy,
      [greedy, "the man went to the shop to buy some bread", "a completely different answer arrives here"],
      { alpha: 0.1, xi: 0.01 },
    )!;
    expect(instance.peakedness).toBeCloseTo(2 / 3, 12);
  });
});

describe("CDD's parameters", () => {
  it("accepts the authors' defaults and names each bad one", () => {
    expect(cddParameterProblems({ ...CDD_DEFAULTS })).toEqual([]);
    expect(cddParameterProblems({ samples: 1, temperature: 0, alpha: 1, xi: -1 })).toHaveLength(4);
  });
});

// A sample of `instances` instances and its control, as the report reads them: per instance one greedy
// continuation and `samples` sampled ones, written by a simulated model.
type Writer = (instance: number, draw: number | null, random: RandomStream) => string;

const WORDS =
  "the a river old man stone bright quietly ran over under seven green house market letter of sold".split(
    " ",
  );
const fluent = (random: RandomStream, length = 12) =>
  Array.from({ length }, () => WORDS[random.integer(0, WORDS.length - 1)]).join(" ");
const continuationOf = (dataset: string, instance: number) =>
  `${dataset} instance ${instance} goes on to say that the ferry leaves twice every morning before nine`;

function experiment(
  seed: number,
  write: (dataset: string) => Writer,
  { instances = 30, samples = 20 } = {},
): { items: ContinuationItem[]; runs: ContinuationRunState[]; infos: Map<string, SampleInfo> } {
  const items: ContinuationItem[] = [];
  const runs: ContinuationRunState[] = [];
  const infos = new Map<string, SampleInfo>();
  for (const [sampleId, dataset, controlOf] of [
    ["s", "rte", null],
    ["c", "rte-control", "rte"],
  ] as const) {
    infos.set(sampleId, { sampleId, sampleName: null, sampleSeed: "1", dataset, controlOf });
    const random = RandomStream.derive(seed, sampleId);
    const writer = write(dataset);
    for (const [runId, temperature, repeats] of [
      [`${sampleId}-greedy`, 0, 1],
      [`${sampleId}-sampled`, 0.8, samples],
    ] as const) {
      runs.push({ runId, sampleId, provider: "p", model: "m", prompt: "RAW", instances });
      for (let instance = 0; instance < instances; instance++)
        for (let draw = 0; draw < repeats; draw++)
          items.push({
            runId,
            sampleId,
            provider: "p",
            model: "m",
            item: `${sampleId}${instance}`,
            temperature,
            text: writer(instance, temperature === 0 ? null : draw, random),
          });
    }
  }
  return { items, runs, infos };
}

const verdictOf = (seed: number, write: (dataset: string) => Writer, options?: { instances?: number }) => {
  const { items, runs, infos } = experiment(seed, write, options);
  return cddEvidence(items, { provider: "p", model: "m" }, runs, infos).get("s")!;
};

/** The null suite: models with no memory of either dataset. */
const NULL_MODELS: Record<string, (dataset: string) => Writer> = {
  constant: () => () => "I do not know.",
  "copy the input": (dataset) => (instance) => `${dataset} instance ${instance} says`,
  // Fluent unrelated text at the same temperature: a new sentence per sample, a fixed one for the greedy answer.
  "fluent sampler": () => (_instance, _draw, random) => fluent(random),
  // As confident on an instance as a draw says (each sample is the greedy answer with that probability), whatever
  // the dataset: peakedness spread over [0, 1] alike in the sample and its control, the test's real null.
  "confidence drawn per instance": () => {
    const greedy = new Map<number, string>();
    const confidence = new Map<number, number>();
    return (instance, draw, random) => {
      if (draw === null) {
        greedy.set(instance, fluent(random));
        confidence.set(instance, random.integer(0, 100));
      }
      return random.integer(0, 99) < confidence.get(instance)! ? greedy.get(instance)! : fluent(random);
    };
  },
};

describe("CDD under models with no memory (the null suite)", () => {
  it.each(Object.keys(NULL_MODELS))("%s: contaminated in at most alpha of 300 seeded experiments", (name) => {
    let flagged = 0;
    const runs = 300;
    for (let seed = 0; seed < runs; seed++)
      if (verdictOf(seed, NULL_MODELS[name]).verdict === ContaminationVerdict.CONTAMINATED) flagged++;
    if (process.env.MEMICL_NULL_COUNTS)
      console.log(`CDD null suite, ${name}: ${flagged} of ${runs} contaminated`);
    // alpha, with three binomial standard deviations of 300 draws beside it.
    expect(flagged / runs).toBeLessThanOrEqual(CDD_TEST_ALPHA + 3 * Math.sqrt((0.05 * 0.95) / runs));
  });

  it("shows what the authors' rule alone calls a constant model: every instance leaked", () => {
    const evidence = verdictOf(1, NULL_MODELS.constant);
    expect(evidence.leakShare).toBe(1);
    expect(evidence.verdict).toBe(ContaminationVerdict.NO_EVIDENCE);
  });
});

describe("CDD on a model that memorized the sample's dataset", () => {
  // Remembers `memorized` of rte's instances (by instance number), keeping the continuation in 90% of samples.
  const memorizing =
    (memorized: number) =>
    (dataset: string): Writer =>
    (instance, draw, random) =>
      dataset === "rte" && instance < memorized * 30 && (draw === null || random.integer(0, 9) < 9)
        ? continuationOf(dataset, instance)
        : fluent(random);

  it.each([0.3, 0.6, 1])(
    "memorizing %p of it: contaminated, the share leaked inside its interval",
    (share) => {
      let found = 0;
      for (let seed = 0; seed < 20; seed++) {
        const evidence = verdictOf(seed, memorizing(share));
        if (evidence.verdict === ContaminationVerdict.CONTAMINATED) found++;
        expect(evidence.leakShareLow!).toBeLessThanOrEqual(share);
        expect(evidence.leakShareHigh!).toBeGreaterThanOrEqual(share);
      }
      expect(found).toBeGreaterThanOrEqual(19);
    },
  );

  it("cannot tell with fewer than ten instances a side, and decides nothing without a control", () => {
    expect(verdictOf(1, memorizing(1), { instances: 8 }).verdict).toBe(ContaminationVerdict.CANNOT_TELL);
    const { items, runs, infos } = experiment(1, memorizing(1));
    infos.set("c", { ...infos.get("c")!, controlOf: null });
    const alone = cddEvidence(items, { provider: "p", model: "m" }, runs, infos).get("s")!;
    expect(alone.verdict).toBeNull();
    expect(alone.leakShare).toBe(1);
    expect(alone.cannotTell).toContain("no verdict");
  });

  it("counts instances it could not compare", () => {
    const { items, runs, infos } = experiment(2, memorizing(1));
    const kept = items.filter((item) => !(item.item === "s3" && item.temperature > 0));
    const evidence = cddEvidence(kept, { provider: "p", model: "m" }, runs, infos).get("s")!;
    expect(evidence.instances).toBe(29);
    expect(evidence.notCompared).toBe(1);
  });
});
