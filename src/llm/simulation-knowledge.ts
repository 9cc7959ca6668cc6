import { DataSource } from "typeorm";
import { batchedLookup } from "../common/batched-lookup";
import { SimulationKnowledge } from "./simulated-provider";

type Known = { label: string; labels: string[]; initialSegment: string; seen: boolean };

/**
 * The simulated model's memory: the sampled instances in the database (found through an md5 index), but for
 * those of `unseenDatasets` (by name): data it was never trained on, as a control dataset is. The lookups of
 * the calls in flight together go to PostgreSQL as one statement each (`batchedLookup`; a grid made one round
 * trip per call before); nothing is kept in memory, so an instance sampled later is known at once.
 */
export function databaseKnowledge(
  dataSource: DataSource,
  unseenDatasets: readonly string[] = [],
): SimulationKnowledge {
  const continuationOf = batchedLookup<string, string | null>(async (segments) => {
    // Two instances with one initial segment and different continuations are one prompt: the model cannot
    // tell which it is asked about, so it remembers neither (it never answers one with the other's text).
    const rows: { index: number; variants: number; continuation: string }[] = await dataSource.query(
      `SELECT w.index::int AS index, count(DISTINCT si.subsequent_segment)::int AS variants,
                min(si.subsequent_segment) AS continuation
         FROM unnest($1::text[]) WITH ORDINALITY AS w(segment, index)
         JOIN sampled_instance si ON md5(si.initial_segment) = md5(w.segment) AND si.initial_segment = w.segment
         JOIN sample s ON s.id = si.sample_id JOIN dataset d ON d.id = s.dataset_id
         WHERE NOT (d.name = ANY($2::text[]))
         GROUP BY w.index`,
      [segments, unseenDatasets],
    );
    const found = new Map(rows.map((row) => [row.index, row.variants === 1 ? row.continuation : null]));
    return segments.map((_, index) => found.get(index + 1) ?? null);
  });
  const labelOf = batchedLookup<string, Known | null>(async (texts) => {
    // One instance per text: the first sampled (the lowest id) when a text was sampled more than once.
    const rows: (Known & { index: number })[] = await dataSource.query(
      `WITH hit AS (
           SELECT DISTINCT ON (w.index) w.index, si.label, si.initial_segment, si.sample_id, d.name
           FROM unnest($1::text[]) WITH ORDINALITY AS w(text, index)
           JOIN instance i ON i.text = w.text JOIN sampled_instance si ON si.instance_id = i.id
           JOIN dataset d ON d.id = i.dataset_id
           ORDER BY w.index, si.id
         ), sample_labels AS (
           SELECT sample_id, array_agg(DISTINCT label ORDER BY label) AS labels FROM sampled_instance
           WHERE sample_id IN (SELECT sample_id FROM hit) GROUP BY sample_id
         )
         SELECT hit.index::int AS index, hit.label, hit.initial_segment AS "initialSegment",
                NOT (hit.name = ANY($2::text[])) AS seen, sample_labels.labels
         FROM hit JOIN sample_labels USING (sample_id)`,
      [texts, unseenDatasets],
    );
    const found = new Map(rows.map(({ index, ...known }) => [index, known]));
    return texts.map((_, index) => found.get(index + 1) ?? null);
  });
  const maskedWordOf = batchedLookup<string, { word: string; seen: boolean } | null>(async (texts) => {
    // The instance whose text (an NLI pair on two lines) starts and ends as the masked text around [MASK]; a scan
    // of the sampled instances, which a simulation's databases keep small.
    const parts = texts.map((text) => {
      const at = text.indexOf("[MASK]");
      return { prefix: text.slice(0, at), suffix: text.slice(at + "[MASK]".length) };
    });
    const rows: { index: number; word: string; seen: boolean }[] = await dataSource.query(
      `SELECT DISTINCT ON (w.index) w.index::int AS index,
              substr(t.full_text, length(w.prefix) + 1, length(t.full_text) - length(w.prefix) - length(w.suffix)) AS word,
              NOT (t.name = ANY($3::text[])) AS seen
         FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS w(prefix, suffix, index)
         JOIN (SELECT CASE WHEN i.second_text IS NULL THEN i.text ELSE i.text || E'\n' || i.second_text END AS full_text,
                      d.name
                 FROM sampled_instance si JOIN instance i ON i.id = si.instance_id JOIN dataset d ON d.id = i.dataset_id
              ) AS t
           ON length(t.full_text) > length(w.prefix) + length(w.suffix)
          AND left(t.full_text, length(w.prefix)) = w.prefix
          AND right(t.full_text, length(w.suffix)) = w.suffix
        ORDER BY w.index`,
      [parts.map((part) => part.prefix), parts.map((part) => part.suffix), unseenDatasets],
    );
    const found = new Map(rows.map(({ index, ...known }) => [index, known]));
    return texts.map((_, index) => found.get(index + 1) ?? null);
  });
  return { continuationOf, labelOf, maskedWordOf };
}
