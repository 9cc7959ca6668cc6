// Named, parameterised SQL of the study's results. Verdicts are effective verdicts (with reviewers, their
// majority of each one's latest verdict; when they tie or none reviewed, the latest readable automatic verdict:
// the rule lives in the trigger `memicl_apply_judgment`, migrations/1764529200000-EffectiveJudgment.ts), which writes
// to `completion.effective_verdict` (and which judgment gave it to `effective_judgment_id`) and counts per run in `run_verdict_count` as each judgment arrives: a review
// or a rejudge shows in every figure at once, and reads never scan judgments. `$1` is the experiment id.

/** The samples of the experiment's runs, with their dataset. */
export const samplesOfExperiment = `
  SELECT DISTINCT s.id::text AS sample_id, s.name AS sample_name, s.seed::text AS sample_seed, d.name AS dataset,
         t.name AS control_of, s.instance_split AS split
  FROM run r
  JOIN sample s ON s.id = r.sample_id
  JOIN dataset d ON d.id = s.dataset_id
  LEFT JOIN dataset t ON t.id = d.control_of_id
  WHERE r.experiment_id = $1`;

/**
 * Verdict counts per sample x setting x k of the experiment's memorization runs, from the per-instance counts the
 * judgment trigger keeps (`instance_verdict_count`: a row per instance of a cell, whatever the number of runs and
 * completions), beside the runs' stored completions. Stored completions without a readable verdict are
 * `unjudged`; `unsure_*` count the verdicts that rest on a span the heuristic judge cannot class (the bounds). `runs` and `max_repeats` tell whether an instance
 * can count more than once in a cell.
 */
export const memorizationCounts = `
  SELECT r.sample_id, r.setting, r.shots, r.runs, r.max_repeats, r.stored AS n,
         coalesce(v.exact, 0) AS exact, coalesce(v.near_exact, 0) AS near_exact, coalesce(v.inexact, 0) AS inexact,
         r.stored - coalesce(v.exact + v.near_exact + v.inexact, 0) AS unjudged,
         coalesce(v.unsure_near_exact, 0) AS unsure_near_exact, coalesce(v.unsure_inexact, 0) AS unsure_inexact
  FROM (
    SELECT sample_id::text AS sample_id, setting::text AS setting, shots, count(*)::int AS runs,
           max(repeats)::int AS max_repeats, sum(done_count)::int AS stored
    FROM run WHERE experiment_id = $1 AND kind = 'MEMORIZATION'
    GROUP BY sample_id, setting, shots
  ) AS r
  LEFT JOIN (
    SELECT sample_id::text AS sample_id, setting, shots, sum(exact)::int AS exact,
           sum(near_exact)::int AS near_exact, sum(inexact)::int AS inexact,
           sum(unsure_near_exact)::int AS unsure_near_exact, sum(unsure_inexact)::int AS unsure_inexact
    FROM instance_verdict_count WHERE experiment_id = $1
    GROUP BY sample_id, setting, shots
  ) AS v ON v.sample_id = r.sample_id AND v.setting = r.setting AND v.shots = r.shots`;

/** Per repeat of the experiment's performance runs, per sample x k: answered, correct, unparseable, failed. */
export const performanceByRepeat = `
  SELECT r.sample_id::text AS sample_id, r.shots, c.repeat,
         count(*) FILTER (WHERE c.status = 'SUCCEEDED')::int AS n,
         count(*) FILTER (WHERE c.status = 'SUCCEEDED' AND c.correct)::int AS correct,
         count(*) FILTER (WHERE c.status = 'SUCCEEDED' AND c.parsed_label IS NULL)::int AS unparseable,
         count(*) FILTER (WHERE c.status = 'FAILED')::int AS failed
  FROM run r
  JOIN completion c ON c.run_id = r.id
  WHERE r.experiment_id = $1 AND r.kind = 'PERFORMANCE'
  GROUP BY r.sample_id, r.shots, c.repeat
  ORDER BY r.sample_id, r.shots, c.repeat`;

/**
 * Per instance of each memorization cell (sample x setting x k): its judged completions and how many were exact
 * and near-exact (effective verdicts), from the counts the judgment trigger keeps (`instance_verdict_count`).
 * The unit of the paired tests, cluster intervals and contamination subset.
 */
export const memorizationByInstance = `
  SELECT sample_id::text AS sample_id, setting, shots, sampled_instance_id::text AS sampled_instance_id,
         exact + near_exact + inexact AS judged, exact, near_exact
  FROM instance_verdict_count
  WHERE experiment_id = $1 AND exact + near_exact + inexact > 0
  -- A fixed order: the seeded bootstrap resamples by position, so the same data must come in the same order
  -- (unordered, an update's moved row changed an interval between two reads of the same results).
  ORDER BY sample_id, setting, shots, sampled_instance_id`;

/** Per instance of each performance cell (sample x k): answered completions over all repeats, and correct ones. */
export const performanceByInstance = `
  SELECT r.sample_id::text AS sample_id, r.shots, c.sampled_instance_id::text AS sampled_instance_id,
         count(*)::int AS n, count(*) FILTER (WHERE c.correct)::int AS correct
  FROM run r
  JOIN completion c ON c.run_id = r.id AND c.status = 'SUCCEEDED'
  WHERE r.experiment_id = $1 AND r.kind = 'PERFORMANCE'
  GROUP BY r.sample_id, r.shots, c.sampled_instance_id
  ORDER BY r.sample_id, r.shots, c.sampled_instance_id`;

/**
 * The instances under test of some samples (`$1`), in their sample's order: each one's dataset instance, reference
 * (subsequent segment) and label, with its sample's minimum of words for a non-trivial reference.
 */
export const sampledInstancesOfSamples = `
  SELECT si.sample_id::text AS sample_id, si.id::text AS sampled_instance_id, si.instance_id::text AS instance_id,
         si.subsequent_segment AS reference, si.label, s.min_target_words
  FROM sampled_instance si JOIN sample s ON s.id = si.sample_id
  WHERE si.sample_id = ANY($1::uuid[])
  ORDER BY si.sample_id, si.position, si.id`;

/**
 * The answers and references of the guided (full-information) and general-instruction memorization completions,
 * for the sample x k cells that ran both (Time Travel's Algorithm 1 scores them).
 */
export const guidedGeneralAnswers = `
  SELECT r.sample_id::text AS sample_id, r.setting::text AS setting, r.shots,
         c.sampled_instance_id::text AS sampled_instance_id,
         c.rouge_l,
         -- The texts only where the score was not stored with the answer (answers stored before it was).
         CASE WHEN c.rouge_l IS NULL THEN coalesce(c.extracted_answer, c.output, '') END AS answer,
         CASE WHEN c.rouge_l IS NULL THEN si.subsequent_segment END AS reference
  FROM run r
  JOIN completion c ON c.run_id = r.id AND c.status = 'SUCCEEDED'
  JOIN sampled_instance si ON si.id = c.sampled_instance_id
  WHERE r.experiment_id = $1 AND r.kind = 'MEMORIZATION'
    AND r.setting IN ('FULL_INFORMATION', 'GENERAL_INSTRUCTION')
    AND EXISTS (SELECT 1 FROM run g WHERE g.experiment_id = r.experiment_id AND g.sample_id = r.sample_id
                AND g.shots = r.shots AND g.kind = 'MEMORIZATION' AND g.setting = 'GENERAL_INSTRUCTION')
    AND EXISTS (SELECT 1 FROM run f WHERE f.experiment_id = r.experiment_id AND f.sample_id = r.sample_id
                AND f.shots = r.shots AND f.kind = 'MEMORIZATION' AND f.setting = 'FULL_INFORMATION')
  ORDER BY r.sample_id, r.shots, c.sampled_instance_id, r.setting, c.id`;

/** What Algorithm 1's rows depend on: the experiment's guided and general memorization runs and their last updates. */
export const guidedGeneralState = `
  SELECT md5(count(*)::text || ':' || coalesce(
           sum(uuid_hash_extended(r.id, (extract(epoch FROM r.updated_at) * 1000000)::bigint))::text, '')) AS state
  FROM run r
  WHERE r.experiment_id = $1 AND r.kind = 'MEMORIZATION' AND r.setting IN ('FULL_INFORMATION', 'GENERAL_INSTRUCTION')`;

/**
 * Each reviewer's latest verdict on the experiment's (`$1`) memorization completions, with the completion's latest
 * automatic verdict (a readable one first).
 */
export const reviewRatings = `
  SELECT h.completion_id::text AS item, h.judge_name AS reviewer, h.verdict::text AS verdict,
         (SELECT a.verdict::text FROM judgment a
          WHERE a.completion_id = h.completion_id AND a.judge_kind <> 'HUMAN'
          ORDER BY (a.verdict <> 'UNPARSEABLE') DESC, a.created_at DESC, a.id DESC LIMIT 1) AS automatic
  FROM (
    SELECT DISTINCT ON (j.completion_id, j.judge_name) j.completion_id, j.judge_name, j.verdict
    FROM judgment j
    JOIN completion c ON c.id = j.completion_id
    JOIN run r ON r.id = c.run_id
    WHERE r.experiment_id = $1 AND r.kind = 'MEMORIZATION' AND j.judge_kind = 'HUMAN'
    ORDER BY j.completion_id, j.judge_name, j.created_at DESC, j.id DESC
  ) AS h
  ORDER BY h.completion_id, h.judge_name`;

/**
 * Instances near-exact at some k and exact at a larger k in the same setting (every such pair of k), at most 1,000
 * rows: each instance's verdict in a cell is the majority of its judged completions (`instanceVerdict`), read from
 * the counts the judgment trigger keeps (`instance_verdict_count`: a row per instance and cell, whatever the number
 * of completions), so a read after a write costs what the counts do, not a pass over the completions. Each row
 * shows one near-exact and one exact answer, the newest run's that has one, found by the (run, instance) index.
 */
export const nearExactToExact = `
  WITH verdicts AS (
    SELECT v.sample_id, v.setting, v.shots, v.sampled_instance_id,
           CASE WHEN 2 * v.exact >= v.exact + v.near_exact + v.inexact THEN 'EXACT'
                WHEN 2 * (v.exact + v.near_exact) >= v.exact + v.near_exact + v.inexact THEN 'NEAR_EXACT' END AS verdict
    FROM instance_verdict_count v
    WHERE v.experiment_id = $1 AND v.exact + v.near_exact > 0
  ), per_instance AS (
    -- One row per instance and setting with its near-exact and exact k values (no self-join: that is quadratic).
    SELECT sample_id, setting, sampled_instance_id,
           array_agg(shots ORDER BY shots) FILTER (WHERE verdict = 'NEAR_EXACT') AS near_shots,
           array_agg(shots ORDER BY shots) FILTER (WHERE verdict = 'EXACT') AS exact_shots
    FROM verdicts
    GROUP BY sample_id, setting, sampled_instance_id
    HAVING min(shots) FILTER (WHERE verdict = 'NEAR_EXACT') < max(shots) FILTER (WHERE verdict = 'EXACT')
  ), cell_runs AS (
    SELECT r.sample_id, r.setting::text AS setting, r.shots, array_agg(r.id ORDER BY r.created_at DESC, r.id DESC) AS runs
    FROM run r WHERE r.experiment_id = $1 AND r.kind = 'MEMORIZATION'
    GROUP BY r.sample_id, r.setting, r.shots
  ), chosen AS (
    SELECT d.name AS dataset, p.sample_id, p.setting, near.shots AS from_shots, exact.shots AS to_shots,
           p.sampled_instance_id
    FROM per_instance p
    CROSS JOIN LATERAL unnest(p.near_shots) AS near(shots)
    CROSS JOIN LATERAL unnest(p.exact_shots) AS exact(shots)
    JOIN sample s ON s.id = p.sample_id
    JOIN dataset d ON d.id = s.dataset_id
    WHERE exact.shots > near.shots
    ORDER BY d.name, p.setting, near.shots, exact.shots, p.sampled_instance_id
    LIMIT 1000
  )
  SELECT x.dataset, x.setting, x.from_shots, x.to_shots, x.sampled_instance_id::text AS sampled_instance_id,
         si.initial_segment, si.subsequent_segment,
         -- The cell's runs newest first; the scan stops at the first run whose answer has the verdict (LIMIT 1
         -- without a sort: a sort would probe every run of the cell).
         (SELECT c.output FROM unnest(near_runs.runs) AS u(run_id)
          JOIN completion c ON c.run_id = u.run_id AND c.sampled_instance_id = x.sampled_instance_id
          WHERE c.status = 'SUCCEEDED' AND c.effective_verdict = 'NEAR_EXACT' LIMIT 1) AS near_exact_output,
         (SELECT c.output FROM unnest(exact_runs.runs) AS u(run_id)
          JOIN completion c ON c.run_id = u.run_id AND c.sampled_instance_id = x.sampled_instance_id
          WHERE c.status = 'SUCCEEDED' AND c.effective_verdict = 'EXACT' LIMIT 1) AS exact_output
  FROM chosen x
  JOIN sampled_instance si ON si.id = x.sampled_instance_id
  JOIN cell_runs near_runs
    ON near_runs.sample_id = x.sample_id AND near_runs.setting = x.setting AND near_runs.shots = x.from_shots
  JOIN cell_runs exact_runs
    ON exact_runs.sample_id = x.sample_id AND exact_runs.setting = x.setting AND exact_runs.shots = x.to_shots
  ORDER BY x.dataset, x.setting, x.from_shots, x.to_shots, x.sampled_instance_id`;

/** One keyset page (`$2` = last completion id, `$3` = page size) of the experiment's completions, with every judgment. */
export const exportPage = `
  SELECT c.id::text AS completion_id, r.id AS run_id, e.id AS experiment_id, e.name AS experiment_name,
         s.id AS sample_id, s.seed::text AS sample_seed, r.provider, r.model AS requested_model,
         r.template_key, r.template_version, r.temperature, r.max_output_tokens,
         r.kind::text AS kind, r.setting::text AS setting, r.shots,
         d.name AS dataset, si.id::text AS sampled_instance_id, si.instance_id::text AS instance_id, si.position,
         c.repeat, c.status::text AS status, si.label, si.initial_segment, si.subsequent_segment AS reference,
         c.output, c.extracted_answer, c.extraction_rule, c.parsed_label, c.correct, c.prompt_hash, c.prompt_tokens, c.completion_tokens, c.cached_tokens,
         c.latency_ms, c.attempts, c.error, c.reported_model, c.cache_hit, c.cost_usd::text AS cost_usd,
         c.effective_verdict,
         effective.judge_kind::text AS effective_judge_kind, effective.judge_name AS effective_judge_name,
         (SELECT j.verdict::text FROM judgment j WHERE j.completion_id = c.id AND j.judge_kind = 'HEURISTIC'
          ORDER BY j.created_at DESC, j.id DESC LIMIT 1) AS heuristic_verdict,
         (SELECT j.verdict::text FROM judgment j WHERE j.completion_id = c.id AND j.judge_kind = 'LLM'
          ORDER BY j.created_at DESC, j.id DESC LIMIT 1) AS llm_verdict,
         (SELECT j.verdict::text FROM judgment j WHERE j.completion_id = c.id AND j.judge_kind = 'HUMAN'
          ORDER BY j.created_at DESC, j.id DESC LIMIT 1) AS human_verdict,
         coalesce((SELECT json_agg(json_build_object('id', j.id::text, 'verdict', j.verdict, 'judgeKind', j.judge_kind,
                     'judgeName', j.judge_name, 'judgeVersion', j.judge_version, 'extractionRule', j.extraction_rule,
                     'note', j.note, 'createdAt', j.created_at)
                     ORDER BY j.created_at, j.id)
                   FROM judgment j WHERE j.completion_id = c.id), '[]'::json) AS judgments
  FROM completion c
  JOIN run r ON r.id = c.run_id
  JOIN experiment e ON e.id = r.experiment_id
  JOIN sample s ON s.id = r.sample_id
  JOIN dataset d ON d.id = s.dataset_id
  JOIN sampled_instance si ON si.id = c.sampled_instance_id
  -- Who gave the effective verdict: the judgment the trigger chose.
  LEFT JOIN judgment effective ON effective.id = c.effective_judgment_id
  WHERE r.experiment_id = $1 AND c.id > $2::bigint
  ORDER BY c.id
  LIMIT $3`;

/**
 * The state of an experiment's results (`experiment` is the SQL expression of its id) as one fingerprint, and
 * whether a run is queued or running. The fingerprint covers every run's lastUpdatedAt (a completion, a judgment,
 * a review, a rejudge, a status change each touch their run), as a count and a sum of 64-bit hashes of (id,
 * lastUpdatedAt), so one pass over the runs without sorting them; and the lastUpdatedAt of the datasets its samples
 * come from and of those they are controls of (a renamed label, a control mark). Reads keyed by it are invalidated
 * by those writes and by nothing else.
 */
export const resultsState = (experiment: string) => `
  SELECT md5(runs.n::text || ':' || coalesce(runs.h::text, '') || '|' || coalesce(sets.h, '')) AS fingerprint,
         coalesce(runs.active, false) AS active
  FROM (
    SELECT count(*) AS n,
           sum(uuid_hash_extended(r.id, (extract(epoch FROM r.updated_at) * 1000000)::bigint)) AS h,
           bool_or(r.status IN ('QUEUED', 'RUNNING')) AS active,
           array_agg(DISTINCT r.sample_id) AS samples
    FROM run r WHERE r.experiment_id = ${experiment}
  ) AS runs
  CROSS JOIN LATERAL (
    SELECT string_agg(d.id::text || '@' || d.updated_at::text, ',' ORDER BY d.id) AS h
    FROM dataset d
    WHERE d.id IN (SELECT s.dataset_id FROM sample s WHERE s.id = ANY(runs.samples))
       OR d.id IN (SELECT d2.control_of_id FROM sample s JOIN dataset d2 ON d2.id = s.dataset_id
                   WHERE s.id = ANY(runs.samples))
  ) AS sets`;

/** The results' state now: `found` is false for an unknown experiment. */
export const resultsVersion = `
  SELECT e.id IS NOT NULL AS found, clock_timestamp() AS read_at, st.active, st.fingerprint
  FROM (SELECT 1) AS one LEFT JOIN experiment e ON e.id = $1
  CROSS JOIN LATERAL (${resultsState("$1")}) AS st`;

/** Each quiz run's answers by letter (`parsed_label` holds the letter; null on an answered call: UNREADABLE). */
export const quizAnswers = `
  SELECT r.sample_id::text AS sample_id, r.option_set_id::text AS option_set_id, r.quiz_position,
         r.status NOT IN ('QUEUED', 'RUNNING', 'PAUSED_BUDGET') AS run_ended,
         count(*) FILTER (WHERE c.status = 'SUCCEEDED' AND c.parsed_label = 'A')::int AS a,
         count(*) FILTER (WHERE c.status = 'SUCCEEDED' AND c.parsed_label = 'B')::int AS b,
         count(*) FILTER (WHERE c.status = 'SUCCEEDED' AND c.parsed_label = 'C')::int AS c,
         count(*) FILTER (WHERE c.status = 'SUCCEEDED' AND c.parsed_label = 'D')::int AS d,
         count(*) FILTER (WHERE c.status = 'SUCCEEDED' AND c.parsed_label = 'E')::int AS e,
         count(*) FILTER (WHERE c.status = 'SUCCEEDED' AND c.parsed_label IS NULL)::int AS unreadable,
         count(*) FILTER (WHERE c.status = 'FAILED')::int AS failed,
         count(*) FILTER (WHERE c.status IN ('PENDING', 'RUNNING'))::int AS waiting
  FROM run r LEFT JOIN completion c ON c.run_id = r.id
  WHERE r.experiment_id = $1 AND r.kind = 'QUIZ'
  GROUP BY r.id`;

/**
 * The LOGPROB method's scored texts of an experiment (`$1`): every succeeded LOGPROB completion of its runs (not
 * CoDeC's, which record their method) with its run's
 * model and the instance's text as its run's template wrote it (an NLI pair on two lines); and the experiment's
 * examined model and parameters (the reference model, the membership labels).
 */
export const logprobItems = `
  SELECT r.id::text AS run_id, r.sample_id::text AS sample_id, r.provider, r.model, si.id::text AS item,
         CASE WHEN i.second_text IS NULL THEN i.text ELSE i.text || E'\n' || i.second_text END AS text,
         -- The payload's own column; answers stored before it hold it in output.
         coalesce(c.token_logprobs, c.output) AS output
  FROM run r
  JOIN completion c ON c.run_id = r.id
  JOIN sampled_instance si ON si.id = c.sampled_instance_id
  JOIN instance i ON i.id = si.instance_id
  WHERE r.experiment_id = $1 AND r.kind = 'LOGPROB' AND r.parameters->>'method' IS NULL AND c.status = 'SUCCEEDED'
  ORDER BY c.id`;

/** The experiment's LOGPROB runs: their counts, and the reasons their failed items give (the five commonest). */
export const logprobRuns = `
  SELECT r.id::text AS run_id, r.sample_id::text AS sample_id, r.provider, r.model, r.status::text AS status,
         r.expected_count AS expected, r.done_count AS done, r.failed_count AS failed, r.last_error,
         coalesce((SELECT jsonb_agg(jsonb_build_object('reason', e.error, 'items', e.n) ORDER BY e.n DESC, e.error)
                   FROM (SELECT c.error, count(*)::int AS n FROM completion c
                         WHERE c.run_id = r.id AND c.status = 'FAILED'
                         GROUP BY c.error ORDER BY n DESC, c.error LIMIT 5) AS e), '[]'::jsonb) AS reasons
  FROM run r
  WHERE r.experiment_id = $1 AND r.kind = 'LOGPROB' AND r.parameters->>'method' IS NULL
  ORDER BY r.created_at, r.id`;

/**
 * CoDeC's scoring passes of an experiment (`$1`): every succeeded LOGPROB completion of its runs (method CODEC),
 * whether it is the in-context pass, and its stored payload.
 */
export const codecItems = `
  SELECT r.id::text AS run_id, r.sample_id::text AS sample_id, r.provider, r.model, c.sampled_instance_id::text AS item,
         coalesce(r.parameters->>'inContext', 'false') = 'true' AS in_context,
         coalesce(c.token_logprobs, c.output) AS output
  FROM run r
  JOIN completion c ON c.run_id = r.id
  WHERE r.experiment_id = $1 AND r.kind = 'LOGPROB' AND r.parameters->>'method' = 'CODEC' AND c.status = 'SUCCEEDED'
  ORDER BY c.id`;

/**
 * TS-Guessing's answers of an experiment (`$1`): every succeeded GUESSING completion with the word it gave and
 * whether it is the masked one (stored with the answer).
 */
export const guessingItems = `
  SELECT r.id::text AS run_id, r.sample_id::text AS sample_id, r.provider, r.model, c.sampled_instance_id::text AS item,
         c.parsed_label AS guess, coalesce(c.correct, false) AS matched
  FROM run r
  JOIN completion c ON c.run_id = r.id
  WHERE r.experiment_id = $1 AND r.kind = 'GUESSING' AND c.status = 'SUCCEEDED'
  ORDER BY c.id`;

/** The experiment's GUESSING runs and their instances. */
export const guessingRuns = `
  SELECT r.id::text AS run_id, r.sample_id::text AS sample_id, r.provider, r.model, r.expected_count AS instances
  FROM run r
  WHERE r.experiment_id = $1 AND r.kind = 'GUESSING'
  ORDER BY r.created_at, r.id`;

/** The experiment's CoDeC runs and their instances. */
export const codecRuns = `
  SELECT r.id::text AS run_id, r.sample_id::text AS sample_id, r.provider, r.model, r.expected_count AS instances
  FROM run r
  WHERE r.experiment_id = $1 AND r.kind = 'LOGPROB' AND r.parameters->>'method' = 'CODEC'
  ORDER BY r.created_at, r.id`;

/**
 * A sampling method's continuations of an experiment (`$1`, the method `$2`: CDD or NGRAM_COVERAGE): every succeeded
 * CONTINUATION completion of its runs with the run's model and temperature (0: CDD's greedy one), the extracted
 * answer of a guided prompt or the raw text of a raw one, and the instance's true continuation.
 */
export const continuationItems = `
  SELECT r.id::text AS run_id, r.sample_id::text AS sample_id, r.provider, r.model, r.temperature,
         c.sampled_instance_id::text AS item, coalesce(c.extracted_answer, c.output, '') AS text,
         si.subsequent_segment AS reference
  FROM run r
  JOIN completion c ON c.run_id = r.id
  JOIN sampled_instance si ON si.id = c.sampled_instance_id
  WHERE r.experiment_id = $1 AND r.kind = 'CONTINUATION' AND coalesce(r.parameters->>'method', 'CDD') = $2
    AND c.status = 'SUCCEEDED'
  ORDER BY c.id`;

/** The experiment's CONTINUATION runs of one sampling method (`$2`): their prompt (a setting: guided; none: raw) and instances per repeat. */
export const continuationRuns = `
  SELECT r.id::text AS run_id, r.sample_id::text AS sample_id, r.provider, r.model,
         CASE WHEN r.setting IS NULL THEN 'RAW' ELSE 'GUIDED' END AS prompt,
         (r.expected_count / greatest(r.repeats, 1))::int AS instances
  FROM run r
  WHERE r.experiment_id = $1 AND r.kind = 'CONTINUATION' AND coalesce(r.parameters->>'method', 'CDD') = $2
  ORDER BY r.created_at, r.id`;

export const experimentModel = `SELECT provider, model, parameters FROM experiment WHERE id = $1`;

/** The experiment's runs per cell (sample, kind, setting, k), their ids joined by commas, as the summary links them. */
export const runsOfExperiment = `
  SELECT sample_id::text AS "sampleId", kind::text AS kind, setting::text AS setting, shots,
         string_agg(id::text, ',' ORDER BY created_at, id) AS ids
  FROM run WHERE experiment_id = $1
  GROUP BY sample_id, kind, setting, shots
  ORDER BY min(created_at), sample_id, kind, setting, shots`;
