// Named, parameterised SQL for judgments.

/** Every judgment of the completions, newest first. */
export const judgmentsByCompletions = `
  SELECT * FROM judgment WHERE completion_id = ANY($1::bigint[]) ORDER BY completion_id, created_at DESC, id DESC`;

/** The effective judgment of each completion: the latest human one, else the latest automatic one. */
export const effectiveJudgments = `
  SELECT DISTINCT ON (completion_id) *
  FROM judgment
  WHERE completion_id = ANY($1::bigint[])
  ORDER BY completion_id, (judge_kind = 'HUMAN') DESC, created_at DESC, id DESC`;

/** Succeeded memorization completions in scope, with their references (`$1` run ids). */
export const judgeableCompletions = `
  SELECT c.id, c.output, si.subsequent_segment
  FROM completion c
  JOIN run r ON r.id = c.run_id
  JOIN sampled_instance si ON si.id = c.sampled_instance_id
  WHERE c.run_id = ANY($1::uuid[]) AND r.kind = 'MEMORIZATION' AND c.status = 'SUCCEEDED'
  ORDER BY c.id`;

export const insertJudgments = `
  INSERT INTO judgment (completion_id, verdict, judge_kind, judge_name, judge_version, details)
  SELECT id, verdict::judgment_verdict_enum, $2::judgment_judge_kind_enum, $3, $4, details
  FROM unnest($1::bigint[], $5::text[], $6::jsonb[]) AS row(id, verdict, details)`;

/**
 * For each completion in scope: the latest verdict of judge A and of judge B (null when that judge has
 * none). A judge is a kind, optionally narrowed to a name.
 */
export const judgePairs = `
  SELECT c.id,
    (SELECT j.verdict::text FROM judgment j WHERE j.completion_id = c.id AND j.judge_kind = $2::judgment_judge_kind_enum
       AND ($3::text IS NULL OR j.judge_name = $3) ORDER BY j.created_at DESC, j.id DESC LIMIT 1) AS a,
    (SELECT j.verdict::text FROM judgment j WHERE j.completion_id = c.id AND j.judge_kind = $4::judgment_judge_kind_enum
       AND ($5::text IS NULL OR j.judge_name = $5) ORDER BY j.created_at DESC, j.id DESC LIMIT 1) AS b
  FROM completion c JOIN run r ON r.id = c.run_id
  WHERE c.run_id = ANY($1::uuid[]) AND r.kind = 'MEMORIZATION' AND c.status = 'SUCCEEDED'`;
