// Named, parameterised SQL for samples.

/** One keyset page of candidate rows; texts are read to count tokens and then dropped. */
export const candidatePage = `
  SELECT instance.id, instance.label, instance.split, instance.line, instance.text,
         instance.second_text IS NOT NULL AS is_pair, source.fingerprint
  FROM instance
  JOIN dataset_source AS source ON source.id = instance.source_id
  WHERE instance.dataset_id = $1 AND instance.split = ANY($2::varchar[]) AND instance.id > $3::bigint
  ORDER BY instance.id
  LIMIT $4`;

export const textsByIds = `
  SELECT id, text, second_text FROM instance WHERE id = ANY($1::bigint[])`;

export const insertSampledInstances = `
  INSERT INTO sampled_instance (sample_id, instance_id, position, label, initial_segment, subsequent_segment, cut_token_index, token_count)
  SELECT $1, instance_id, position, label, initial_segment, subsequent_segment, cut_token_index, token_count
  FROM unnest($2::bigint[], $3::int[], $4::varchar[], $5::text[], $6::text[], $7::int[], $8::int[])
    AS row(instance_id, position, label, initial_segment, subsequent_segment, cut_token_index, token_count)`;

export const insertDemonstrations = `
  INSERT INTO demonstration (sample_id, instance_id, rank, label, initial_segment, subsequent_segment, cut_token_index, token_count)
  SELECT $1, instance_id, rank, label, initial_segment, subsequent_segment, cut_token_index, token_count
  FROM unnest($2::bigint[], $3::int[], $4::varchar[], $5::text[], $6::text[], $7::int[], $8::int[])
    AS row(instance_id, rank, label, initial_segment, subsequent_segment, cut_token_index, token_count)`;

export const datasetFingerprintParts = `
  SELECT fingerprint FROM dataset_source WHERE dataset_id = $1 ORDER BY fingerprint`;

export const sampledInstanceCounts = `
  SELECT sample_id, count(*)::int AS count FROM sampled_instance WHERE sample_id = ANY($1::uuid[]) GROUP BY sample_id`;

export const demonstrationCounts = `
  SELECT sample_id, count(*)::int AS count FROM demonstration WHERE sample_id = ANY($1::uuid[]) GROUP BY sample_id`;

export const sampledInstancePages = `
  SELECT page.*
  FROM unnest($1::uuid[]) AS parent(id)
  CROSS JOIN LATERAL (
    SELECT * FROM sampled_instance
    WHERE sampled_instance.sample_id = parent.id AND sampled_instance.position > $2
    ORDER BY sampled_instance.position
    LIMIT $3
  ) AS page
  ORDER BY page.sample_id, page.position`;

export const demonstrationsUpToRank = `
  SELECT * FROM demonstration WHERE sample_id = ANY($1::uuid[]) AND rank < $2 ORDER BY sample_id, rank`;

/**
 * Siblings of the NLI instances of samples `$1`: for each sampled instance, the second texts of the other
 * rows of its dataset with the same first text (compared without case or spacing). The judge uses them.
 */
export const siblingContinuations = `
  WITH mine AS MATERIALIZED (
    SELECT si.id AS item_id, i.id AS instance_id, i.dataset_id, lower(regexp_replace(i.text, '\\s+', ' ', 'g')) AS key
    FROM sampled_instance si
    JOIN instance i ON i.id = si.instance_id
    WHERE si.sample_id = ANY($1::uuid[]) AND i.second_text IS NOT NULL
  ), others AS MATERIALIZED (
    -- Each row of the datasets concerned is normalised once (then joined by hash, not compared pair by pair).
    SELECT o.id, o.dataset_id, o.second_text, lower(regexp_replace(o.text, '\\s+', ' ', 'g')) AS key
    FROM instance o
    WHERE o.dataset_id IN (SELECT DISTINCT dataset_id FROM mine) AND o.second_text IS NOT NULL
  )
  SELECT mine.item_id::text AS item_id, array_agg(DISTINCT others.second_text) AS siblings
  FROM mine
  JOIN others ON others.dataset_id = mine.dataset_id AND others.key = mine.key AND others.id <> mine.instance_id
  GROUP BY mine.item_id`;

/** The sibling continuations of samples' instances, by sampled-instance id (see `siblingContinuations`). */
export async function loadSiblingContinuations(
  query: (sql: string, parameters: unknown[]) => Promise<{ item_id: string; siblings: string[] }[]>,
  sampleIds: string[],
): Promise<Map<string, string[]>> {
  if (sampleIds.length === 0) return new Map();
  const rows = await query(siblingContinuations, [sampleIds]);
  return new Map(rows.map((row) => [row.item_id, row.siblings]));
}
