import { DataSource } from "typeorm";
import { isTrivialTarget, TRIVIAL_TARGET_WORDS, targetWords } from "../study/targets";
import * as sql from "./report.sql";

/** One sampled instance as the report reads it: what never changes once its sample is drawn. */
export interface SampledInstanceFacts {
  sampledInstanceId: string;
  /** The dataset instance (two samples may draw the same one). */
  instanceId: string;
  label: string;
  /** The reference's words, and whether it is trivial (src/study/targets.ts, by its sample's own minimum). */
  words: number;
  trivial: boolean;
}

/**
 * The sampled instances of samples, in their sample's order, read once per process: a sample's instances are never
 * changed after it is drawn (a sample is deleted whole, and its id never comes back), so every report of every
 * experiment on a sample reads them from here instead of the database. The least recently used samples beyond
 * `limit` are forgotten.
 */
export class SampleInstances {
  private readonly known = new Map<string, SampledInstanceFacts[]>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly limit = 64,
  ) {}

  async of(sampleIds: readonly string[]): Promise<Map<string, SampledInstanceFacts[]>> {
    const missing = [...new Set(sampleIds)].filter((id) => !this.known.has(id));
    if (missing.length > 0) {
      const rows: {
        sample_id: string;
        sampled_instance_id: string;
        instance_id: string;
        reference: string;
        label: string;
        min_target_words: number | null;
      }[] = await this.dataSource.query(sql.sampledInstancesOfSamples, [missing]);
      const read = new Map<string, SampledInstanceFacts[]>(missing.map((id) => [id, []]));
      for (const row of rows)
        read.get(row.sample_id)!.push({
          sampledInstanceId: row.sampled_instance_id,
          instanceId: row.instance_id,
          label: row.label,
          words: targetWords(row.reference).length,
          trivial: isTrivialTarget(row.reference, row.min_target_words ?? TRIVIAL_TARGET_WORDS),
        });
      // A sample without instances is not one yet (or not any more): nothing is kept for it.
      for (const [id, facts] of read) if (facts.length > 0) this.known.set(id, facts);
      return this.pick(sampleIds, read);
    }
    return this.pick(sampleIds, new Map());
  }

  private pick(
    sampleIds: readonly string[],
    read: ReadonlyMap<string, SampledInstanceFacts[]>,
  ): Map<string, SampledInstanceFacts[]> {
    const picked = new Map<string, SampledInstanceFacts[]>();
    for (const id of sampleIds) {
      const facts = this.known.get(id) ?? read.get(id) ?? [];
      // Most recently used last: Map keeps insertion order.
      if (this.known.delete(id)) this.known.set(id, facts);
      picked.set(id, facts);
    }
    while (this.known.size > this.limit) this.known.delete(this.known.keys().next().value!);
    return picked;
  }
}
