import { judgeHeuristically } from "../../../src/judge/heuristic-judge";
import { judgedSpansOf, SpanReading } from "../../../src/judgment/judged-span";

const stored = (reference: string, candidate: string, version?: "heuristic-7") => ({
  scores: judgeHeuristically(reference, candidate, undefined, [], { version }).scores,
});

describe("the spans a heuristic verdict rests on (Judgment.spans)", () => {
  it("names the changed fact, the form and what the judge cannot class", () => {
    expect(
      judgedSpansOf(
        stored(
          "The Wenatchee River is a river. Tributaries include the Chiwawa River.",
          "The Chiwawa River is a river. Tributaries include the Wenatchee River.",
        ),
      ),
    ).toEqual([
      { reading: SpanReading.FACT, kind: "order", reference: "Wenatchee", candidate: "Chiwawa" },
      { reading: SpanReading.FACT, kind: "order", reference: "Chiwawa", candidate: "Wenatchee" },
    ]);
    expect(
      judgedSpansOf(
        stored(
          "The police arrested two men on Monday.",
          "The police arrested two men in the town on Monday.",
        ),
      ),
    ).toEqual([{ reading: SpanReading.UNSURE, kind: null, reference: "", candidate: "in the town" }]);
    expect(judgedSpansOf(stored("It is a well known fact.", "It is a wellknown fact."))).toEqual([
      { reading: SpanReading.FORM, kind: null, reference: "well known", candidate: "wellknown" },
    ]);
    expect(judgedSpansOf(stored("He was there.", "He was not there."))).toEqual([
      { reading: SpanReading.FACT, kind: "negation", reference: "", candidate: "not" },
    ]);
    // Only case, accents, contractions and a lemma's other form differ: the alignment meets them, no span.
    expect(judgedSpansOf(stored("He didn't see Mérida.", "he did not see Merida."))).toEqual([]);
    expect(judgedSpansOf(stored("The company bought a firm.", "The company buys a firm."))).toEqual([]);
  });

  it("is null where the judge recorded none, and never throws on a stored row of another shape", () => {
    expect(judgedSpansOf(stored("The index rose.", "The index fell.", "heuristic-7"))).toBeNull();
    expect(judgedSpansOf({ raw: "an LLM's answer" })).toBeNull();
    expect(judgedSpansOf(null)).toBeNull();
    expect(judgedSpansOf({ scores: { spans: { classedSpans: [{ reading: "odd" }, 3, null] } } })).toEqual([]);
  });
});
