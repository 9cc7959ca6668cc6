// Named SQL of batch execution. Like run execution's, every state change is one conditional statement.

/** What a claimed completion carries (the columns `claimCompletions` returns), for rows already chosen. */
const CLAIMED_COLUMNS = `
  chosen.id, chosen.run_id, chosen.repeat, chosen.lease_token, chosen.attempts,
  (r.max_cost_usd IS NOT NULL OR EXISTS (
     SELECT 1 FROM experiment e WHERE e.id = r.experiment_id AND e.max_cost_usd IS NOT NULL)) AS budgeted,
  si.id AS item_id, si.sample_id, si.instance_id, si.position, si.label, si.initial_segment, si.subsequent_segment,
  si.cut_token_index, si.token_count, i.text, i.second_text`;

/** Runs of providers `$1` with items still to send in a batch, a few at a time. */
export const runsToBatch = `
  SELECT r.id, r.provider, r.batch_attempts FROM run r
  WHERE r.provider = ANY($1) AND r.status IN ('QUEUED', 'RUNNING') AND r.batch_attempts > 0
    AND EXISTS (SELECT 1 FROM completion c
                WHERE c.run_id = r.id AND c.status = 'PENDING' AND c.batch_attempts < r.batch_attempts)
  ORDER BY r.created_at LIMIT 20`;

/** Records the intent: a batch of run `$2` at provider `$3`, owned by worker `$4` for `$5` seconds. */
export const createBatch = `
  INSERT INTO provider_batch (id, run_id, provider, state, request_count, owner, lease_until)
  VALUES ($1, $2, $3, 'PREPARING', 0, $4, clock_timestamp() + make_interval(secs => $5))`;

/**
 * Puts up to `$3` waiting items of run `$1` (those with batch attempts left, below `$4`) into batch `$2`: each
 * gets a claim token that is the batch's (no lease to lapse, no worker), and its batch attempt is counted.
 */
export const includeItems = `
  WITH picked AS (
    SELECT c.id FROM completion c
    WHERE c.run_id = $1 AND c.status = 'PENDING' AND c.batch_attempts < $4
    ORDER BY c.id LIMIT $3 FOR UPDATE SKIP LOCKED
  ), chosen AS (
    UPDATE completion c
    SET status = 'RUNNING', lease_token = gen_random_uuid(), lease_until = 'infinity', lease_owner = NULL,
        batch_id = $2, batch_attempts = c.batch_attempts + 1
    FROM picked WHERE c.id = picked.id
    RETURNING c.id, c.run_id, c.repeat, c.lease_token, c.sampled_instance_id, c.attempts
  ), started AS (
    UPDATE run SET status = 'RUNNING', started_at = coalesce(started_at, clock_timestamp())
    WHERE id = $1 AND status = 'QUEUED'
  ), counted AS (
    UPDATE provider_batch SET request_count = (SELECT count(*) FROM chosen) WHERE id = $2
  )
  SELECT ${CLAIMED_COLUMNS}
  FROM chosen
  JOIN run r ON r.id = chosen.run_id
  JOIN sampled_instance AS si ON si.id = chosen.sampled_instance_id
  JOIN instance AS i ON i.id = si.instance_id
  ORDER BY chosen.id`;

/** The items still in batch `$1` (claimed by it and not stored), as claims. */
export const itemsOfBatch = `
  SELECT ${CLAIMED_COLUMNS}
  FROM completion AS chosen
  JOIN run r ON r.id = chosen.run_id
  JOIN sampled_instance AS si ON si.id = chosen.sampled_instance_id
  JOIN instance AS i ON i.id = si.instance_id
  WHERE chosen.batch_id = $1 AND chosen.status = 'RUNNING'
  ORDER BY chosen.id`;

/**
 * Gives items of batch `$2` back to waiting (`$1` ids); `$3` an error to record (or null); `$4` true when the
 * batch never reached the provider, so its attempt does not count. Returns each with whether it has batch
 * attempts left.
 */
export const giveBack = `
  UPDATE completion c
  SET status = 'PENDING', lease_token = NULL, lease_until = NULL, lease_owner = NULL, batch_id = NULL,
      error = coalesce($3, c.error), batch_attempts = c.batch_attempts - CASE WHEN $4 THEN 1 ELSE 0 END
  FROM run r
  WHERE c.id = ANY($1::bigint[]) AND c.batch_id = $2 AND c.status = 'RUNNING' AND r.id = c.run_id
  RETURNING c.id::text AS id, r.provider, c.batch_attempts < r.batch_attempts AS batch_left`;

/**
 * Takes one unfinished batch of providers `$3` for worker `$1` for `$2` seconds: one whose poll is due, or whose
 * run was cancelled (to cancel it at the provider), and that no other live worker holds.
 */
export const takeBatch = `
  UPDATE provider_batch b SET owner = $1, lease_until = clock_timestamp() + make_interval(secs => $2)
  WHERE b.id = (
    SELECT b2.id FROM provider_batch b2 JOIN run r ON r.id = b2.run_id
    WHERE b2.state <> 'COLLECTED' AND b2.provider = ANY($3)
      -- Its own too: a process works on one batch at a time, between passes it holds none, so one it still owns
      -- was left by a step that failed (the database went away while it was being recorded).
      AND (b2.owner IS NULL OR b2.owner = $1 OR b2.lease_until < clock_timestamp()
           OR NOT EXISTS (SELECT 1 FROM worker w WHERE w.id = b2.owner))
      AND (b2.next_poll_at <= clock_timestamp() OR (r.status = 'CANCELLED' AND b2.state = 'SUBMITTED'))
    ORDER BY b2.next_poll_at LIMIT 1
    FOR UPDATE OF b2 SKIP LOCKED)
  RETURNING b.id, b.run_id, b.provider, b.state::text AS state, b.provider_batch_id, b.poll_seconds,
            (SELECT status::text FROM run WHERE run.id = b.run_id) AS run_status`;

/** Records what the provider said of a batch and gives it back until its next poll (`$3` seconds from now). */
export const batchPolled = `
  UPDATE provider_batch
  SET owner = NULL, lease_until = NULL, state = $2::provider_batch_state_enum,
      next_poll_at = clock_timestamp() + make_interval(secs => $3), poll_seconds = $3,
      provider_batch_id = coalesce($4, provider_batch_id), provider_status = coalesce($5, provider_status),
      completed_count = coalesce($6, completed_count), failed_count = coalesce($7, failed_count),
      last_error = $8, bytes = coalesce($9, bytes),
      submitted_at = CASE WHEN $4::text IS NOT NULL THEN coalesce(submitted_at, clock_timestamp()) ELSE submitted_at END
  WHERE id = $1`;

export const batchCollected = `
  UPDATE provider_batch
  SET owner = NULL, lease_until = NULL, state = 'COLLECTED', provider_status = $2, completed_count = $3,
      failed_count = $4, last_error = $5, finished_at = clock_timestamp()
  WHERE id = $1`;
