import fc from "fast-check";
import { RandomStream } from "../../../src/common/random";
import { codecScore, contextPositionOf } from "../../../src/logprob/codec";
import { TokenLogprobs } from "../../../src/logprob/scores";
import { CodecItem, CodecRunState, codecEvidence, SAMPLING_TEST_ALPHA } from "../../../src/report/analyses";
import { SampleInfo } from "../../../src/report/analyses/rows";
import { ContaminationVerdict } from "../../../src/study/contamination-verdict";
import reference from "../../reference/codec.json";

// Reference values: test/reference/codec.json, written by test/reference/codec.py (numpy means, scipy's
// mannwhitneyu).

const payload = (logprobs: readonly number[]): TokenLogprobs => ({
  version: 1,
  tokens: logprobs.length + 1,
  logprobs: [...logprobs],
  means: logprobs.map(() => null),
  deviations: logprobs.map(() => null),
  top: 0,
});

const INFOS = new Map<string, SampleInfo>([
  ["s", { sampleId: "s", sampleName: null, sampleSeed: "1", dataset: "rte", controlOf: null }],
  ["c", { sampleId: "c", sampleName: null, sampleSeed: "1", dataset: "rte-control", controlOf: "rte" }],
]);

/** Both passes of every instance of the sample and its control, as the report reads them. */
function passes(own: readonly Pass[], control: readonly Pass[]) {
  const items: CodecItem[] = [];
  const runs: CodecRunState[] = [];
  for (const [sampleId, list] of [
    ["s", own],
    ["c", control],
  ] as const) {
    for (const inContext of [false, true])
      runs.push({
        runId: `${sampleId}${inContext}`,
        sampleId,
        provider: "p",
        model: "m",
        instances: list.length,
      });
    list.forEach((pass, index) => {
      for (const inContext of [false, true])
        items.push({
          runId: `${sampleId}${inContext}`,
          sampleId,
          provider: "p",
          model: "m",
          item: `${sampleId}${index}`,
          inContext,
          output: JSON.stringify(payload(inContext ? pass.inContext : pass.alone)),
        });
    });
  }
  return { items, runs };
}
interface Pass {
  alone: number[];
  inContext: number[];
}

const evidenceOf = (own: readonly Pass[], control: readonly Pass[], infos = INFOS) => {
  const { items, runs } = passes(own, control);
  return codecEvidence(items, { provider: "p", model: "m" }, runs, infos).get("s")!;
};

describe("CoDeC against an independent reference", () => {
  it.each(reference.cases.map((c, i) => [i, c] as const))("case %d", (_, c) => {
    c.instances.forEach((instance, i) => {
      const score = codecScore(payload(instance.alone), payload(instance.inContext))!;
      expect(score.alone).toBeCloseTo(c.scores[i].alone, 12);
      expect(score.inContext).toBeCloseTo(c.scores[i].inContext, 12);
      expect(score.delta).toBeCloseTo(c.scores[i].delta, 12);
    });
    const evidence = evidenceOf(c.instances, c.control);
    expect(evidence.dropShare).toBeCloseTo(c.dropShare, 12);
    expect(evidence.test!.controlDropShare).toBeCloseTo(c.controlDropShare, 12);
    expect(evidence.test!.auc).toBeCloseTo(c.auc, 12);
    expect(evidence.test!.pValue).toBeCloseTo(c.pValue, 10);
  });
});

describe("CoDeC's pairs and passes", () => {
  it("puts every instance after another of its sample, each one the context once", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 500 }), { minLength: 2, maxLength: 40 }),
        (positions) => {
          const contexts = positions.map((position) => contextPositionOf(position, positions));
          for (const [i, context] of contexts.entries()) {
            expect(context).not.toBeNull();
            expect(context).not.toBe(positions[i]);
            expect(positions).toContain(context);
          }
          expect(new Set(contexts).size).toBe(positions.length);
        },
      ),
    );
    expect(contextPositionOf(3, [3])).toBeNull();
    expect(contextPositionOf(4, [1, 2])).toBeNull();
  });

  it("compares the same last tokens, and nothing when a pass is empty or too short", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -20, max: 0, noNaN: true }), { minLength: 1, maxLength: 30 }),
        fc.array(fc.double({ min: -20, max: 0, noNaN: true }), { maxLength: 30 }),
        (alone, before) => {
          // Scored after a context that leaves its tokens as they were: no change.
          const score = codecScore(payload(alone), payload([...before, -1, ...alone]))!;
          expect(score.delta).toBeCloseTo(0, 9);
          expect(score.tokens).toBe(alone.length);
        },
      ),
    );
    expect(codecScore(payload([]), payload([-1]))).toBeNull();
    expect(codecScore(payload([-1, -2]), payload([-1]))).toBeNull();
  });
});

// Scorers: the log-probability of each word of `words` (the first included), with `context` before it or not.
type Scorer = (
  words: readonly string[],
  context: readonly string[] | null,
  random: RandomStream,
  member: boolean,
) => number[];
const VOCABULARY =
  "the a river old man stone bright quietly ran over under seven green house market letter of sold".split(
    " ",
  );
const FREQUENCY = new Map(VOCABULARY.map((word, i) => [word, -1 - (i % 7) * 0.4]));
const textOf = (random: RandomStream) =>
  Array.from({ length: random.integer(6, 24) }, () => VOCABULARY[random.integer(0, VOCABULARY.length - 1)]);
const uniform = (random: RandomStream) => (random.integer(0, 2 ** 30 - 1) + 0.5) / 2 ** 30;
// Box-Muller.
const noise = (random: RandomStream, sd: number) =>
  sd * Math.sqrt(-2 * Math.log(uniform(random))) * Math.cos(2 * Math.PI * uniform(random));

function experiment(seed: number, scorer: Scorer, { instances = 30, members = 0 } = {}) {
  const lists: Pass[][] = [];
  for (const sampleId of ["s", "c"]) {
    const random = RandomStream.derive(seed, sampleId);
    const texts = Array.from({ length: instances }, () => textOf(random));
    lists.push(
      texts.map((words, i) => {
        const member = sampleId === "s" && i < members;
        const context = texts[(i + 1) % texts.length];
        return {
          alone: scorer(words, null, random, member).slice(1),
          inContext: [
            ...scorer(context, null, random, false).slice(1),
            ...scorer(words, context, random, member),
          ],
        };
      }),
    );
  }
  return evidenceOf(lists[0], lists[1]);
}

const NULL_MODELS: Record<string, Scorer> = {
  constant: (words) => words.map(() => -2),
  // A unigram model: each word's frequency, whatever stands before it.
  unigram: (words) => words.map((word) => FREQUENCY.get(word)!),
  // Copies from its context: a word seen before it is likelier (an induction head), and nothing is remembered.
  "copy the context": (words, context, random) =>
    words.map((word) => FREQUENCY.get(word)! + (context?.includes(word) ? 0.8 : 0) + noise(random, 0.3)),
  guesser: (words, _context, random) => words.map(() => -3 + noise(random, 1)),
};

describe("CoDeC under models with no memory (the null suite)", () => {
  it.each(Object.keys(NULL_MODELS))("%s: contaminated in at most alpha of 300 seeded experiments", (name) => {
    let flagged = 0;
    // MEMICL_NULL_RUNS counts over more seeds by hand (the figures in docs/METHOD.md).
    const runs = Number(process.env.MEMICL_NULL_RUNS ?? 300);
    for (let seed = 0; seed < runs; seed++)
      if (experiment(seed, NULL_MODELS[name]).verdict === ContaminationVerdict.CONTAMINATED) flagged++;
    if (process.env.MEMICL_NULL_COUNTS)
      console.log(`CoDeC null suite, ${name}: ${flagged} of ${runs} contaminated`);
    expect(flagged / runs).toBeLessThanOrEqual(SAMPLING_TEST_ALPHA + 3 * Math.sqrt((0.05 * 0.95) / runs));
  });
});

describe("CoDeC on a model that memorized the sample's dataset", () => {
  // A memorized text is read confidently alone and disturbed by a context; an unseen one gains from the context
  // (more where the context holds its words). Each word's difficulty is the same in both passes, as in a real model.
  const memorizing: Scorer = (words, context, random, member) =>
    words.map((word) =>
      member
        ? -0.4 + (context ? -0.4 : 0) + noise(random, 0.1)
        : FREQUENCY.get(word)! + (context ? (context.includes(word) ? 0.5 : 0.1) : 0) + noise(random, 0.1),
    );

  it.each([10, 20, 30])(
    "memorizing %p of 30 instances: the drops recovered inside their interval",
    (members) => {
      let found = 0;
      let covered = 0;
      for (let seed = 0; seed < 20; seed++) {
        const evidence = experiment(seed, memorizing, { members });
        if (evidence.verdict === ContaminationVerdict.CONTAMINATED) found++;
        // Members drop, the others gain: the share that drops is the share memorized.
        if (evidence.dropShareLow! <= members / 30 && members / 30 <= evidence.dropShareHigh!) covered++;
      }
      if (process.env.MEMICL_NULL_COUNTS)
        console.log(
          `CoDeC, ${members} of 30 memorized: found in ${found} of 20, covered in ${covered} of 20`,
        );
      expect(covered).toBeGreaterThanOrEqual(18);
      // A third of the sample is found in 17 of 20 at n = 30 a side (measured); two thirds or more, always.
      if (members >= 20) expect(found).toBeGreaterThanOrEqual(19);
      else expect(found).toBeGreaterThanOrEqual(8);
    },
  );

  it("cannot tell with fewer than ten instances a side, and decides nothing without a control", () => {
    const few = (() => {
      const random = RandomStream.derive(1, "few");
      const list = Array.from({ length: 8 }, () => ({ alone: [-1, -1], inContext: [-2, -2, -2] }));
      return evidenceOf(
        list,
        list.map((pass) => ({ ...pass, inContext: [...pass.inContext, -uniform(random)] })),
      );
    })();
    expect(few.verdict).toBe(ContaminationVerdict.CANNOT_TELL);
    const noControl = new Map(INFOS);
    noControl.set("c", { ...INFOS.get("c")!, controlOf: null });
    const list = Array.from({ length: 12 }, () => ({ alone: [-1, -1], inContext: [-2, -2, -2] }));
    const alone = evidenceOf(list, list, noControl);
    expect(alone.verdict).toBeNull();
    expect(alone.dropShare).toBe(1);
    expect(alone.cannotTell).toContain("no verdict");
  });
});
