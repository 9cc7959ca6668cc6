// Named, parameterised SQL for datasets; never built from input.

export const labelCounts = `
  SELECT dataset_id, label, count(*)::int AS count
  FROM instance
  WHERE dataset_id = ANY($1::uuid[])
  GROUP BY dataset_id, label`;

export const instanceCounts = `
  SELECT dataset_id, count(*)::int AS count
  FROM instance
  WHERE dataset_id = ANY($1::uuid[])
    AND ($2::varchar IS NULL OR label = $2)
    AND ($3::varchar IS NULL OR split = $3)
  GROUP BY dataset_id`;

/**
 * Counts without a label filter come from what each import recorded (instances are only ever added by an
 * import, which records its row count in the same transaction), so a dashboard listing datasets never
 * counts millions of rows.
 */
export const sourceRowCounts = `
  SELECT dataset_id, sum(row_count)::int AS count
  FROM dataset_source
  WHERE dataset_id = ANY($1::uuid[]) AND ($2::varchar IS NULL OR split = $2)
  GROUP BY dataset_id`;

export const instancePages = `
  SELECT page.*
  FROM unnest($1::uuid[]) AS parent(id)
  CROSS JOIN LATERAL (
    SELECT *
    FROM instance
    WHERE instance.dataset_id = parent.id
      AND ($2::varchar IS NULL OR instance.label = $2)
      AND ($3::varchar IS NULL OR instance.split = $3)
      AND instance.id > $4::bigint
    ORDER BY instance.id
    LIMIT $5
  ) AS page
  ORDER BY page.dataset_id, page.id`;
