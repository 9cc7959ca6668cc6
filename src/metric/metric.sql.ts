// Named, parameterised SQL of the study's results. Verdicts are effective verdicts (the latest human
// judgment of a completion, else its latest automatic one), which a trigger on `judgment` writes to
// `completion.effective_verdict` and counts per run in `run_verdict_count` as each judgment arrives: a review
// or a rejudge shows in every figure at once, and reads never scan judgments. `$1` is the experiment id.

/**
 * Verdict counts per dataset x setting x k of the experiment's memorization runs, from the per-run counts the
 * judgment trigger keeps (`run_verdict_count`): a few rows per run, whatever the number of completions.
 * Stored completions without a readable verdict are `unjudged`.
 */
export const memorizationCounts = `
  SELECT dataset, setting, shots, sum(stored)::int AS n, sum(exact)::int AS exact, sum(near_exact)::int AS near_exact,
         sum(inexact)::int AS inexact, sum(stored - exact - near_exact - inexact)::int AS unjudged
  FROM (
    SELECT d.name AS dataset, r.setting::text AS setting, r.shots, r.done_count AS stored,
           coalesce(sum(v.count) FILTER (WHERE v.verdict = 'EXACT'), 0) AS exact,
           coalesce(sum(v.count) FILTER (WHERE v.verdict = 'NEAR_EXACT'), 0) AS near_exact,
           coalesce(sum(v.count) FILTER (WHERE v.verdict = 'INEXACT'), 0) AS inexact
    FROM run r
    JOIN sample s ON s.id = r.sample_id
    JOIN dataset d ON d.id = s.dataset_id
    LEFT JOIN run_verdict_count v ON v.run_id = r.id
    WHERE r.experiment_id = $1 AND r.kind = 'MEMORIZATION'
    GROUP BY d.name, r.setting, r.shots, r.id
  ) AS per_run
  GROUP BY dataset, setting, shots`;

/** Accuracy of each repeat of the experiment's performance runs, per dataset x k. */
export const performanceByRepeat = `
  SELECT d.name AS dataset, r.shots, c.repeat,
         count(*)::int AS n,
         count(*) FILTER (WHERE c.correct)::int AS correct,
         count(*) FILTER (WHERE c.parsed_label IS NULL)::int AS unparseable
  FROM run r
  JOIN sample s ON s.id = r.sample_id
  JOIN dataset d ON d.id = s.dataset_id
  JOIN completion c ON c.run_id = r.id AND c.status = 'SUCCEEDED'
  WHERE r.experiment_id = $1 AND r.kind = 'PERFORMANCE'
  GROUP BY d.name, r.shots, c.repeat`;

/**
 * Performance on memorized vs non-memorized instances: for each memorization run (dataset, setting, k), the
 * performance completions of the same sample and k (aggregated per instance first), split by the instance's
 * effective verdict in that run.
 */
export const performanceByMemorization = `
  WITH performance AS (
    SELECT pr.sample_id, pr.shots, pc.sampled_instance_id, count(*) AS n, count(*) FILTER (WHERE pc.correct) AS correct
    FROM run pr JOIN completion pc ON pc.run_id = pr.id AND pc.status = 'SUCCEEDED'
    WHERE pr.experiment_id = $1 AND pr.kind = 'PERFORMANCE'
    GROUP BY pr.sample_id, pr.shots, pc.sampled_instance_id
  )
  SELECT d.name AS dataset, r.setting::text AS setting, r.shots,
         (c.effective_verdict IN ('EXACT', 'NEAR_EXACT')) AS memorized,
         count(DISTINCT c.sampled_instance_id)::int AS instances,
         sum(p.n)::int AS n,
         sum(p.correct)::int AS correct
  FROM run r
  JOIN completion c ON c.run_id = r.id AND c.status = 'SUCCEEDED' AND c.effective_verdict IN ('EXACT', 'NEAR_EXACT', 'INEXACT')
  JOIN performance p ON p.sample_id = r.sample_id AND p.shots = r.shots AND p.sampled_instance_id = c.sampled_instance_id
  JOIN sample s ON s.id = r.sample_id
  JOIN dataset d ON d.id = s.dataset_id
  WHERE r.experiment_id = $1 AND r.kind = 'MEMORIZATION'
  GROUP BY d.name, r.setting, r.shots, (c.effective_verdict IN ('EXACT', 'NEAR_EXACT'))`;

/**
 * Instances whose effective verdict is NEAR_EXACT at some k and EXACT at a larger k, in the same setting.
 * Where a dataset x setting x k has several runs, its latest run speaks for it. At most 1,000 rows.
 */
export const nearExactToExact = `
  WITH verdicts AS (
    SELECT DISTINCT ON (d.name, r.setting, r.shots, c.sampled_instance_id)
           d.name AS dataset, r.setting::text AS setting, r.shots, c.sampled_instance_id, c.effective_verdict AS verdict, c.output
    FROM run r
    JOIN sample s ON s.id = r.sample_id
    JOIN dataset d ON d.id = s.dataset_id
    JOIN completion c ON c.run_id = r.id AND c.status = 'SUCCEEDED'
    WHERE r.experiment_id = $1 AND r.kind = 'MEMORIZATION' AND c.effective_verdict IN ('NEAR_EXACT', 'EXACT')
    ORDER BY d.name, r.setting, r.shots, c.sampled_instance_id, r.created_at DESC, r.id DESC, c.repeat
  )
  SELECT a.dataset, a.setting, a.shots AS from_shots, b.shots AS to_shots, a.sampled_instance_id::text AS sampled_instance_id,
         si.initial_segment, si.subsequent_segment, a.output AS near_exact_output, b.output AS exact_output
  FROM verdicts a
  JOIN verdicts b ON b.dataset = a.dataset AND b.setting = a.setting AND b.sampled_instance_id = a.sampled_instance_id
                 AND b.shots > a.shots AND b.verdict = 'EXACT'
  JOIN sampled_instance si ON si.id = a.sampled_instance_id
  WHERE a.verdict = 'NEAR_EXACT'
  ORDER BY a.dataset, a.setting, a.shots, b.shots, a.sampled_instance_id
  LIMIT 1000`;

/** One keyset page (`$2` = last completion id, `$3` = page size) of the experiment's completions, with every judgment. */
export const exportPage = `
  SELECT c.id::text AS completion_id, r.id AS run_id, r.kind::text AS kind, r.setting::text AS setting, r.shots,
         d.name AS dataset, si.id::text AS sampled_instance_id, si.instance_id::text AS instance_id, si.position,
         c.repeat, c.status::text AS status, si.label, si.initial_segment, si.subsequent_segment AS reference,
         c.output, c.parsed_label, c.correct, c.prompt_hash, c.prompt_tokens, c.completion_tokens, c.cached_tokens,
         c.latency_ms, c.attempts, c.error, c.reported_model, c.cache_hit, c.cost_usd::text AS cost_usd,
         c.effective_verdict,
         coalesce((SELECT json_agg(json_build_object('id', j.id::text, 'verdict', j.verdict, 'judgeKind', j.judge_kind,
                     'judgeName', j.judge_name, 'judgeVersion', j.judge_version, 'note', j.note, 'createdAt', j.created_at)
                     ORDER BY j.created_at, j.id)
                   FROM judgment j WHERE j.completion_id = c.id), '[]'::json) AS judgments
  FROM completion c
  JOIN run r ON r.id = c.run_id
  JOIN sample s ON s.id = r.sample_id
  JOIN dataset d ON d.id = s.dataset_id
  JOIN sampled_instance si ON si.id = c.sampled_instance_id
  WHERE r.experiment_id = $1 AND c.id > $2::bigint
  ORDER BY c.id
  LIMIT $3`;
