import { DataSource } from "typeorm";
import { SimulationKnowledge } from "./simulated-provider";

/** The simulated model's memory: the sampled instances in the database (found through an md5 index). */
export function databaseKnowledge(dataSource: DataSource): SimulationKnowledge {
  return {
    async continuationOf(initialSegment) {
      // Two instances with one initial segment and different continuations are one prompt: the model cannot
      // tell which it is asked about, so it remembers neither (it never answers one with the other's text).
      const rows: { subsequent_segment: string }[] = await dataSource.query(
        "SELECT DISTINCT subsequent_segment FROM sampled_instance WHERE md5(initial_segment) = md5($1) AND initial_segment = $1 LIMIT 2",
        [initialSegment],
      );
      return rows.length === 1 ? rows[0].subsequent_segment : null;
    },
    async labelOf(text) {
      const rows: { label: string; labels: string[]; initialSegment: string }[] = await dataSource.query(
        `SELECT si.label, si.initial_segment AS "initialSegment",
                (SELECT array_agg(DISTINCT other.label ORDER BY other.label) FROM sampled_instance other WHERE other.sample_id = si.sample_id) AS labels
         FROM sampled_instance si JOIN instance i ON i.id = si.instance_id
         WHERE i.text = $1 LIMIT 1`,
        [text],
      );
      return rows[0] ?? null;
    },
  };
}
