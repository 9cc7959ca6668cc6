import { DataSource } from "typeorm";
import { SimulationKnowledge } from "./simulated-provider";

/**
 * The simulated model's memory: the sampled instances in the database (found through an md5 index), but for
 * those of `unseenDatasets` (by name): data it was never trained on, as a control dataset is.
 */
export function databaseKnowledge(
  dataSource: DataSource,
  unseenDatasets: readonly string[] = [],
): SimulationKnowledge {
  return {
    async continuationOf(initialSegment) {
      // Two instances with one initial segment and different continuations are one prompt: the model cannot
      // tell which it is asked about, so it remembers neither (it never answers one with the other's text).
      const rows: { subsequent_segment: string }[] = await dataSource.query(
        `SELECT DISTINCT si.subsequent_segment FROM sampled_instance si
         JOIN sample s ON s.id = si.sample_id JOIN dataset d ON d.id = s.dataset_id
         WHERE md5(si.initial_segment) = md5($1) AND si.initial_segment = $1 AND NOT (d.name = ANY($2::text[]))
         LIMIT 2`,
        [initialSegment, unseenDatasets],
      );
      return rows.length === 1 ? rows[0].subsequent_segment : null;
    },
    async labelOf(text) {
      const rows: { label: string; labels: string[]; initialSegment: string; seen: boolean }[] =
        await dataSource.query(
          `SELECT si.label, si.initial_segment AS "initialSegment", NOT (d.name = ANY($2::text[])) AS seen,
                (SELECT array_agg(DISTINCT other.label ORDER BY other.label) FROM sampled_instance other WHERE other.sample_id = si.sample_id) AS labels
         FROM sampled_instance si JOIN instance i ON i.id = si.instance_id JOIN dataset d ON d.id = i.dataset_id
         WHERE i.text = $1 LIMIT 1`,
          [text, unseenDatasets],
        );
      return rows[0] ?? null;
    },
  };
}
