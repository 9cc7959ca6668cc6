import fc from "fast-check";
import { RandomStream } from "../../../src/common/random";
import { CoverageItem, ngramEvidence, SAMPLING_TEST_ALPHA } from "../../../src/report/analyses";
import type { ContinuationRunState } from "../../../src/report/analyses/cdd";
import { SampleInfo } from "../../../src/report/analyses/rows";
import { ngramCoverage, ngramInstance, ngramWords } from "../../../src/sampling/ngram";
import { ContaminationVerdict } from "../../../src/study/contamination-verdict";
import reference from "../../reference/ngram.json";

// Reference values: test/reference/ngram.json, written by test/reference/ngram.py (every position against every
// window, plain lists).

describe("n-gram coverage against an independent reference", () => {
  it.each(reference.cases.map((c, i) => [i, c] as const))("case %d", (_, c) => {
    const words = ngramWords(c.reference);
    expect(c.samples.map((sample) => ngramCoverage(words, ngramWords(sample), c.n))).toEqual(
      c.coverages.map((value) => expect.closeTo(value, 12)),
    );
    const instance = ngramInstance(c.reference, c.samples, c.n)!;
    expect(instance.maxCoverage).toBeCloseTo(c.max, 12);
    expect(instance.meanCoverage).toBeCloseTo(c.mean, 12);
  });
});

const words = fc.array(fc.constantFrom("a", "b", "c", "d"), { maxLength: 25 });

describe("n-gram coverage", () => {
  it("is a share, 1 for the reference itself, and never grows with n", () => {
    fc.assert(
      fc.property(words, words, fc.integer({ min: 1, max: 5 }), (ref, sample, n) => {
        const coverage = ngramCoverage(ref, sample, n);
        expect(coverage).toBeGreaterThanOrEqual(0);
        expect(coverage).toBeLessThanOrEqual(1);
        if (ref.length >= n) expect(ngramCoverage(ref, ref, n)).toBe(1);
        expect(ngramCoverage(ref, sample, n + 1)).toBeLessThanOrEqual(coverage);
      }),
    );
  });

  it("is the plain definition: every reference window against every sample window", () => {
    // Recurring words (a vocabulary of 3 to 12) so that windows repeat in both texts and at any position.
    const texts = fc.integer({ min: 3, max: 12 }).chain((size) =>
      fc.tuple(
        fc.array(
          fc.integer({ min: 0, max: size - 1 }).map((i) => `w${i}`),
          { maxLength: 60, size: "max" },
        ),
        fc.array(
          fc.integer({ min: 0, max: size - 1 }).map((i) => `w${i}`),
          { maxLength: 60, size: "max" },
        ),
      ),
    );
    fc.assert(
      fc.property(texts, fc.integer({ min: 1, max: 6 }), ([ref, sample], n) => {
        expect(ngramCoverage(ref, sample, n)).toBe(plainCoverage(ref, sample, n));
        const instance = ngramInstance(ref.join(" "), [sample.join(" "), ref.join(" ")], n);
        if (instance) expect(instance.maxCoverage).toBe(ref.length >= n ? 1 : 0);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps n-grams apart in a reference of more distinct words than a character holds", () => {
    const ref = Array.from({ length: 70_000 }, (_, i) => `x${i}`);
    expect(ngramCoverage(ref, ["x5", "x6", "x7"], 3)).toBe(3 / 70_000);
    expect(ngramCoverage(ref, ["x69999", "x0", "x1"], 3)).toBe(0);
    expect(ngramCoverage(ref, ["x1", "x0", "x65537"], 2)).toBe(0);
  });

  it("counts runs of words, whatever the case and punctuation, and nothing shorter than n", () => {
    const ref = ngramWords("The ferry leaves twice every morning before nine");
    expect(ngramCoverage(ref, ngramWords("THE FERRY, leaves at noon"), 3)).toBeCloseTo(3 / 8, 12);
    expect(ngramCoverage(ref, ngramWords("the ferry at noon"), 3)).toBe(0);
    expect(ngramInstance("", ["a b c"], 3)).toBeNull();
    expect(ngramInstance("a b c", [], 3)).toBeNull();
  });
});

/** Coverage as defined: a reference word is covered when a window of n reference words holding it is one of the sample's. */
function plainCoverage(ref: readonly string[], sample: readonly string[], n: number): number {
  if (ref.length < n || sample.length < n) return 0;
  const windows = (words: readonly string[]) =>
    Array.from({ length: words.length - n + 1 }, (_, i) => words.slice(i, i + n));
  const same = (a: string[], b: string[]) => a.every((word, i) => word === b[i]);
  const shared = windows(ref).map((window) => windows(sample).some((other) => same(window, other)));
  return (
    ref.filter((_, i) => shared.some((found, start) => found && start <= i && i < start + n)).length /
    ref.length
  );
}

// A sample of `instances` instances and its control, with `samples` sampled continuations each.
type Writer = (dataset: string, instance: number, random: RandomStream) => string;
const WORDS =
  "the a river old man stone bright quietly ran over under seven green house market letter of sold".split(
    " ",
  );
const fluent = (random: RandomStream, length = 12) =>
  Array.from({ length }, () => WORDS[random.integer(0, WORDS.length - 1)]).join(" ");
// Every reference ends in a phrase the task makes predictable, in both datasets alike, and has their length (a
// control whose continuations are a word longer is covered less by the same phrase: 300 of 300 "contaminated").
const referenceOf = (dataset: string, instance: number) =>
  `${dataset.slice(0, 3)} record ${instance} tells of a ${WORDS[instance % WORDS.length]} crossing, and the ferry leaves twice every morning`;

function experiment(seed: number, write: Writer, { instances = 30, samples = 10 } = {}) {
  const items: CoverageItem[] = [];
  const runs: ContinuationRunState[] = [];
  const infos = new Map<string, SampleInfo>();
  for (const [sampleId, dataset, controlOf] of [
    ["s", "rte", null],
    ["c", "rte-control", "rte"],
  ] as const) {
    infos.set(sampleId, { sampleId, sampleName: null, sampleSeed: "1", dataset, controlOf });
    runs.push({ runId: sampleId, sampleId, provider: "p", model: "m", prompt: "RAW", instances });
    const random = RandomStream.derive(seed, sampleId);
    for (let instance = 0; instance < instances; instance++)
      for (let draw = 0; draw < samples; draw++)
        items.push({
          runId: sampleId,
          sampleId,
          provider: "p",
          model: "m",
          item: `${sampleId}${instance}`,
          temperature: 1,
          text: write(dataset, instance, random),
          reference: referenceOf(dataset, instance),
        });
  }
  return { items, runs, infos };
}

const evidenceOf = (seed: number, write: Writer, options?: { instances?: number }) => {
  const { items, runs, infos } = experiment(seed, write, options);
  return ngramEvidence(items, { provider: "p", model: "m" }, runs, infos).get("s")!;
};

const NULL_MODELS: Record<string, Writer> = {
  constant: () => "I do not know.",
  "copy the input": (dataset, instance) => `${dataset.slice(0, 3)} record ${instance} tells of`,
  "fluent sampler": (_dataset, _instance, random) => fluent(random),
  // Knows the task's fixed phrase, not the instances: says it in a share of samples drawn per call, alike in both.
  "the task's phrase": (_dataset, _instance, random) =>
    random.integer(0, 2) === 0
      ? `${fluent(random, 4)} and the ferry leaves twice every morning`
      : fluent(random),
};

describe("n-gram coverage under models with no memory (the null suite)", () => {
  it.each(Object.keys(NULL_MODELS))("%s: contaminated in at most alpha of 300 seeded experiments", (name) => {
    let flagged = 0;
    const runs = 300;
    for (let seed = 0; seed < runs; seed++)
      if (evidenceOf(seed, NULL_MODELS[name]).verdict === ContaminationVerdict.CONTAMINATED) flagged++;
    if (process.env.MEMICL_NULL_COUNTS)
      console.log(`n-gram coverage null suite, ${name}: ${flagged} of ${runs} contaminated`);
    expect(flagged / runs).toBeLessThanOrEqual(SAMPLING_TEST_ALPHA + 3 * Math.sqrt((0.05 * 0.95) / runs));
  });
});

describe("n-gram coverage on a model that memorized the sample's dataset", () => {
  // Remembers `share` of rte's instances, and recites a random stretch of half the continuation in each sample.
  const memorizing =
    (share: number): Writer =>
    (dataset, instance, random) => {
      if (dataset !== "rte" || instance >= share * 30) return fluent(random);
      const words = referenceOf(dataset, instance).split(" ");
      const start = random.integer(0, Math.floor(words.length / 2));
      return words.slice(start, start + Math.ceil(words.length / 2)).join(" ");
    };

  it.each([0.3, 0.6, 1])("memorizing %p of it: contaminated", (share) => {
    let found = 0;
    for (let seed = 0; seed < 20; seed++)
      if (evidenceOf(seed, memorizing(share)).verdict === ContaminationVerdict.CONTAMINATED) found++;
    expect(found).toBeGreaterThanOrEqual(19);
  });

  it("cannot tell with fewer than ten instances a side, and decides nothing without a control", () => {
    expect(evidenceOf(1, memorizing(1), { instances: 8 }).verdict).toBe(ContaminationVerdict.CANNOT_TELL);
    const { items, runs, infos } = experiment(1, memorizing(1));
    infos.set("c", { ...infos.get("c")!, controlOf: null });
    const alone = ngramEvidence(items, { provider: "p", model: "m" }, runs, infos).get("s")!;
    expect(alone.verdict).toBeNull();
    expect(alone.meanCoverage).toBeGreaterThan(0.5);
    expect(alone.cannotTell).toContain("no verdict");
  });
});
