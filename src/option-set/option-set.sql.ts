// Named, parameterised SQL of quiz option sets: finding or making a set, reading its options, and which quiz
// items may be called (their instance's options are final).

import { EntityManager } from "typeorm";

/**
 * A quiz's item may be called once its instance's options are final (valid, or given up after the set's
 * generations); before that it waits, without a job. `c` is the completion, `r` its run.
 */
export const QUIZ_ITEM_READY = `(r.kind <> 'QUIZ' OR EXISTS (
    SELECT 1 FROM quiz_option qo
    WHERE qo.option_set_id = r.option_set_id AND qo.sampled_instance_id = c.sampled_instance_id AND qo.final))`;

/** Of the given completions (`$1`), the ones that may be called now (a quiz's: its options are final). */
export const quizItemsReady = `
  SELECT c.id::text AS id FROM completion c JOIN run r ON r.id = c.run_id
  WHERE c.id = ANY($1::bigint[]) AND ${QUIZ_ITEM_READY}`;

/** The waiting quiz items of an option set's instance (`$1` set, `$2` sampled instance), with their providers. */
export const quizItemsOfInstance = `
  SELECT c.id::text AS id, r.provider FROM completion c JOIN run r ON r.id = c.run_id
  WHERE r.option_set_id = $1 AND r.kind = 'QUIZ' AND c.sampled_instance_id = $2 AND c.status = 'PENDING'
    AND r.status IN ('QUEUED', 'RUNNING')`;

/**
 * An instance whose options were given up is not quizzed: its waiting quiz items (`$1` set, `$2` sampled instance)
 * are removed from their runs, each run expecting one fewer, and a run that has nothing else left ends.
 */
export const dropUnquizzable = `
  WITH removed AS (
    DELETE FROM completion c USING run r
    WHERE r.id = c.run_id AND r.option_set_id = $1 AND r.kind = 'QUIZ' AND c.sampled_instance_id = $2
      AND c.status = 'PENDING'
    RETURNING c.run_id
  ), per_run AS (
    SELECT run_id, count(*)::int AS n FROM removed GROUP BY run_id
  )
  UPDATE run
  SET expected_count = expected_count - per_run.n,
      status = CASE WHEN status IN ('QUEUED', 'RUNNING') AND done_count + failed_count >= expected_count - per_run.n
                    THEN (CASE WHEN failed_count = 0 THEN 'SUCCEEDED' ELSE 'FAILED' END)::run_status_enum
                    ELSE status END,
      finished_at = CASE WHEN status IN ('QUEUED', 'RUNNING') AND done_count + failed_count >= expected_count - per_run.n
                         THEN clock_timestamp() ELSE finished_at END
  FROM per_run WHERE run.id = per_run.run_id`;

/**
 * A new quiz run's items (`$1` run, `$2` sample, `$3` its option set): every instance of the sample but those whose
 * options were given up already.
 */
export const insertQuizItems = `
  INSERT INTO completion (run_id, sampled_instance_id, repeat)
  SELECT $1, item.id, 0 FROM sampled_instance AS item
  WHERE item.sample_id = $2 AND NOT EXISTS (
    SELECT 1 FROM quiz_option qo
    WHERE qo.option_set_id = $3 AND qo.sampled_instance_id = item.id AND qo.final AND NOT qo.valid)
  ORDER BY item.position
  RETURNING id`;

/** What option sets (`$1` ids) hold: their generator, instances, valid, given up and rejected generations. */
export const optionSetCounts = `
  SELECT s.id::text AS option_set_id, s.sample_id::text AS sample_id, s.provider, s.model,
         s.template_version, s.max_generations,
         (SELECT count(*) FROM sampled_instance si WHERE si.sample_id = s.sample_id)::int AS instances,
         count(o.id) FILTER (WHERE o.valid)::int AS valid,
         count(o.id) FILTER (WHERE o.final AND NOT o.valid)::int AS given_up,
         coalesce(sum(jsonb_array_length(o.rejections)), 0)::int AS rejected_generations,
         coalesce(sum((SELECT count(*) FROM jsonb_array_elements(o.rejections) AS rejected(problems)
                       WHERE rejected.problems::text LIKE '%is the original instance%')), 0)::int AS original_among_options
  FROM quiz_option_set s LEFT JOIN quiz_option o ON o.option_set_id = s.id
  WHERE s.id = ANY($1::uuid[])
  GROUP BY s.id`;

/** A set's final options (`$1`). */
export const finalOptions = `
  SELECT sampled_instance_id::text AS item_id, options, valid, generations, problems
  FROM quiz_option WHERE option_set_id = $1 AND final`;

export interface FinalOption {
  item_id: string;
  options: string[];
  valid: boolean;
  generations: number;
  problems: string[];
}

/**
 * Records a generation's options for an instance (`$1` set, `$2` sampled instance, `$3` completion, `$4` options,
 * `$5` generation number, `$6` valid, `$7` final, `$8` problems). A final row is never changed again: the quizzes
 * that showed it stay explained.
 */
export const recordOptions = `
  INSERT INTO quiz_option (option_set_id, sampled_instance_id, completion_id, options, generations, valid, final,
                           problems, rejections)
  VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8::jsonb,
          CASE WHEN $6 THEN '[]'::jsonb ELSE jsonb_build_array($8::jsonb) END)
  ON CONFLICT (option_set_id, sampled_instance_id) DO UPDATE
  SET completion_id = excluded.completion_id, options = excluded.options,
      generations = greatest(quiz_option.generations, excluded.generations), valid = excluded.valid,
      final = excluded.final, problems = excluded.problems,
      rejections = quiz_option.rejections || CASE WHEN excluded.valid THEN '[]'::jsonb ELSE jsonb_build_array(excluded.problems) END
  WHERE NOT quiz_option.final
  RETURNING final`;

/**
 * Per sample (`$1`), the option set a quiz without a named generator takes: the first made of the newest prompt
 * version, whichever model generated it, so every examined model answers the same quiz.
 */
export const defaultOptionSets = `
  SELECT DISTINCT ON (sample_id) id, sample_id::text AS sample_id, provider, model, template_version,
         max_generations
  FROM quiz_option_set
  WHERE sample_id = ANY($1::uuid[])
  ORDER BY sample_id, template_version DESC, created_at, id`;

/**
 * The samples (`$1`) whose quiz would take an option set already made and generate nothing: the default set
 * (`defaultOptionSets`), or with a generator named (`$3` provider, `$4` model, `$5` generations) that generator's
 * set, of the prompt version `$2`, with its generation run still there (`findOrCreateOptionSet` makes a set again
 * when its run was deleted with its experiment).
 */
export const reusedOptionSets = `
  WITH chosen AS (
    SELECT * FROM (${defaultOptionSets}) AS d WHERE $3::text IS NULL
    UNION ALL
    SELECT id, sample_id::text, provider, model, template_version, max_generations FROM quiz_option_set
    WHERE $3::text IS NOT NULL AND sample_id = ANY($1::uuid[]) AND provider = $3 AND model = $4
      AND template_version = $2 AND max_generations = $5
  )
  SELECT c.sample_id FROM chosen c
  WHERE c.template_version = $2
    AND EXISTS (SELECT 1 FROM run WHERE run.option_set_id = c.id AND run.kind = 'QUIZ_OPTIONS')`;

/**
 * The sample's option set by this generator, prompt version and generations, made when there is none; `created`
 * when this call made it (or it has lost its generation run, which was deleted with its experiment): the caller
 * then starts a generation run for it.
 */
export async function findOrCreateOptionSet(
  manager: EntityManager,
  key: { sampleId: string; provider: string; model: string; templateVersion: number; maxGenerations: number },
): Promise<{ id: string; created: boolean }> {
  const values = [key.sampleId, key.provider, key.model, key.templateVersion, key.maxGenerations];
  const inserted: { id: string }[] = await manager.query(
    `INSERT INTO quiz_option_set (sample_id, provider, model, template_version, max_generations)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING id`,
    values,
  );
  if (inserted.length > 0) return { id: inserted[0].id, created: true };
  const [found]: { id: string; generating: boolean }[] = await manager.query(
    `SELECT s.id, EXISTS (SELECT 1 FROM run WHERE run.option_set_id = s.id AND run.kind = 'QUIZ_OPTIONS') AS generating
     FROM quiz_option_set s
     WHERE s.sample_id = $1 AND s.provider = $2 AND s.model = $3 AND s.template_version = $4 AND s.max_generations = $5`,
    values,
  );
  return { id: found.id, created: !found.generating };
}
