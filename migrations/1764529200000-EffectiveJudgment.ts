import { MigrationInterface, QueryRunner } from "typeorm";
import { FUNCTION as PREVIOUS_FUNCTION } from "./1764475200000-ReviewerMajority";

/**
 * The effective judgment in one place: the trigger that decides each completion's effective verdict (the
 * reviewers' majority of their latest verdicts; on a tie, or without reviewers, the latest readable automatic
 * verdict) now also records which judgment gave it, `completion.effective_judgment_id`, so that every reader of
 * the effective judgment (the API's `Completion.effectiveJudgment`, the export's judge columns) reads the
 * trigger's decision instead of deciding again. Counts as before.
 */
export const FUNCTION = `
  CREATE OR REPLACE FUNCTION memicl_apply_judgment() RETURNS trigger LANGUAGE plpgsql AS $fn$
  DECLARE
    previous varchar(20);
    previous_judgment bigint;
    owner uuid;
    instance bigint;
    cell record;
    target varchar(20);
    chosen bigint;
    tops integer;
    kinds integer;
  BEGIN
    SELECT effective_verdict, effective_judgment_id, run_id, sampled_instance_id
    INTO previous, previous_judgment, owner, instance
    FROM completion WHERE id = NEW.completion_id FOR UPDATE;
    WITH latest AS (
      SELECT DISTINCT ON (judge_name) id, verdict::text AS verdict, created_at FROM judgment
      WHERE completion_id = NEW.completion_id AND judge_kind = 'HUMAN'
      ORDER BY judge_name, created_at DESC, id DESC
    ), tally AS (SELECT verdict, count(*) AS n FROM latest GROUP BY verdict),
    top AS (SELECT verdict FROM tally ORDER BY n DESC, verdict LIMIT 1)
    SELECT (SELECT verdict FROM top),
           (SELECT l.id FROM latest l WHERE l.verdict = (SELECT verdict FROM top)
            ORDER BY l.created_at DESC, l.id DESC LIMIT 1),
           (SELECT count(*) FROM tally WHERE n = (SELECT max(n) FROM tally)),
           (SELECT count(*) FROM tally)
    INTO target, chosen, tops, kinds;
    IF kinds > 0 AND tops > 1 THEN
      -- The reviewers tie: the automatic verdict stands until another review breaks the tie.
      target := NULL;
      chosen := NULL;
      SELECT id, verdict::text INTO chosen, target FROM judgment
      WHERE completion_id = NEW.completion_id AND judge_kind <> 'HUMAN'
      ORDER BY (verdict <> 'UNPARSEABLE') DESC, created_at DESC, id DESC LIMIT 1;
      IF target IS NULL THEN
        SELECT id, verdict::text INTO chosen, target FROM judgment
        WHERE completion_id = NEW.completion_id AND judge_kind = 'HUMAN'
        ORDER BY created_at DESC, id DESC LIMIT 1;
      END IF;
    ELSIF kinds = 0 THEN
      -- An unreadable automatic verdict never hides a readable one; it stays in the history.
      IF NEW.verdict = 'UNPARSEABLE' AND previous IS NOT NULL AND previous <> 'UNPARSEABLE' THEN
        RETURN NULL;
      END IF;
      target := NEW.verdict::text;
      chosen := NEW.id;
    END IF;
    IF previous IS DISTINCT FROM target OR previous_judgment IS DISTINCT FROM chosen THEN
      UPDATE completion SET effective_verdict = target, effective_judgment_id = chosen
      WHERE id = NEW.completion_id;
    END IF;
    IF previous IS DISTINCT FROM target THEN
      IF previous IS NOT NULL THEN
        UPDATE run_verdict_count SET count = count - 1 WHERE run_id = owner AND verdict = previous;
      END IF;
      INSERT INTO run_verdict_count (run_id, verdict, count) VALUES (owner, target, 1)
      ON CONFLICT (run_id, verdict) DO UPDATE SET count = run_verdict_count.count + 1;
      SELECT experiment_id, sample_id, setting::text AS setting, shots INTO cell
      FROM run WHERE id = owner AND kind = 'MEMORIZATION' AND experiment_id IS NOT NULL;
      IF FOUND THEN
        INSERT INTO instance_verdict_count AS v
          (experiment_id, sample_id, setting, shots, sampled_instance_id, exact, near_exact, inexact)
        VALUES (cell.experiment_id, cell.sample_id, cell.setting, cell.shots, instance,
          CASE WHEN target = 'EXACT' THEN 1 ELSE 0 END,
          CASE WHEN target = 'NEAR_EXACT' THEN 1 ELSE 0 END,
          CASE WHEN target = 'INEXACT' THEN 1 ELSE 0 END)
        ON CONFLICT (experiment_id, sample_id, setting, shots, sampled_instance_id) DO UPDATE SET
          exact = v.exact + EXCLUDED.exact - CASE WHEN previous = 'EXACT' THEN 1 ELSE 0 END,
          near_exact = v.near_exact + EXCLUDED.near_exact - CASE WHEN previous = 'NEAR_EXACT' THEN 1 ELSE 0 END,
          inexact = v.inexact + EXCLUDED.inexact - CASE WHEN previous = 'INEXACT' THEN 1 ELSE 0 END;
      END IF;
    END IF;
    RETURN NULL;
  END
  $fn$`;

export class EffectiveJudgment1764529200000 implements MigrationInterface {
  name = "EffectiveJudgment1764529200000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "completion" ADD "effective_judgment_id" bigint`);
    await queryRunner.query(FUNCTION);
    // The judgments already stored: for each completion, a judgment with its effective verdict (a reviewer's
    // latest review with it, else the latest automatic judgment with it). Where reviewers tie, the trigger would
    // name the automatic judgment; the verdict is the same.
    await queryRunner.query(`
      WITH humans AS (
        SELECT DISTINCT ON (completion_id, judge_name) id, completion_id, verdict::text AS verdict, created_at
        FROM judgment WHERE judge_kind = 'HUMAN'
        ORDER BY completion_id, judge_name, created_at DESC, id DESC
      ), picked AS (
        SELECT DISTINCT ON (c.id) c.id AS completion_id, j.id AS judgment_id
        FROM completion c
        JOIN judgment j ON j.completion_id = c.id AND j.verdict::text = c.effective_verdict
        LEFT JOIN humans h ON h.id = j.id
        WHERE c.effective_verdict IS NOT NULL
        ORDER BY c.id, (h.id IS NOT NULL) DESC, (j.judge_kind <> 'HUMAN') DESC, j.created_at DESC, j.id DESC
      )
      UPDATE completion c SET effective_judgment_id = p.judgment_id
      FROM picked p WHERE p.completion_id = c.id`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(PREVIOUS_FUNCTION);
    await queryRunner.query(`ALTER TABLE "completion" DROP COLUMN "effective_judgment_id"`);
  }
}
