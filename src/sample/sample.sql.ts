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

/**
 * The stored no-memory floors (`$2`: the floor rule) of samples `$1` computed at their dataset's current size.
 * A sample's rows are written by one statement, so a sample has all of them or none.
 */
export const storedFloors = `
  SELECT f.sample_id::text AS sample_id, f.sampled_instance_id::text AS sampled_instance_id, f.memorized, f.strategy,
         f.exact, f.demonstration_shots
  FROM no_memory_floor f
  JOIN sample s ON s.id = f.sample_id
  JOIN dataset d ON d.id = s.dataset_id
  WHERE f.sample_id = ANY($1::uuid[]) AND f.version = $2 AND f.dataset_instance_count = d.instance_count`;

/** What the floor of sample `$1`'s instances is computed from, with its dataset's size. */
export const floorInputsOfSample = `
  SELECT si.id::text AS sampled_instance_id, si.initial_segment AS input, si.subsequent_segment AS reference,
         (d.task_kind = 'NLI') AS nli, d.instance_count AS dataset_instance_count
  FROM sampled_instance si
  JOIN sample s ON s.id = si.sample_id
  JOIN dataset d ON d.id = s.dataset_id
  WHERE si.sample_id = $1
  ORDER BY si.position, si.id`;

/** Stores (or replaces) every floor of sample `$1` under rule `$2`, computed at dataset size `$3`. */
export const storeFloors = `
  INSERT INTO no_memory_floor (sample_id, version, sampled_instance_id, dataset_instance_count, memorized, strategy,
                               exact, demonstration_shots)
  SELECT $1::uuid, $2::varchar, f.id, $3::int, f.memorized, f.strategy, f.exact, f.demonstration_shots
  FROM unnest($4::bigint[], $5::boolean[], $6::varchar[], $7::boolean[], $8::int[])
       AS f(id, memorized, strategy, exact, demonstration_shots)
  ON CONFLICT (sample_id, version, sampled_instance_id) DO UPDATE
  SET dataset_instance_count = EXCLUDED.dataset_instance_count, memorized = EXCLUDED.memorized,
      strategy = EXCLUDED.strategy, exact = EXCLUDED.exact, demonstration_shots = EXCLUDED.demonstration_shots,
      computed_at = now()`;

/** The demonstrations of sample `$1` in rank order, with their continuations (the floor's shown answers). */
export const floorDemonstrationsOfSample = `
  SELECT rank, subsequent_segment AS continuation
  FROM demonstration
  WHERE sample_id = $1
  ORDER BY rank`;
