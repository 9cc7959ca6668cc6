import { copyAnswers, floorVerdict, floorVerdicts, mostCommonReference } from "../../src/judge/no-memory";

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
      reference: "The big grey mouse was very fast indeed.",
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
});
