import fs from "node:fs";
import { parse } from "csv-parse/sync";
import {
  couldBeNearExact,
  defaultThresholds,
  HEURISTIC_JUDGE_VERSIONS,
  HeuristicThresholds,
  judgeHeuristically,
  wordCounts,
} from "../../../src/judge/heuristic-judge";
import {
  CONSTANT_ANSWERS,
  commonReferences,
  copyAnswers,
  FloorInstance,
  floorVerdict,
  floorVerdicts,
  mostCommonReference,
} from "../../../src/judge/no-memory";
import { HAS_SHARED_DATA, sharedFile } from "../../support/shared-data";

const REFERENCES = [
  "He was very ill.",
  "The big grey mouse was very fast indeed.",
  "Pope Benedict XVI is the new leader of the Roman Catholic Church.",
  "Weapons of Mass Destruction Found in Iraq.",
  "The trophy doesn't fit into the brown suitcase because the suitcase is too small.",
  "Hepburn's third husband was Mel Ferrer, whom she married in 1954 and divorced in 1968 after fourteen years.",
  "?",
  "New York City",
];

/** Answers around a reference: every run of its words, and it with one word dropped, changed or added. */
function answersAround(reference: string): string[] {
  const words = reference.split(" ");
  const answers: string[] = [];
  for (let start = 0; start < words.length; start++)
    for (let end = start + 1; end <= words.length; end++) answers.push(words.slice(start, end).join(" "));
  for (let index = 0; index < words.length; index++) {
    answers.push([...words.slice(0, index), ...words.slice(index + 1)].join(" "));
    answers.push([...words.slice(0, index), "Paris", ...words.slice(index + 1)].join(" "));
    answers.push([...words.slice(0, index), "not", ...words.slice(index)].join(" "));
  }
  return answers;
}

describe("the no-memory floor", () => {
  it("copies the input whole, by sentence, by clause and by clause tail", () => {
    const answers = copyAnswers(
      "Fred covered his eyes with his hands, because the wind was blowing sand around. He opened them when the wind stopped.",
    );
    expect(answers[0]).toBe(
      "Fred covered his eyes with his hands, because the wind was blowing sand around. He opened them when the wind stopped.",
    );
    expect(answers).toEqual(
      expect.arrayContaining([
        "Fred covered his eyes with his hands",
        "because the wind was blowing sand around.",
        "the wind was blowing sand around.",
        "He opened them when the wind stopped.",
        "He opened them",
        "the wind stopped.",
      ]),
    );
    expect(new Set(answers).size).toBe(answers.length);
    expect(copyAnswers("   ")).toEqual([]);
  });

  it("finds the most common reference only when two instances share it", () => {
    expect(mostCommonReference(["?", "cold ?", " ? ", "shadows ?"])).toBe("?");
    expect(mostCommonReference(["a", "b", "c"])).toBeNull();
  });

  it("credits a copied sentence of the input, a shared constant and a question mark, never an unrelated reference", () => {
    const copied = floorVerdict(
      {
        input: "Bob collapsed on the sidewalk. Soon he saw Carl coming to help. He was very ill.",
        reference: "He was very ill.",
      },
      null,
    );
    expect(copied).toEqual({ verdict: "EXACT", answer: { strategy: "copy", answer: "He was very ill." } });
    expect(floorVerdict({ input: "What is a fear of", reference: "?" }, null).answer).toEqual({
      strategy: "constant",
      answer: "?",
    });
    expect(floorVerdict({ input: "Who wrote", reference: "the book ?" }, "the book ?").verdict).toBe("EXACT");
    expect(
      floorVerdict(
        { input: "The drain is clogged with hair.", reference: "Paris is the capital of France." },
        "x y",
      ).verdict,
    ).toBe("INEXACT");
  });

  it("applies the sibling rule: a copy that is another row's continuation is not credited", () => {
    const instance = {
      input: "The big grey cat chased a mouse. The big grey cat was very fast indeed.",
      reference: "The big grey cat was very fast.",
    };
    expect(floorVerdict(instance, null).verdict).toBe("NEAR_EXACT");
    expect(
      floorVerdict({ ...instance, siblings: ["The big grey cat was very fast indeed."] }, null).verdict,
    ).toBe("INEXACT");
  });

  it("never gives an instance its own reference as the sample's constant (leave-one-out)", () => {
    const verdicts = floorVerdicts([
      { input: "q1", reference: "unique answer one" },
      { input: "q2", reference: "shared answer here" },
      { input: "q3", reference: "shared answer here" },
      { input: "q4", reference: "shared answer here" },
      { input: "q5", reference: "other pair reply" },
      { input: "q6", reference: "other pair reply" },
    ]);
    expect(verdicts.map((verdict) => verdict.verdict)).toEqual([
      "INEXACT",
      "EXACT", // two others still share it
      "EXACT",
      "EXACT",
      "INEXACT", // the one other is not "shared by two"; the top (three) is another text
      "INEXACT",
    ]);
    const pair = floorVerdicts([
      { input: "q1", reference: "only two share this" },
      { input: "q2", reference: "only two share this" },
    ]);
    expect(pair.map((verdict) => verdict.verdict)).toEqual(["INEXACT", "INEXACT"]);
  });

  it("skips only answers the judge would call inexact (the count bound against the judge itself)", () => {
    const thresholdSets: HeuristicThresholds[] = [
      defaultThresholds("heuristic-5"),
      defaultThresholds("heuristic-6"),
      {
        rougeL: 0.5,
        containedReferenceMinTokens: 5,
        charSimilarity: 0.7,
        contentPrecision: 0.5,
        contentRecall: 0.3,
      },
    ];
    let skipped = 0;
    let nearWithFewerWords = 0;
    for (const version of HEURISTIC_JUDGE_VERSIONS)
      for (const thresholds of thresholdSets)
        for (const reference of REFERENCES)
          for (const answer of answersAround(reference)) {
            const verdict = judgeHeuristically(reference, answer, thresholds, [], { version }).verdict;
            const counts = [wordCounts(reference), wordCounts(answer)] as const;
            if (verdict !== "INEXACT" && counts[1].tokens < counts[0].tokens) nearWithFewerWords++;
            if (couldBeNearExact(counts[0], counts[1], thresholds, version)) continue;
            skipped++;
            expect({ version, thresholds, reference, answer, verdict }).toMatchObject({ verdict: "INEXACT" });
          }
    // Neither side is empty: the bound skips answers, and shorter answers can still be near-exact.
    expect(skipped).toBeGreaterThan(500);
    expect(nearWithFewerWords).toBeGreaterThan(50);
  });

  const bruteForce = (instance: FloorInstance, common: string | null) => {
    const rank = { EXACT: 2, NEAR_EXACT: 1, INEXACT: 0, UNPARSEABLE: 0 } as const;
    let best: { verdict: keyof typeof rank; answer: string | null } = { verdict: "INEXACT", answer: null };
    for (const answer of [...copyAnswers(instance.input), ...(common ? [common] : []), ...CONSTANT_ANSWERS]) {
      const { verdict } = judgeHeuristically(instance.reference, answer, undefined, instance.siblings ?? [], {
        context: { firstPiece: instance.input, nli: instance.nli ?? false },
      });
      if (rank[verdict] > rank[best.verdict]) best = { verdict, answer };
    }
    return best;
  };

  (HAS_SHARED_DATA ? it : it.skip)(
    "gives the shared RTE and WNLI rows the verdicts of judging every answer",
    () => {
      const rows = (file: string, delimiter: string) =>
        (
          parse(fs.readFileSync(sharedFile("datasets", file), "utf8"), {
            delimiter,
            columns: true,
            quote: delimiter === "," ? '"' : null,
          }) as { sentence1: string; sentence2: string }[]
        )
          .slice(0, 120)
          .map((row) => ({ input: row.sentence1, reference: row.sentence2, nli: true }));
      const instances: FloorInstance[] = [
        ...rows("rte/train.tsv", "\t"),
        ...rows("wnli/validation.csv", ","),
      ];
      const common = commonReferences(instances);
      const matched = instances.filter((instance, index) => {
        const floor = floorVerdict(instance, common[index]);
        const expected = bruteForce(instance, common[index]);
        expect({ instance, verdict: floor.verdict, answer: floor.answer?.answer ?? null }).toEqual({
          instance,
          ...expected,
        });
        return floor.verdict !== "INEXACT";
      });
      expect(matched.length).toBeGreaterThan(0);
    },
  );
});
