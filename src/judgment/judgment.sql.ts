// Named, parameterised SQL for judgments.

/** Every judgment of the completions, newest first. */
export const judgmentsByCompletions = `
  SELECT * FROM judgment WHERE completion_id = ANY($1::bigint[]) ORDER BY completion_id, created_at DESC, id DESC`;

/**
 * The effective judgment of each completion: the one the trigger `memicl_apply_judgment` chose as it arrived
 * (`completion.effective_judgment_id`; the rule lives only in the trigger, last replaced by
 * migrations/1764529200000-EffectiveJudgment.ts): with reviewers, the latest judgment of one of the reviewers
 * whose latest verdict is the majority's; when the reviewers tie, the latest readable automatic one (else the
 * latest human one); without reviewers, the latest readable automatic one, else (nothing readable yet) the latest.
 */
export const effectiveJudgments = `
  SELECT j.* FROM completion c JOIN judgment j ON j.id = c.effective_judgment_id
  WHERE c.id = ANY($1::bigint[])`;

/**
 * Succeeded memorization completions in scope (`$1` run ids), with their references, their stored extraction and
 * their run's template (to extract by when the stored extraction is missing or by an older rule). With `$2`, only
 * those whose effective judgment rests on a span the heuristic judge cannot class (`details.unsure`).
 */
export const judgeableCompletions = `
  SELECT c.id, c.output, c.extracted_answer, c.extraction_rule, si.subsequent_segment, si.initial_segment,
         si.id::text AS item_id, si.sample_id, pt.body AS template_body, (d.task_kind = 'NLI') AS nli
  FROM completion c
  JOIN run r ON r.id = c.run_id
  JOIN sampled_instance si ON si.id = c.sampled_instance_id
  JOIN sample s ON s.id = si.sample_id
  JOIN dataset d ON d.id = s.dataset_id
  LEFT JOIN prompt_template pt ON pt.key = r.template_key AND pt.version = r.template_version
  WHERE c.run_id = ANY($1::uuid[]) AND r.kind = 'MEMORIZATION' AND c.status = 'SUCCEEDED'
    AND (NOT $2::boolean OR EXISTS (
      SELECT 1 FROM judgment e WHERE e.id = c.effective_judgment_id AND (e.details->>'unsure')::boolean))
  ORDER BY c.id`;

export const insertJudgments = `
  INSERT INTO judgment (completion_id, verdict, judge_kind, judge_name, judge_version, details, extraction_rule)
  SELECT id, verdict::judgment_verdict_enum, $2::judgment_judge_kind_enum, $3, $4, details, rule
  FROM unnest($1::bigint[], $5::text[], $6::jsonb[], $7::varchar[]) AS row(id, verdict, details, rule)`;

/** Stores extractions made by the current rule on completions that had none or an older one. */
export const storeExtractions = `
  UPDATE completion SET extracted_answer = row.answer, extraction_rule = row.rule
  FROM unnest($1::bigint[], $2::text[], $3::varchar[]) AS row(id, answer, rule)
  WHERE completion.id = row.id`;

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

/**
 * Completions to review in scope (`$1` run ids) for a reason (`$2`): NEAR_EXACT (effective verdict; with a
 * reviewer, the automatic one), UNREADABLE (an automatic judge answered nothing readable, and no human has judged
 * it), UNREVIEWED (no human judgment yet), DISAGREEMENT (automatic judges' latest verdicts differ), ROUTED (any of
 * NEAR_EXACT by the automatic verdict, UNREADABLE or DISAGREEMENT, whoever reviewed it), SAMPLE (all), UNSURE (the
 * effective judgment rests on a span the heuristic judge cannot class; with a reviewer, the latest heuristic one). With a
 * reviewer (`$7`), the reviewer's own queue: what that reviewer has not judged, whatever others did, so that every
 * reviewer can review every routed item. SAMPLE and ROUTED come in a random order seeded by `$5` (the order says
 * nothing of why an item is there). Keyset-paged on (sort key, id) after (`$3`, `$4`).
 */
export const completionsToReview = `
  SELECT page.* FROM (
    SELECT c.*, CASE WHEN $2 IN ('SAMPLE', 'ROUTED') THEN md5(c.id::text || $5) ELSE '' END AS sort_key
    FROM completion c
    JOIN run r ON r.id = c.run_id
    WHERE c.run_id = ANY($1::uuid[]) AND r.kind = 'MEMORIZATION' AND c.status = 'SUCCEEDED'
      AND ($7::text IS NULL OR NOT EXISTS (
        SELECT 1 FROM judgment mine WHERE mine.completion_id = c.id AND mine.judge_kind = 'HUMAN' AND mine.judge_name = $7))
      AND CASE $2
        -- The latest readable automatic verdict, read only by the reasons that ask for it.
        WHEN 'ROUTED' THEN (SELECT j.verdict::text FROM judgment j
          WHERE j.completion_id = c.id AND j.judge_kind <> 'HUMAN' AND j.verdict <> 'UNPARSEABLE'
          ORDER BY j.created_at DESC, j.id DESC LIMIT 1) = 'NEAR_EXACT'
          OR EXISTS (
            SELECT 1 FROM judgment j WHERE j.completion_id = c.id AND j.judge_kind <> 'HUMAN' AND j.verdict = 'UNPARSEABLE')
          OR (SELECT count(DISTINCT latest.verdict) FROM (
                SELECT DISTINCT ON (j.judge_kind, j.judge_name) j.verdict FROM judgment j
                WHERE j.completion_id = c.id AND j.judge_kind <> 'HUMAN' AND j.verdict <> 'UNPARSEABLE'
                ORDER BY j.judge_kind, j.judge_name, j.created_at DESC, j.id DESC) AS latest) > 1
        WHEN 'NEAR_EXACT' THEN CASE WHEN $7::text IS NULL THEN c.effective_verdict = 'NEAR_EXACT'
          ELSE (SELECT j.verdict::text FROM judgment j
          WHERE j.completion_id = c.id AND j.judge_kind <> 'HUMAN' AND j.verdict <> 'UNPARSEABLE'
          ORDER BY j.created_at DESC, j.id DESC LIMIT 1) = 'NEAR_EXACT' END
        WHEN 'UNREADABLE' THEN EXISTS (
          SELECT 1 FROM judgment j WHERE j.completion_id = c.id AND j.judge_kind <> 'HUMAN' AND j.verdict = 'UNPARSEABLE')
          AND ($7::text IS NOT NULL OR NOT EXISTS (
            SELECT 1 FROM judgment h WHERE h.completion_id = c.id AND h.judge_kind = 'HUMAN'))
        WHEN 'UNSURE' THEN CASE WHEN $7::text IS NULL THEN EXISTS (
            SELECT 1 FROM judgment e WHERE e.id = c.effective_judgment_id AND (e.details->>'unsure')::boolean)
          ELSE (SELECT (j.details->>'unsure')::boolean FROM judgment j
            WHERE j.completion_id = c.id AND j.judge_kind = 'HEURISTIC'
            ORDER BY j.created_at DESC, j.id DESC LIMIT 1) IS TRUE END
        WHEN 'UNREVIEWED' THEN $7::text IS NOT NULL OR NOT EXISTS (
          SELECT 1 FROM judgment h WHERE h.completion_id = c.id AND h.judge_kind = 'HUMAN')
        WHEN 'NEAR_THRESHOLD' THEN ($7::text IS NOT NULL OR NOT EXISTS (
          SELECT 1 FROM judgment h WHERE h.completion_id = c.id AND h.judge_kind = 'HUMAN'))
          AND EXISTS (
            SELECT 1 FROM (
              SELECT j.details FROM judgment j WHERE j.completion_id = c.id AND j.judge_kind = 'HEURISTIC'
              ORDER BY j.created_at DESC, j.id DESC LIMIT 1) AS latest
            CROSS JOIN LATERAL (SELECT
              coalesce((latest.details #>> '{scores,spans,rougeL}')::float8, (latest.details #>> '{scores,rougeL}')::float8) AS rouge,
              coalesce((latest.details #>> '{scores,spans,contentPrecision}')::float8, (latest.details #>> '{scores,contentPrecision}')::float8) AS precision,
              coalesce((latest.details #>> '{scores,spans,contentRecall}')::float8, (latest.details #>> '{scores,contentRecall}')::float8) AS recall,
              (latest.details #>> '{thresholds,rougeL}')::float8 AS t_rouge,
              (latest.details #>> '{thresholds,contentPrecision}')::float8 AS t_precision,
              (latest.details #>> '{thresholds,contentRecall}')::float8 AS t_recall) AS s
            WHERE abs(s.rouge - s.t_rouge) < 0.05
              OR (abs(s.precision - s.t_precision) < 0.05 AND s.recall >= s.t_recall - 0.05)
              OR (abs(s.recall - s.t_recall) < 0.05 AND s.precision >= s.t_precision - 0.05))
        WHEN 'REVIEWER_TIE' THEN (
          SELECT count(*) > 1 AND count(*) FILTER (WHERE tally.n = (SELECT max(n) FROM (
              SELECT count(*) AS n FROM (
                SELECT DISTINCT ON (h.judge_name) h.verdict FROM judgment h
                WHERE h.completion_id = c.id AND h.judge_kind = 'HUMAN'
                ORDER BY h.judge_name, h.created_at DESC, h.id DESC) AS l2 GROUP BY l2.verdict) AS m)) > 1
          FROM (
            SELECT latest.verdict, count(*) AS n FROM (
              SELECT DISTINCT ON (h.judge_name) h.verdict FROM judgment h
              WHERE h.completion_id = c.id AND h.judge_kind = 'HUMAN'
              ORDER BY h.judge_name, h.created_at DESC, h.id DESC) AS latest
            GROUP BY latest.verdict) AS tally)
        WHEN 'DISAGREEMENT' THEN (
          SELECT count(DISTINCT latest.verdict) FROM (
            SELECT DISTINCT ON (j.judge_kind, j.judge_name) j.verdict FROM judgment j
            WHERE j.completion_id = c.id AND j.judge_kind <> 'HUMAN' AND j.verdict <> 'UNPARSEABLE'
            ORDER BY j.judge_kind, j.judge_name, j.created_at DESC, j.id DESC) AS latest) > 1
        ELSE true
      END
  ) AS page
  WHERE (page.sort_key, page.id) > ($3::text, $4::bigint)
  ORDER BY page.sort_key, page.id
  LIMIT $6`;

/** Each reviewer's latest verdict on the scope's memorization completions (`$1` run ids). */
export const reviewerRatings = `
  SELECT DISTINCT ON (j.completion_id, j.judge_name) j.completion_id::text AS item, j.judge_name AS reviewer,
         j.verdict::text AS verdict
  FROM judgment j
  JOIN completion c ON c.id = j.completion_id
  WHERE c.run_id = ANY($1::uuid[]) AND j.judge_kind = 'HUMAN'
  ORDER BY j.completion_id, j.judge_name, j.created_at DESC, j.id DESC`;

/** Marks the runs of these completions as changed (their figures moved): `run.lastUpdatedAt` (a trigger sets it). */
export const touchRunsOfCompletions = `
  UPDATE run SET updated_at = clock_timestamp()
  WHERE id IN (SELECT DISTINCT run_id FROM completion WHERE id = ANY($1::bigint[]))`;

/** Records completions a blind reviewer's queue served to its key ($1 key id, $2 completion ids). */
export const serveToKey = `
  INSERT INTO review_assignment (api_key_id, completion_id)
  SELECT $1, id FROM unnest($2::bigint[]) AS id
  ON CONFLICT DO NOTHING`;

/** Was completion $2 served to key $1? */
export const servedToKey = `
  SELECT 1 FROM review_assignment WHERE api_key_id = $1 AND completion_id = $2`;
