import { MigrationInterface, QueryRunner } from "typeorm";
import { FUNCTION as PREVIOUS_FUNCTION } from "./1764442800000-InstanceVerdictCounts";

/**
 * Several reviewers per completion. The effective verdict is the majority of the reviewers' latest verdicts (one
 * per reviewer name); when they tie, the latest readable automatic verdict stands (the latest human one when
 * there is none) until another review breaks the tie. Without reviewers, as before. Counts as before.
 */
export const FUNCTION = `
  CREATE OR REPLACE FUNCTION memicl_apply_judgment() RETURNS trigger LANGUAGE plpgsql AS $fn$
  DECLARE
    previous varchar(20);
    owner uuid;
    instance bigint;
    cell record;
    target varchar(20);
    tops integer;
    kinds integer;
  BEGIN
    SELECT effective_verdict, run_id, sampled_instance_id INTO previous, owner, instance
    FROM completion WHERE id = NEW.completion_id FOR UPDATE;
    WITH latest AS (
      SELECT DISTINCT ON (judge_name) verdict::text AS verdict FROM judgment
      WHERE completion_id = NEW.completion_id AND judge_kind = 'HUMAN'
      ORDER BY judge_name, created_at DESC, id DESC
    ), tally AS (SELECT verdict, count(*) AS n FROM latest GROUP BY verdict)
    SELECT (SELECT verdict FROM tally ORDER BY n DESC, verdict LIMIT 1),
           (SELECT count(*) FROM tally WHERE n = (SELECT max(n) FROM tally)),
           (SELECT count(*) FROM tally)
    INTO target, tops, kinds;
    IF kinds > 0 AND tops > 1 THEN
      -- The reviewers tie: the automatic verdict stands until another review breaks the tie.
      target := NULL;
      SELECT verdict::text INTO target FROM judgment
      WHERE completion_id = NEW.completion_id AND judge_kind <> 'HUMAN'
      ORDER BY (verdict <> 'UNPARSEABLE') DESC, created_at DESC, id DESC LIMIT 1;
      IF target IS NULL THEN
        SELECT verdict::text INTO target FROM judgment
        WHERE completion_id = NEW.completion_id AND judge_kind = 'HUMAN'
        ORDER BY created_at DESC, id DESC LIMIT 1;
      END IF;
    ELSIF kinds = 0 THEN
      -- An unreadable automatic verdict never hides a readable one; it stays in the history.
      IF NEW.verdict = 'UNPARSEABLE' AND previous IS NOT NULL AND previous <> 'UNPARSEABLE' THEN
        RETURN NULL;
      END IF;
      target := NEW.verdict::text;
    END IF;
    IF previous IS DISTINCT FROM target THEN
      UPDATE completion SET effective_verdict = target WHERE id = NEW.completion_id;
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

export class ReviewerMajority1764475200000 implements MigrationInterface {
  name = "ReviewerMajority1764475200000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(FUNCTION);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(PREVIOUS_FUNCTION);
  }
}
