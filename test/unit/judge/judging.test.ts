import { agreement, cohensKappa } from "../../../src/judge/agreement";
import { judgeHeuristically } from "../../../src/judge/heuristic-judge";
import { judgePrompt, parseJudgeAnswer } from "../../../src/judge/llm-judge";
import {
  isExactMatch,
  judgedPart,
  negationCount,
  normalizeForJudging,
  similarityScores,
} from "../../../src/judge/similarity";

describe("Cohen's kappa", () => {
  it("matches a hand-computed example", () => {
    // 50 items: both yes 20, A yes B no 5, A no B yes 10, both no 15. po = 0.7, pe = 0.5*0.6 + 0.5*0.4 = 0.5, kappa = 0.4
    const pairs: [string, string][] = [
      ...Array(20).fill(["y", "y"]),
      ...Array(5).fill(["y", "n"]),
      ...Array(10).fill(["n", "y"]),
      ...Array(15).fill(["n", "n"]),
    ];
    expect(cohensKappa(pairs)).toBeCloseTo(0.4, 10);
  });

  it("is 1 for perfect agreement and 0 for agreement at chance", () => {
    expect(
      cohensKappa([
        ["a", "a"],
        ["b", "b"],
      ] as [string, string][]),
    ).toBe(1);
    expect(
      cohensKappa([
        ["a", "a"],
        ["a", "b"],
        ["b", "a"],
        ["b", "b"],
      ] as [string, string][]),
    ).toBeCloseTo(0, 10);
  });

  it("builds the 3x3 confusion matrix and the binary kappa, leaving unparseable answers out", () => {
    const result = agreement([
      ["EXACT", "EXACT"],
      ["NEAR_EXACT", "EXACT"],
      ["INEXACT", "INEXACT"],
      ["INEXACT", "NEAR_EXACT"],
      ["INEXACT", "UNPARSEABLE"],
      [null, "EXACT"],
    ]);
    expect(result).toMatchObject({
      n: 4,
      excluded: 2,
      agreed: 2,
      percentAgreement: 0.5,
      binaryAgreement: 0.75,
    });
    expect(result.confusion).toEqual([
      [1, 0, 0],
      [1, 0, 0],
      [0, 1, 1],
    ]);
    // binary pairs: (m,m) (m,m) (n,n) (n,m): po = 0.75, pe = 0.5*0.75 + 0.5*0.25 = 0.5, kappa = 0.5
    expect(result.kappaBinary).toBeCloseTo(0.5, 10);
  });
});

describe("the heuristic judge", () => {
  it("calls texts equal after normalization exact", () => {
    expect(judgeHeuristically("The Cat sat.", "the cat  sat").verdict).toBe("EXACT");
    expect(judgeHeuristically("Ｃafé", "café").verdict).toBe("EXACT");
  });

  it("calls a one-word change near-exact and an unrelated text inexact", () => {
    expect(
      judgeHeuristically(
        "to reveal the amount it paid for technology to unlock an iPhone",
        "to reveal how much it paid for technology to unlock an iPhone",
      ).verdict,
    ).toBe("NEAR_EXACT");
    expect(
      judgeHeuristically(
        "Prices rose sharply after the announcement.",
        "The museum is open every day except Monday.",
      ).verdict,
    ).toBe("INEXACT");
  });

  it("calls the whole reference with more added near-exact when the reference is long enough", () => {
    const reference =
      "icy surface of Jupiter's largest moon, Ganymede. These irregular masses may be rock formations, supported by its shell";
    expect(judgeHeuristically(reference, `${reference}. This supports the theory.`).verdict).toBe(
      "NEAR_EXACT",
    );
    expect(
      judgeHeuristically("The axe is too small.", "The axe is too small to cut down that tree.").verdict,
    ).toBe("INEXACT");
  });

  it("scores ROUGE-L, token F1 and character similarity", () => {
    const scores = similarityScores("a b c d", "a c d e");
    expect(scores.rougeL).toBeCloseTo(0.75, 10); // LCS a c d = 3; P = R = 3/4
    expect(scores.tokenF1).toBeCloseTo(0.75, 10);
    expect(scores.charSimilarity).toBeCloseTo(1 - 3 / 7, 10); // three substitutions in seven characters
    expect(scores.containsReference).toBe(false);
  });
});

describe("the LLM judge's prompt and answers", () => {
  it("shows four worked examples, then the pair", () => {
    const [system, user] = judgePrompt("ref", "cand");
    expect(system.role).toBe("system");
    expect(user.content.match(/Reference text: /g)).toHaveLength(5);
    expect(user.content.endsWith("Reference text: ref\nCandidate text: cand\nAnswer:")).toBe(true);
  });

  it.each([
    ["exact match", "EXACT"],
    ["Exact Match.", "EXACT"],
    ["near-exact match", "NEAR_EXACT"],
    ["Near exact match", "NEAR_EXACT"],
    ["Answer: near_exact", "NEAR_EXACT"],
    ["**Inexact match**", "INEXACT"],
    ["no match", "INEXACT"],
    ["inexact", "INEXACT"],
    ["It is an exact match", "UNPARSEABLE"],
    ["exact or near-exact", "UNPARSEABLE"],
    ["", "UNPARSEABLE"],
    ["not exact", "UNPARSEABLE"],
  ])("reads %p as %s", (answer, verdict) => {
    expect(parseJudgeAnswer(answer)).toBe(verdict);
  });
});

describe("the text the judge compares", () => {
  it.each([
    ["The cat, sat.", "the cat sat"],
    [" \u00abQuoted\u00bb \u2014 dash\u2026 \u00bfWhat?\u00a0 12,5%  $3 ", "quoted dash what 12 5 3"],
    ["a\t\n,;  b", "a b"],
    ["\uff21\uff22\uff23 \ufb01ne", "abc fine"],
    ["?!", ""],
  ])("%p is compared as %p", (text, normalized) => {
    expect(normalizeForJudging(text)).toBe(normalized);
  });
});

describe("exact matches of short and punctuation-only references", () => {
  it.each([
    ["?", "?", true],
    ["?", " ? ", true],
    ["merged ?", "merged ? ?", false],
    ["?", "? ?", false],
    ["The cat sat on the mat.", "the cat sat on the mat", true],
    ["the cat sat", "The cat sat.", true],
    ["What is it ?", "What is it?", true],
    ["Mexico", "mexico", true],
    ["Mexico", "Mexico City", false],
    ["", "", false],
  ])("%p against %p: exact %p", (reference, candidate, exact) => {
    expect(isExactMatch(reference, candidate)).toBe(exact);
    expect(judgeHeuristically(reference, candidate).verdict === "EXACT").toBe(exact);
  });

  it("judges punctuation added as tokens of its own near-exact, not exact", () => {
    expect(judgeHeuristically("merged ?", "merged ? ?").verdict).toBe("NEAR_EXACT");
  });
});

describe("paraphrases by content words (heuristic-5)", () => {
  it.each([
    // The same content in another order: ROUGE-L (in order) is low, the content words all match.
    [
      "The finance committee approved the new city budget on Monday after a long debate.",
      "On Monday, after a long debate, the new city budget was approved by the finance committee.",
      "NEAR_EXACT",
    ],
    // Inflections meet through the stemmer.
    [
      "The Normandy landings anniversary celebrations last a whole year in France.",
      "In France, the Normandy landing anniversary celebration lasted a whole year.",
      "NEAR_EXACT",
    ],
    // Other people in the same frame: half of the answer's content words are not the reference's.
    [
      "The senior doctor gave the young nurse a thick medical book about rare tropical diseases.",
      "The senior teacher gave the young student a thick history book about old European wars.",
      "INEXACT",
    ],
    // The start of the reference only: precise, but most of the reference is missing.
    [
      "Police said the driver was taken to the county hospital with serious injuries to both legs.",
      "Police said the driver was taken away",
      "INEXACT",
    ],
    // A short reference is left to ROUGE-L: one changed word, or a reordering, is another sentence there.
    ["Vera Beers works for Standard Printing.", "Vera Beers works for Olivet.", "INEXACT"],
    ["Larry could not help him now.", "He could not help Larry now.", "INEXACT"],
    // The reference with as much again added: the answer says things the reference does not.
    ["The axe is too small.", "The axe is too small to cut down that old tree.", "INEXACT"],
    // A negation is content, whatever the overlap (ROUGE-L 0.83 here).
    ["Arnold lived two centuries later.", "Arnold did not live two centuries later.", "INEXACT"],
  ])("%p against %p: %s", (reference, candidate, verdict) => {
    expect(judgeHeuristically(reference, candidate).verdict).toBe(verdict);
  });

  it("scores content-word precision and recall over stemmed words that are not stop words", () => {
    // Content words: reference {cat, chase, mice} / candidate {cat, chase, dog}; two are shared.
    const scores = similarityScores("The cats chased the mice.", "A cat was chasing the dog");
    expect(scores.contentPrecision).toBeCloseTo(2 / 3, 10);
    expect(scores.contentRecall).toBeCloseTo(2 / 3, 10);
    expect(similarityScores("the", "of the").contentPrecision).toBe(0);
  });
});

describe("references of one or two words (heuristic-4)", () => {
  it.each([
    ["New York", "New York", "EXACT"],
    ["New York ?", "new york", "EXACT"],
    ["New York", "New York City", "INEXACT"], // ROUGE-L 0.8: near-exact by overlap alone
    ["New York", "New Jersey", "INEXACT"],
    ["Moon", "the Moon", "INEXACT"],
    ["Moon", "Moon ? !", "NEAR_EXACT"], // the same word, punctuation added as tokens
    ["Mexico", "Mexico City", "INEXACT"],
    ["1984", "1985", "INEXACT"],
    ["Abraham Lincoln", "Lincoln Abraham", "INEXACT"],
    ["?", "? ?", "INEXACT"],
    ["the New York", "the New York Times", "NEAR_EXACT"], // three words: the overlap rule applies
  ])("%p against %p: %s", (reference, candidate, verdict) => {
    expect(judgeHeuristically(reference, candidate).verdict).toBe(verdict);
  });
});

describe("the sibling rule", () => {
  const own = "The cat was too cautious.";
  const sibling = "The mouse was too cautious.";

  // heuristic-7 reads the swapped noun itself; the sibling rule is shown on heuristic-6, which needed it.
  const six = { version: "heuristic-6" } as const;

  it("judges a sibling's continuation INEXACT, with the sibling named", () => {
    expect(judgeHeuristically(own, sibling, undefined, [], six).verdict).toBe("NEAR_EXACT");
    expect(judgeHeuristically(own, sibling).scores.spans?.changedSlots).toEqual([
      { kind: "content", reference: "cat", candidate: "mouse" },
    ]);
    expect(judgeHeuristically(own, sibling, undefined, [sibling], six)).toMatchObject({
      verdict: "INEXACT",
      siblingContinuation: sibling,
    });
  });

  it("leaves the instance's own continuation as it is", () => {
    expect(judgeHeuristically(own, own, undefined, [sibling]).verdict).toBe("EXACT");
    expect(judgeHeuristically(own, "The cat was too cautious", undefined, [sibling]).verdict).toBe("EXACT");
  });

  it("ignores siblings whose continuation is the instance's own, and unrelated answers", () => {
    expect(judgeHeuristically(own, sibling, undefined, [own], six).verdict).toBe("NEAR_EXACT");
    expect(judgeHeuristically(own, "Something else entirely.", undefined, [sibling]).verdict).toBe("INEXACT");
  });
});

describe("negations", () => {
  it("counts negation words and contracted n't", () => {
    const count = (text: string) => negationCount(normalizeForJudging(text).split(" "));
    expect(count("He did not go, and never will.")).toBe(2);
    expect(count("He didn't go.")).toBe(1);
    expect(count("Nothing was found; no one came.")).toBe(2);
    expect(count("The tent was put up at night.")).toBe(0);
  });
});

describe("answers far longer than any the study asks for", () => {
  it("scores only the start of an answer past ten times its reference (at least 2,000 characters)", () => {
    expect(judgedPart("short", "x".repeat(1_500))).toHaveLength(1_500);
    expect(judgedPart("short", "x".repeat(5_000))).toHaveLength(2_000);
    expect(judgedPart("r".repeat(500), "x".repeat(9_000))).toHaveLength(5_000);
  });

  it("judges a 5 MB answer of one word (an endpoint that ignores max_tokens) as inexact, and at once", () => {
    // Unbounded, the stemmer alone took 195 s on 200,000 characters of one word.
    const huge = "a".repeat(5_000_000);
    expect(judgeHeuristically("The cat sat on the mat.", huge).verdict).toBe("INEXACT");
    // The reference then one (absurdly long) word: judged as the reference then one short word is.
    expect(judgeHeuristically("The cat sat on the mat.", `The cat sat on the mat. ${huge}`).verdict).toBe(
      judgeHeuristically("The cat sat on the mat.", "The cat sat on the mat. aaaa").verdict,
    );
  });

  it("leaves every answer within the study's 100 output tokens as it was", () => {
    const reference = "The quick brown fox jumps over the lazy dog near the river bank.";
    const answer = `${reference} ${"and then it ran away again ".repeat(20)}`;
    expect(answer.length).toBeLessThan(2_000);
    expect(judgedPart(reference, answer)).toBe(answer);
  });
});
