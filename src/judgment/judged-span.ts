import { Field, ObjectType, registerEnumType } from "type-graphql";

/** How the heuristic judge classed a span where an answer differs from its reference. */
export enum SpanReading {
  /** A changed fact: the span makes the answer inexact. */
  FACT = "FACT",
  /** The same fact in another form (a lemma's other form, a synonym, a typo, words that only moved). */
  FORM = "FORM",
  /** A span the judge cannot class (a rewording, a clause added or dropped): the overlap rules decided. */
  UNSURE = "UNSURE",
}
registerEnumType(SpanReading, {
  name: "SpanReading",
  description: "How the heuristic judge classed a span where an answer differs from its reference.",
});

@ObjectType({
  description:
    "A span where the answer differs from the reference, as the heuristic judge (heuristic-8 and later) classed it: the evidence its verdict rests on.",
})
export class JudgedSpan {
  @Field(() => SpanReading)
  reading: SpanReading;

  @Field(() => String, {
    nullable: true,
    description:
      "What a changed fact changes: number, date, entity, antonym, referent, content, order (words that traded places) or negation; null for form and unsure spans.",
  })
  kind: string | null;

  @Field({ description: "The reference's words of the span, in the judge's reading (empty: an insertion)." })
  reference: string;

  @Field({ description: "The answer's words of the span, in the judge's reading (empty: a deletion)." })
  candidate: string;
}

/**
 * The spans a stored heuristic judgment records (`details.scores.spans.classedSpans`), or null where its version
 * recorded none (heuristic-7 and earlier, LLM and human judgments). Reads the stored JSON defensively: a row
 * written by another version never throws here.
 */
export function judgedSpansOf(details: unknown): JudgedSpan[] | null {
  const spans = (details as { scores?: { spans?: { classedSpans?: unknown } } } | null)?.scores?.spans
    ?.classedSpans;
  if (!Array.isArray(spans)) return null;
  const readings: Record<string, SpanReading> = {
    fact: SpanReading.FACT,
    form: SpanReading.FORM,
    unsure: SpanReading.UNSURE,
  };
  return spans.flatMap((span) => {
    const reading = readings[(span as { reading?: string })?.reading ?? ""];
    if (!reading) return [];
    const { kind, reference, candidate } = span as Record<string, unknown>;
    return [
      {
        reading,
        kind: typeof kind === "string" ? kind : null,
        reference: typeof reference === "string" ? reference : "",
        candidate: typeof candidate === "string" ? candidate : "",
      },
    ];
  });
}
