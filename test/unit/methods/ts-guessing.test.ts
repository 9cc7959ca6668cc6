import fc from "fast-check";
import { RandomStream } from "../../../src/common/random";
import { guessMatches, guessOf, instanceSlot, MASK, maskedSlot } from "../../../src/guessing/masked-slot";
import {
  GuessItem,
  GuessingRunState,
  guessingEvidence,
  SAMPLING_TEST_ALPHA,
} from "../../../src/report/analyses";
import { SampleInfo } from "../../../src/report/analyses/rows";
import { ContaminationVerdict } from "../../../src/study/contamination-verdict";

const ADJECTIVES = ["quiet", "ancient", "bright", "narrow", "wooden", "famous", "silver", "northern"];
const NOUNS = ["river", "harbour", "village", "engineer", "teacher", "bridge", "museum", "garden", "railway"];
const VERBS = ["crossed", "painted", "visited", "repaired", "described", "followed", "opened", "sold"];
const PLACES = ["Lisbon", "Quebec", "Oslo", "Nairobi", "Kyoto"];

/** A sentence of random words, any of which may recur, in any order of clauses. */
function sentenceOf(random: RandomStream): string {
  const pick = (list: readonly string[]) => list[random.integer(0, list.length - 1)];
  const clause = () =>
    random.integer(0, 2) === 0
      ? `${pick(PLACES)} ${pick(VERBS)} the ${pick(ADJECTIVES)} ${pick(NOUNS)}`
      : `the ${pick(ADJECTIVES)} ${pick(NOUNS)} ${pick(VERBS)} the ${pick(NOUNS)}`;
  const clauses = Array.from({ length: random.integer(1, 3) }, clause);
  if (random.integer(0, 1) === 1) clauses.push(`in ${pick(PLACES)}`);
  const text = clauses.join(random.integer(0, 1) === 1 ? " and " : ", while ");
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

const words = (text: string) => text.match(/[^\s\p{P}\p{S}]+/gu) ?? [];

describe("TS-Guessing's masked slot", () => {
  it("masks one word the text shows once, in place, the same way every time", () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const text = sentenceOf(RandomStream.derive(seed, "text"));
        const slot = maskedSlot(text);
        if (!slot) return;
        expect(slot.masked.split(MASK)).toHaveLength(2);
        expect(slot.masked.replace(MASK, slot.word)).toBe(text);
        expect(words(text)[slot.position]).toBe(slot.word);
        expect(slot.word).toMatch(/^\p{L}{3,}$/u);
        // Neither the word nor another form of it stays in the prompt: it could be copied.
        const rest = words(slot.masked).map((word) => word.toLowerCase());
        expect(rest).not.toContain(slot.word.toLowerCase());
        expect(rest.some((word) => word.startsWith(slot.word.toLowerCase().slice(0, 5)))).toBe(false);
        expect(maskedSlot(text)).toEqual(slot);
      }),
      { numRuns: 200 },
    );
  });

  it("masks words at any position of the texts, of every part of speech it may", () => {
    const positions = new Set<string>();
    const kinds = new Set<string>();
    for (let seed = 0; seed < 300; seed++) {
      const text = sentenceOf(RandomStream.derive(seed, "spread"));
      const slot = maskedSlot(text);
      if (!slot) continue;
      const count = words(text).length;
      positions.add(slot.position === 0 ? "first" : slot.position === count - 1 ? "last" : "inside");
      const word = slot.word.toLowerCase();
      kinds.add(
        ADJECTIVES.includes(word)
          ? "adjective"
          : VERBS.includes(word)
            ? "verb"
            : PLACES.includes(slot.word)
              ? "name"
              : "noun",
      );
    }
    expect([...positions].sort()).toEqual(["first", "inside", "last"]);
    expect([...kinds].sort()).toEqual(["adjective", "name", "noun", "verb"]);
  });

  it("masks nothing in a text without a qualifying word, and shows an NLI pair on two lines", () => {
    expect(maskedSlot("It is what it is, and so it is.")).toBeNull();
    expect(maskedSlot("")).toBeNull();
    // "bridge" recurs: only "engineer" and "repaired" may be masked.
    for (let i = 0; i < 5; i++) {
      const slot = maskedSlot(`The bridge was old${".".repeat(i + 1)} The engineer repaired the bridge.`)!;
      expect(["engineer", "repaired"]).toContain(slot.word);
    }
    const pair = instanceSlot({
      text: "The engineer repaired the bridge.",
      secondText: "A bridge was repaired.",
    });
    // "repaired" and "bridge" recur across the two sentences: "engineer" is the one word that does not.
    expect(pair).toMatchObject({ word: "engineer" });
    expect(pair!.masked).toBe(`The ${MASK} repaired the bridge.\nA bridge was repaired.`);
  });

  it("reads the word an answer gives, and matches it exactly, case aside", () => {
    expect(guessOf("Answer: Paris.")).toBe("paris");
    expect(guessOf(' "Engineer" ')).toBe("engineer");
    expect(guessOf("[MASK] = bridge")).toBe("bridge");
    expect(guessOf("")).toBe("");
    expect(guessMatches("ENGINEER", "engineer")).toBe(true);
    expect(guessMatches("engineers", "engineer")).toBe(false);
  });
});

// The null suite: models with no memory answer each masked prompt; the sample and its control are drawn alike.
type Answer = (masked: string, random: RandomStream) => string;
const POOL = (() => {
  const pool: { masked: string; word: string }[] = [];
  for (let seed = 0; pool.length < 400; seed++) {
    const slot = maskedSlot(sentenceOf(RandomStream.derive(seed, "pool")));
    if (slot) pool.push(slot);
  }
  return pool;
})();

const INFOS = new Map<string, SampleInfo>([
  ["s", { sampleId: "s", sampleName: null, sampleSeed: "1", dataset: "rte", controlOf: null }],
  ["c", { sampleId: "c", sampleName: null, sampleSeed: "1", dataset: "rte-control", controlOf: "rte" }],
]);

function experiment(seed: number, answer: Answer, { instances = 30, members = 0 } = {}) {
  const items: GuessItem[] = [];
  const runs: GuessingRunState[] = [];
  for (const sampleId of ["s", "c"]) {
    const random = RandomStream.derive(seed, sampleId);
    runs.push({ runId: sampleId, sampleId, provider: "p", model: "m", instances });
    for (let i = 0; i < instances; i++) {
      const slot = POOL[random.integer(0, POOL.length - 1)];
      const output = sampleId === "s" && i < members ? slot.word : answer(slot.masked, random);
      items.push({
        runId: sampleId,
        sampleId,
        provider: "p",
        model: "m",
        item: `${sampleId}${i}`,
        guess: guessOf(output),
        matched: guessMatches(output, slot.word),
      });
    }
  }
  return guessingEvidence(items, { provider: "p", model: "m" }, runs, INFOS).get("s")!;
}

const ALL_WORDS = [...ADJECTIVES, ...NOUNS, ...VERBS, ...PLACES];
const NULL_MODELS: Record<string, Answer> = {
  constant: () => "river",
  "copy the input": (masked) => words(masked.slice(0, masked.indexOf(MASK))).at(-1) ?? "the",
  // Guesses a word of the task's vocabulary, knowing no instance: often right on so small a vocabulary.
  guesser: (_masked, random) => ALL_WORDS[random.integer(0, ALL_WORDS.length - 1)],
  // Knows the language: guesses the part of speech the slot needs from the word before it.
  "a grammar": (masked, random) => {
    const before = words(masked.slice(0, masked.indexOf(MASK)))
      .at(-1)
      ?.toLowerCase();
    const list =
      before === "the"
        ? ADJECTIVES
        : ADJECTIVES.includes(before ?? "")
          ? NOUNS
          : NOUNS.includes(before ?? "")
            ? VERBS
            : PLACES;
    return list[random.integer(0, list.length - 1)];
  },
};

describe("TS-Guessing under models with no memory (the null suite)", () => {
  it.each(Object.keys(NULL_MODELS))("%s: contaminated in at most alpha of 300 seeded experiments", (name) => {
    let flagged = 0;
    // MEMICL_NULL_RUNS counts over more seeds by hand (the figures in docs/METHOD.md).
    const runs = Number(process.env.MEMICL_NULL_RUNS ?? 300);
    for (let seed = 0; seed < runs; seed++)
      if (experiment(seed, NULL_MODELS[name]).verdict === ContaminationVerdict.CONTAMINATED) flagged++;
    if (process.env.MEMICL_NULL_COUNTS)
      console.log(`TS-Guessing null suite, ${name}: ${flagged} of ${runs} contaminated`);
    expect(flagged / runs).toBeLessThanOrEqual(SAMPLING_TEST_ALPHA + 3 * Math.sqrt((0.05 * 0.95) / runs));
  });
});

describe("TS-Guessing on a model that memorized the sample's dataset", () => {
  it.each([10, 20, 30])(
    "remembering %p of 30 instances' words: found, the rate inside its interval",
    (members) => {
      let found = 0;
      let covered = 0;
      for (let seed = 0; seed < 20; seed++) {
        const evidence = experiment(seed, NULL_MODELS.guesser, { members });
        if (evidence.verdict === ContaminationVerdict.CONTAMINATED) found++;
        // The guesser is right on about 1 in 30 of the others: the true rate is members/30 plus that share of the rest.
        const truth = members / 30 + ((30 - members) / 30) * (1 / ALL_WORDS.length);
        if (evidence.matchRateLow! <= truth && truth <= evidence.matchRateHigh!) covered++;
      }
      if (process.env.MEMICL_NULL_COUNTS)
        console.log(
          `TS-Guessing, ${members} of 30 remembered: found in ${found} of 20, covered in ${covered} of 20`,
        );
      expect(covered).toBeGreaterThanOrEqual(18);
      expect(found).toBeGreaterThanOrEqual(19);
    },
  );

  it("cannot tell with fewer than ten instances a side, and decides nothing without a control", () => {
    expect(experiment(1, NULL_MODELS.guesser, { instances: 8, members: 8 }).verdict).toBe(
      ContaminationVerdict.CANNOT_TELL,
    );
    const { verdict, cannotTell } = guessingEvidence(
      [{ runId: "s", sampleId: "s", provider: "p", model: "m", item: "1", guess: "x", matched: true }],
      { provider: "p", model: "m" },
      [{ runId: "s", sampleId: "s", provider: "p", model: "m", instances: 3 }],
      new Map([["s", INFOS.get("s")!]]),
    ).get("s")!;
    expect(verdict).toBeNull();
    expect(cannotTell).toMatch(/1 instance\(s\) answered, 2 not/);
  });
});
