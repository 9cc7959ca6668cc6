// Named, parameterised SQL of run execution. Every state change is one conditional statement, safe to repeat.

import { QUIZ_ITEM_READY } from "../option-set/option-set.sql";
import { leaseLapsed } from "../worker/lease";

/**
 * Claims completions (`$1` ids) for worker `$3` for `$2` seconds (renewed by the worker's beats) where their
 * run is active and nobody holds a live claim; returns what the calls need (`budgeted`: the run or its experiment
 * has a budget, so the call must hold its worst case first).
 */
export const claimCompletions = `
  WITH claimed AS (
    UPDATE completion AS c
    SET status = 'RUNNING', lease_token = gen_random_uuid(), lease_until = clock_timestamp() + make_interval(secs => $2),
        lease_owner = $3, lease_renewed_at = clock_timestamp()
    FROM run AS r
    WHERE c.id = ANY($1::bigint[]) AND r.id = c.run_id AND r.status IN ('QUEUED', 'RUNNING')
      AND (c.status = 'PENDING' OR (c.status = 'RUNNING' AND ${leaseLapsed("c")}))
      -- An item a batch run still sends through the provider's Batch API is not called online.
      AND c.batch_attempts >= r.batch_attempts
      -- A quiz's item waits for its instance's options.
      AND ${QUIZ_ITEM_READY}
    RETURNING c.id, c.run_id, c.repeat, c.lease_token, c.sampled_instance_id, c.attempts,
      r.max_cost_usd IS NOT NULL OR EXISTS (
        SELECT 1 FROM experiment e WHERE e.id = r.experiment_id AND e.max_cost_usd IS NOT NULL) AS budgeted
  ), starting AS (
    -- In id order, as every statement that moves several runs locks them (a quiz's items span five runs).
    SELECT run.id FROM run WHERE run.id IN (SELECT run_id FROM claimed) AND run.status = 'QUEUED'
    ORDER BY run.id FOR UPDATE
  ), started AS (
    UPDATE run SET status = 'RUNNING', started_at = coalesce(started_at, clock_timestamp())
    WHERE run.id IN (SELECT id FROM starting) AND run.status = 'QUEUED'
  )
  SELECT claimed.id, claimed.run_id, claimed.repeat, claimed.lease_token, claimed.attempts, claimed.budgeted,
         si.id AS item_id, si.sample_id, si.instance_id, si.position, si.label, si.initial_segment, si.subsequent_segment,
         si.cut_token_index, si.token_count, i.text, i.second_text
  FROM claimed
  JOIN sampled_instance AS si ON si.id = claimed.sampled_instance_id
  JOIN instance AS i ON i.id = si.instance_id`;

/** Is the claim still ours, and is the run still active? (Asked between attempts.) */
export const claimState = `
  SELECT r.status AS run_status, (c.lease_token = $2 AND c.status = 'RUNNING') AS held
  FROM completion c JOIN run r ON r.id = c.run_id WHERE c.id = $1`;

export const releaseCompletion = `
  UPDATE completion SET status = 'PENDING', lease_token = NULL, lease_until = NULL, lease_owner = NULL
  WHERE id = $1 AND lease_token = $2 AND status = 'RUNNING'`;

/** Gives an item back after an error of ours (not the model's), recording it; the caller queues it again. */
export const releaseAfterError = `
  WITH released AS (
    UPDATE completion SET status = 'PENDING', lease_token = NULL, lease_until = NULL, lease_owner = NULL,
        error = $3, attempts = attempts + 1
    WHERE id = $1 AND lease_token = $2 AND status = 'RUNNING'
    RETURNING run_id
  )
  UPDATE run SET last_error = $3 FROM released WHERE run.id = released.run_id AND run.status IN ('QUEUED', 'RUNNING')`;

export const runStatus = `SELECT status FROM run WHERE id = $1`;

/** The columns of one stored answer, for `completeCompletions`. */
export const COMPLETED_COLUMNS = `id bigint, lease_token uuid, output text, finish_reason text, prompt_tokens int,
  completion_tokens int, cached_tokens int, latency_ms int, attempts int, reported_model text,
  system_fingerprint text, cache_hit boolean, parsed_label text, correct boolean, prompt_hash text,
  cost_usd numeric, cache_key text, provider text, model text, response jsonb, verdict text, judge_version text,
  details jsonb, extracted_answer text, extraction_rule text, rouge_l real, token_logprobs text`;

/**
 * Stores answers, one or many, in one statement (and one commit): each successful call (only by its claim holder,
 * never over a success) with its heuristic judgment, the response cache filled when asked, and each run's counters
 * moved once (a run whose items are all done ends). Runs are locked in id order, and judgments inserted in (run, id) order, so that two
 * such statements never wait on each other in a cycle. Returns the ids written (an item whose lease was lost is
 * left alone).
 */
export const completeCompletions = `
  WITH input AS (
    -- One answer per claim: the same claim twice in a batch would be counted twice by the sums below.
    SELECT DISTINCT ON (id, lease_token) * FROM jsonb_to_recordset($1::jsonb) AS x(${COMPLETED_COLUMNS})
    ORDER BY id, lease_token
  ), done AS (
    UPDATE completion AS c
    SET status = 'SUCCEEDED', output = i.output, finish_reason = i.finish_reason, prompt_tokens = i.prompt_tokens,
        completion_tokens = i.completion_tokens, cached_tokens = i.cached_tokens, latency_ms = i.latency_ms,
        attempts = c.attempts + i.attempts, error = NULL, reported_model = i.reported_model,
        system_fingerprint = i.system_fingerprint, cache_hit = i.cache_hit, parsed_label = i.parsed_label,
        correct = i.correct, prompt_hash = i.prompt_hash, cost_usd = i.cost_usd,
        extracted_answer = i.extracted_answer, extraction_rule = i.extraction_rule, rouge_l = i.rouge_l,
        token_logprobs = i.token_logprobs,
        lease_token = NULL, lease_until = NULL, lease_owner = NULL, completed_at = clock_timestamp()
    FROM input AS i
    WHERE c.id = i.id AND c.lease_token = i.lease_token AND c.status = 'RUNNING'
    RETURNING c.id, c.run_id, i.lease_token AS written_token
  ), written AS (
    -- By claim, not by item: a stale claim's answer for the same item in the same batch (its lease lapsed and the
    -- item was claimed again) was joined here too, and counted.
    SELECT i.*, done.run_id FROM input AS i JOIN done ON done.id = i.id AND done.written_token = i.lease_token
  ), cached AS (
    INSERT INTO response_cache (key, provider, model, response)
    SELECT DISTINCT ON (cache_key) cache_key, provider, model, response FROM written WHERE cache_key IS NOT NULL
    ON CONFLICT (key) DO NOTHING
  ), judged AS (
    INSERT INTO judgment (completion_id, verdict, judge_kind, judge_name, judge_version, details, extraction_rule)
    SELECT id, verdict::judgment_verdict_enum, 'HEURISTIC', 'heuristic', judge_version, details, extraction_rule
    FROM written WHERE verdict IS NOT NULL ORDER BY run_id, id
  ), sums AS (
    SELECT run_id, count(*)::int AS n, sum(coalesce(prompt_tokens, 0)) AS prompt_tokens,
           sum(coalesce(completion_tokens, 0)) AS completion_tokens, sum(coalesce(cached_tokens, 0)) AS cached_tokens,
           sum(coalesce(cost_usd, 0)) AS cost_usd, count(*) FILTER (WHERE cache_hit)::int AS cache_hits,
           min(reported_model) AS reported_model
    FROM written GROUP BY run_id
  ), locked AS (
    SELECT run.id FROM run WHERE run.id IN (SELECT run_id FROM sums) ORDER BY run.id FOR UPDATE
  ), counted AS (
    UPDATE run
    SET done_count = done_count + s.n, consecutive_failures = 0,
        prompt_tokens = run.prompt_tokens + s.prompt_tokens, completion_tokens = run.completion_tokens + s.completion_tokens,
        cached_tokens = run.cached_tokens + s.cached_tokens, cost_usd = run.cost_usd + s.cost_usd,
        cache_hit_count = cache_hit_count + s.cache_hits,
        reported_model = coalesce(run.reported_model, s.reported_model),
        -- A run that ends with every item done has no error that still applies.
        last_error = CASE WHEN status IN ('QUEUED', 'RUNNING') AND failed_count = 0
                               AND done_count + s.n >= expected_count THEN NULL ELSE last_error END,
        status = CASE WHEN status IN ('QUEUED', 'RUNNING') AND done_count + s.n + failed_count >= expected_count
                      THEN (CASE WHEN failed_count = 0 THEN 'SUCCEEDED' ELSE 'FAILED' END)::run_status_enum
                      ELSE status END,
        finished_at = CASE WHEN status IN ('QUEUED', 'RUNNING') AND done_count + s.n + failed_count >= expected_count
                           THEN clock_timestamp() ELSE finished_at END
    FROM sums AS s WHERE run.id = s.run_id AND run.id IN (SELECT id FROM locked)
    RETURNING run.id
  )
  SELECT written.id FROM written`;

/** Records a failed item; fails the run when it was the last one, or when `$7` items failed in a row. */
export const failCompletion = `
  WITH failed AS (
    UPDATE completion
    SET status = 'FAILED', error = $3, attempts = attempts + $4, latency_ms = $5, prompt_hash = $6,
        lease_token = NULL, lease_until = NULL, lease_owner = NULL, completed_at = clock_timestamp()
    WHERE id = $1 AND lease_token = $2 AND status = 'RUNNING'
    RETURNING run_id
  )
  UPDATE run
  SET failed_count = failed_count + 1, consecutive_failures = consecutive_failures + 1,
      last_error = CASE WHEN status NOT IN ('QUEUED', 'RUNNING') THEN last_error
                        WHEN consecutive_failures + 1 >= $7::int
                        THEN 'circuit breaker: ' || $7::int || ' items failed in a row; the last one: ' || $3::text
                        ELSE $3 END,
      status = CASE WHEN status NOT IN ('QUEUED', 'RUNNING') THEN status
                    WHEN consecutive_failures + 1 >= $7::int OR done_count + failed_count + 1 >= expected_count
                    THEN 'FAILED'::run_status_enum
                    ELSE status END,
      finished_at = CASE WHEN status IN ('QUEUED', 'RUNNING')
                          AND (consecutive_failures + 1 >= $7::int OR done_count + failed_count + 1 >= expected_count)
                         THEN clock_timestamp() ELSE finished_at END
  FROM failed WHERE run.id = failed.run_id
  RETURNING run.status`;

export const completionPages = `
  SELECT page.*
  FROM unnest($1::uuid[]) AS parent(id)
  CROSS JOIN LATERAL (
    SELECT * FROM completion
    WHERE completion.run_id = parent.id AND completion.id > $2::bigint AND ($3::text IS NULL OR completion.status::text = $3)
    ORDER BY completion.id
    LIMIT $4
  ) AS page
  ORDER BY page.run_id, page.id`;
