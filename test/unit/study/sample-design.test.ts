import { RandomStream } from "../../../src/common/random";
import { interleaveByLabel, labelQuotas } from "../../../src/sample/design/balanced-sampling";
import {
  ambiguousInstances,
  Candidate,
  chooseSample,
  designSample as designSampleV3,
  presentationOrder,
  SampleParameters,
  segmentChoice,
} from "../../../src/sample/design/design-sample";
import {
  allowedCuts,
  countTokens,
  DEFAULT_CUT_RANGE,
  segmentInstance,
} from "../../../src/sample/design/segmentation";
import { isTrivialTarget } from "../../../src/study/targets";

const PARAMETERS: SampleParameters = {
  seed: 7,
  instanceSplit: "train",
  demonstrationSplit: "train",
  instanceCount: 200,
  demonstrationCount: 200,
  shotCounts: [0, 25, 50, 100, 200],
  cutRange: DEFAULT_CUT_RANGE,
};

function makeCandidates(
  perLabel: Record<string, number>,
  words = 12,
): { candidates: Candidate<number>[]; texts: Map<string, string> } {
  const candidates: Candidate<number>[] = [];
  const texts = new Map<string, string>();
  let line = 0;
  for (const [label, count] of Object.entries(perLabel)) {
    for (let i = 0; i < count; i += 1) {
      line += 1;
      const key = `file:${String(line).padStart(6, "0")}`;
      const text = Array.from({ length: words + (line % 5) }, (_, w) => `w${line}_${w}`).join(" ");
      candidates.push({ key, label, split: "train", tokenCount: countTokens(text), ref: line });
      texts.set(key, text);
    }
  }
  return { candidates, texts };
}

/** Chooses, then segments, as the sample service does. */
function designSample(
  candidates: Candidate<number>[],
  parameters: SampleParameters,
  texts: Map<string, string>,
) {
  const withCounts = candidates.map((candidate) => ({
    ...candidate,
    tokenCount: countTokens(texts.get(candidate.key)!),
  }));
  const sources = new Map([...texts].map(([key, text]) => [key, { text, secondText: null }]));
  return segmentChoice(chooseSample(withCounts, parameters), sources, parameters);
}

const countLabels = (items: { candidate: Candidate<number> }[]) =>
  items.reduce(
    (counts, { candidate }) => counts.set(candidate.label, (counts.get(candidate.label) ?? 0) + 1),
    new Map<string, number>(),
  );

describe("segmentation", () => {
  it("allows cuts between 60% and 80% of the tokens, with a token on each side", () => {
    expect(allowedCuts(10, DEFAULT_CUT_RANGE)).toEqual({ from: 6, to: 8 });
    expect(allowedCuts(3, DEFAULT_CUT_RANGE)).toEqual({ from: 2, to: 2 });
    expect(allowedCuts(5, DEFAULT_CUT_RANGE)).toEqual({ from: 3, to: 4 });
    expect(allowedCuts(2, DEFAULT_CUT_RANGE)).toBeNull();
    expect(allowedCuts(1, DEFAULT_CUT_RANGE)).toBeNull();
  });

  it("splits an NLI pair into its two texts", () => {
    const result = segmentInstance("A man sleeps.", "A person rests.", {
      seed: 1,
      instanceKey: "k",
      cutRange: DEFAULT_CUT_RANGE,
    });
    expect(result).toEqual({
      ok: true,
      segments: {
        initialSegment: "A man sleeps.",
        subsequentSegment: "A person rests.",
        cutTokenIndex: null,
        tokenCount: 6,
      },
    });
  });

  it("cuts one text at a whitespace token and keeps the inner whitespace as written", () => {
    const text = "one  two three four five six seven eight nine ten";
    const result = segmentInstance(text, null, { seed: 1, instanceKey: "k", cutRange: DEFAULT_CUT_RANGE });
    if (!result.ok) throw new Error(result.reason);
    const { initialSegment, subsequentSegment, cutTokenIndex } = result.segments;
    expect(cutTokenIndex).toBeGreaterThanOrEqual(6);
    expect(cutTokenIndex).toBeLessThanOrEqual(8);
    expect(`${initialSegment} ${subsequentSegment}`).toBe(text);
    expect(initialSegment.startsWith("one  two")).toBe(true);
  });

  it("draws the cut per instance: different instances get different cuts, the same instance the same", () => {
    const text = Array.from({ length: 40 }, (_, i) => `t${i}`).join(" ");
    const cuts = Array.from({ length: 60 }, (_, i) => {
      const result = segmentInstance(text, null, {
        seed: 3,
        instanceKey: `key-${i}`,
        cutRange: DEFAULT_CUT_RANGE,
      });
      return result.ok ? result.segments.cutTokenIndex : -1;
    });
    expect(new Set(cuts).size).toBeGreaterThan(5);
    expect(Math.min(...(cuts as number[]))).toBeGreaterThanOrEqual(24);
    expect(Math.max(...(cuts as number[]))).toBeLessThanOrEqual(32);
    const again = segmentInstance(text, null, { seed: 3, instanceKey: "key-0", cutRange: DEFAULT_CUT_RANGE });
    expect(again.ok && again.segments.cutTokenIndex).toBe(cuts[0]);
  });

  it("explains why a text is too short to cut", () => {
    const result = segmentInstance("Hello world", null, {
      seed: 1,
      instanceKey: "k",
      cutRange: DEFAULT_CUT_RANGE,
    });
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/too short to cut: 2 token/) });
  });
});

describe("balanced quotas", () => {
  const quotas = (available: Record<string, number>, wanted: number) =>
    Object.fromEntries(labelQuotas(new Map(Object.entries(available)), wanted, new RandomStream(1)));

  it("splits evenly when every label has enough rows", () => {
    expect(quotas({ a: 500, b: 500 }, 200)).toEqual({ a: 100, b: 100 });
  });

  it("gives the remainder of an uneven split to random labels, one each", () => {
    const result = quotas({ a: 50, b: 50, c: 50 }, 100);
    expect(Object.values(result).sort()).toEqual([33, 33, 34]);
  });

  it("takes all rows of a short label and shares the rest among the others", () => {
    const result = quotas({ ABBR: 9, DESC: 138, ENTY: 93, HUM: 65, LOC: 81, NUM: 113 }, 200);
    expect(result.ABBR).toBe(9);
    expect(Object.values(result).sort((a, b) => a - b)).toEqual([9, 38, 38, 38, 38, 39]);
  });

  it("never asks for more than exists", () => {
    expect(quotas({ a: 3, b: 2 }, 200)).toEqual({ a: 3, b: 2 });
  });
});

describe("nesting", () => {
  it("makes every prefix as balanced as possible", () => {
    const groups = new Map([
      ["a", Array.from({ length: 70 }, (_, i) => `a${i}`)],
      ["b", Array.from({ length: 70 }, (_, i) => `b${i}`)],
      ["c", Array.from({ length: 60 }, (_, i) => `c${i}`)],
    ]);
    const order = interleaveByLabel(groups, new RandomStream(5));
    for (const k of [1, 2, 3, 25, 50, 100, 180]) {
      const counts = ["a", "b", "c"].map(
        (label) => order.slice(0, k).filter((item) => item.startsWith(label)).length,
      );
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    }
    expect(order).toHaveLength(200);
  });
});

describe("designSample", () => {
  const { candidates, texts } = makeCandidates({ x: 300, y: 250, z: 280 });

  it("samples balanced, disjoint instances and demonstrations", () => {
    const design = designSample(candidates, PARAMETERS, texts);
    expect(design.instances).toHaveLength(200);
    expect(design.demonstrations).toHaveLength(200);
    for (const counts of [countLabels(design.instances), countLabels(design.demonstrations)]) {
      const values = [...counts.values()];
      expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(1);
    }
    const instanceKeys = new Set(design.instances.map((item) => item.candidate.key));
    expect(design.demonstrations.some((item) => instanceKeys.has(item.candidate.key))).toBe(false);
    expect(design.notes).toEqual([]);
  });

  it("keeps siblings of the instances under test (rows sharing an initial segment) out of the demonstrations", () => {
    // Every row shares its sibling key with one other row (as WNLI's pairs share sentence 1).
    const paired = candidates.map((candidate, index) => ({
      ...candidate,
      siblingKey: `first text ${index >> 1}`,
    }));
    const choice = chooseSample(paired, PARAMETERS);
    const instanceSiblings = new Set(choice.instances.map((candidate) => candidate.siblingKey));
    expect(choice.demonstrations.some((candidate) => instanceSiblings.has(candidate.siblingKey))).toBe(false);
    expect(choice.demonstrations).toHaveLength(200);
    expect(choice.notes.join("\n")).toMatch(
      /demonstrations: left out \d+ candidate\(s\) sharing an initial segment with an instance under test \(siblings\)/,
    );
    // Without siblings, no note and the same instances as before.
    expect(chooseSample(candidates, PARAMETERS).notes).toEqual([]);
  });

  it("nests the k-shot sets and keeps each one balanced", () => {
    const design = designSample(candidates, PARAMETERS, texts);
    for (const k of [25, 50, 100, 200]) {
      const values = [...countLabels(design.demonstrations.slice(0, k)).values()];
      expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(1);
    }
  });

  it("gives the same design for the same inputs in any order, and another for another seed", () => {
    const first = designSample(candidates, PARAMETERS, texts);
    const shuffledInput = new RandomStream(99).shuffle(candidates);
    const second = designSample(shuffledInput, PARAMETERS, texts);
    expect(second.contentHash).toBe(first.contentHash);
    expect(second.instances.map((item) => item.candidate.key)).toEqual(
      first.instances.map((item) => item.candidate.key),
    );
    const other = designSample(candidates, { ...PARAMETERS, seed: 8 }, texts);
    expect(other.contentHash).not.toBe(first.contentHash);
  });

  it("excludes texts too short to cut, says why, and still fills the sample", () => {
    const short = new Map(texts);
    const victims = candidates.filter((candidate) => candidate.label === "x").slice(0, 40);
    for (const victim of victims) short.set(victim.key, "tiny");
    const design = designSample(
      candidates,
      { ...PARAMETERS, instanceCount: 600, demonstrationCount: 10 },
      short,
    );
    expect(design.instances).toHaveLength(600);
    expect(design.instances.every((item) => short.get(item.candidate.key) !== "tiny")).toBe(true);
    expect(design.exclusions.length).toBeGreaterThan(0);
    expect(design.exclusions[0].reason).toMatch(/too short to cut: 1 token/);
  });

  it("notes a label with too few rows and takes more of the others", () => {
    const skewed = makeCandidates({ rare: 20, common: 400, usual: 400 });
    const design = designSample(skewed.candidates, { ...PARAMETERS, demonstrationCount: 50 }, skewed.texts);
    expect(Object.fromEntries(countLabels(design.instances))).toEqual({ rare: 20, common: 90, usual: 90 });
    expect(design.notes[0]).toMatch(/instances: label "rare" has only 20 usable row\(s\)/);
  });

  it("shows the k demonstrations in a seeded random order that is the same every time", () => {
    const ranked = Array.from({ length: 200 }, (_, i) => i);
    const order = presentationOrder(ranked, 25, 7);
    expect([...order].sort((a, b) => a - b)).toEqual(ranked.slice(0, 25));
    expect(order).not.toEqual(ranked.slice(0, 25));
    expect(presentationOrder(ranked, 25, 7)).toEqual(order);
  });
});

describe("design version 3", () => {
  const texts = (entries: [string, string, string][]) => {
    const candidates: Candidate<number>[] = entries.map(([key, label, text], index) => ({
      key,
      label,
      split: "train",
      tokenCount: countTokens(text),
      siblingKey: text.toLowerCase(),
      ref: index,
    }));
    const sources = new Map(entries.map(([key, , text]) => [key, { text, secondText: null }]));
    return {
      candidates,
      textsOf: async (rows: Candidate<number>[]) =>
        new Map(rows.map((row) => [row.key, sources.get(row.key)!])),
    };
  };

  it("cuts where the second segment keeps at least minTargetWords words, and says when no cut can", () => {
    // Eleven tokens: cuts 7 and 8 leave "ship to sail ?" and "to sail ?"; only the first has three words.
    const text = "what is the name of the first ship to sail ?";
    for (let seed = 0; seed < 20; seed += 1) {
      const result = segmentInstance(text, null, {
        seed,
        instanceKey: "k",
        cutRange: DEFAULT_CUT_RANGE,
        minTargetWords: 3,
      });
      expect(result.ok && result.segments).toMatchObject({
        subsequentSegment: "ship to sail ?",
        shortTarget: false,
      });
    }
    const short = segmentInstance("who wrote this book ?", null, {
      seed: 1,
      instanceKey: "k",
      cutRange: DEFAULT_CUT_RANGE,
      minTargetWords: 3,
    });
    expect(short.ok && short.segments.shortTarget).toBe(true);
    // Without the option (design version 2) the cut is drawn from the whole range, as before.
    const cuts = new Set(
      Array.from({ length: 40 }, (_, seed) => {
        const result = segmentInstance(text, null, { seed, instanceKey: "k", cutRange: DEFAULT_CUT_RANGE });
        return result.ok ? result.segments.cutTokenIndex : null;
      }),
    );
    expect([...cuts].sort()).toEqual([7, 8]);
  });

  it("finds instances that share an opening with another, or open a demonstration's text", () => {
    const item = (key: string, initialSegment: string, subsequentSegment: string) => ({
      candidate: { key, label: "x", split: "train", tokenCount: null, ref: 0 },
      segments: { initialSegment, subsequentSegment, cutTokenIndex: 1, tokenCount: 5 },
    });
    const found = ambiguousInstances({
      instances: [
        item("a", "What is a fear of", "shadows ?"),
        item("b", "what is a  FEAR of", "cold ?"),
        item("c", "Who wrote", "Hamlet ?"),
        item("d", "Who wro", "te it ?"),
        item("e", "Where is", "Peru ?"),
      ],
      demonstrations: [item("z", "Who wrote the", "Iliad ?")],
    });
    expect([...found.keys()].sort()).toEqual(["a", "b", "c"]);
    expect(found.get("a")).toMatch(/shares its initial segment/);
    expect(found.get("c")).toMatch(/begins a demonstration's text/);
  });

  it("leaves ambiguous instances out, draws others in their place, and says so; version 2 keeps them", async () => {
    const rows: [string, string, string][] = [];
    for (let i = 0; i < 30; i += 1)
      rows.push([
        `r${String(i).padStart(3, "0")}`,
        i % 2 ? "a" : "b",
        `what is a fear of thing number ${i} in the list`,
      ]);
    for (let i = 30; i < 60; i += 1)
      rows.push([
        `r${String(i).padStart(3, "0")}`,
        i % 2 ? "a" : "b",
        `row ${i} has its own words and many more of them`,
      ]);
    const { candidates, textsOf } = texts(rows);
    const parameters = { ...PARAMETERS, instanceCount: 20, demonstrationCount: 10, shotCounts: [0, 10] };
    const v3 = await designSampleV3(candidates, { ...parameters, version: 3 }, textsOf);
    const openings = v3.instances.map((item) => item.segments.initialSegment.toLowerCase());
    expect(new Set(openings).size).toBe(openings.length);
    expect(v3.instances).toHaveLength(20);
    expect(ambiguousInstances(v3).size).toBe(0);
    for (const item of v3.instances) expect(isTrivialTarget(item.segments.subsequentSegment)).toBe(false);
    const v2 = await designSampleV3(candidates, { ...parameters, version: 2 }, textsOf);
    expect(v2.notes.join("\n")).not.toMatch(/left out/);
    expect(v2.contentHash).toBe(
      segmentChoice(chooseSample(candidates, { ...parameters, version: 2 }), await textsOf(candidates), {
        ...parameters,
        version: 2,
      }).contentHash,
    );
    expect(v3.contentHash).not.toBe(v2.contentHash);
  });
});

describe("long texts, as a linear scan would cut and check them (property)", () => {
  const fc = require("fast-check") as typeof import("fast-check");
  const word = fc.constantFrom(
    "the",
    "a",
    "River",
    "—",
    "!",
    "mill",
    "1,200",
    "of",
    "Zoë",
    "...",
    "ran",
    "x",
  );
  const text = fc.array(word, { minLength: 2, maxLength: 120 }).map((words) => words.join(" "));

  it("draws the cut the linear scan of every cut's target words drew", () => {
    const { targetWords } =
      require("../../../src/study/targets") as typeof import("../../../src/study/targets");
    const { tokenOffsets } = require("../../../src/sample/design/segmentation");
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 6 }), fc.nat(), (body, minTargetWords, seed) => {
        const result = segmentInstance(body, null, {
          seed,
          instanceKey: "k",
          cutRange: DEFAULT_CUT_RANGE,
          minTargetWords,
        });
        const offsets: number[] = tokenOffsets(body);
        const cuts = allowedCuts(offsets.length, DEFAULT_CUT_RANGE);
        if (!cuts) return !result.ok;
        const long: number[] = [];
        for (let at = cuts.from; at <= cuts.to; at += 1)
          if (targetWords(body.slice(offsets[at])).length >= minTargetWords) long.push(at);
        const stream = RandomStream.derive(seed, "cut", "k");
        const cut =
          long.length === 0 ? stream.integer(cuts.from, cuts.to) : long[stream.integer(0, long.length - 1)];
        return (
          result.ok &&
          result.segments.cutTokenIndex === cut &&
          result.segments.shortTarget === (long.length === 0)
        );
      }),
      { numRuns: 500, seed: 3 },
    );
  });

  it("finds the instances that open a demonstration as the set of every opening did", () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 6 }),
        fc.array(text, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (instanceTexts, demonstrationTexts, borrowed) => {
          // Some instances open exactly as a demonstration does, at a word boundary or not.
          const openings = instanceTexts.map((body, i) => {
            const source = demonstrationTexts[(borrowed[i] ?? i) % demonstrationTexts.length];
            return borrowed[i] === undefined
              ? body
              : source.slice(0, Math.max(1, (borrowed[i] % source.length) + 1)).trim() || body;
          });
          const item = (key: string, initialSegment: string, subsequentSegment: string) => ({
            candidate: { key, label: "a", ref: key } as unknown as Candidate<string>,
            segments: { initialSegment, subsequentSegment, cutTokenIndex: null, tokenCount: 1 },
          });
          const design = {
            instances: openings.map((opening, i) => item(`i${i}`, opening, "rest")),
            demonstrations: demonstrationTexts.map((body, i) => item(`d${i}`, body, "more words")),
          };
          const key = (value: string) => value.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
          const every = new Set<string>();
          for (const d of design.demonstrations) {
            const words = key(`${d.segments.initialSegment} ${d.segments.subsequentSegment}`).split(" ");
            for (let end = 1; end <= words.length; end += 1) every.add(words.slice(0, end).join(" "));
          }
          const found = ambiguousInstances(design as never);
          const openingCounts = new Map<string, number>();
          for (const instance of design.instances) {
            const opening = key(instance.segments.initialSegment);
            openingCounts.set(opening, (openingCounts.get(opening) ?? 0) + 1);
          }
          return design.instances.every((instance) => {
            const opening = key(instance.segments.initialSegment);
            return (
              found.has(instance.candidate.key) === (openingCounts.get(opening)! > 1 || every.has(opening))
            );
          });
        },
      ),
      { numRuns: 500, seed: 4 },
    );
  });
});
