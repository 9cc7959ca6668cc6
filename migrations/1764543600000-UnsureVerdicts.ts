import { MigrationInterface, QueryRunner } from "typeorm";
import { FUNCTION as PREVIOUS_FUNCTION } from "./1764529200000-EffectiveJudgment";

/**
 * The judge's bounds: `instance_verdict_count` also counts, per instance and cell, the near-exact and inexact
 * effective verdicts that rest on a span the heuristic judge cannot class (`details.unsure`, heuristic-8's
 * `restsOnUnsureSpan`). The trigger keeps them as it keeps the verdict counts: when the effective judgment changes
 * (a review, an LLM judgment, a rejudge), the unsure counts move with it, so a settled verdict leaves the band.
 * Judgments stored before have no mark and count as sure; a heuristic-8 rejudge marks them.
 */
const FUNCTION = `
  CREATE OR REPLACE FUNCTION memicl_apply_judgment() RETURNS trigger LANGUAGE plpgsql AS $fn$
  DECLARE
    previous varchar(20);
    previous_judgment bigint;
    previous_unsure boolean;
    target_unsure boolean;
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
    IF previous IS NOT DISTINCT FROM target AND previous_judgment IS NOT DISTINCT FROM chosen THEN
      RETURN NULL;
    END IF;
    previous_unsure := coalesce((SELECT (details->>'unsure')::boolean FROM judgment WHERE id = previous_judgment), false);
    target_unsure := coalesce((SELECT (details->>'unsure')::boolean FROM judgment WHERE id = chosen), false);
    UPDATE completion SET effective_verdict = target, effective_judgment_id = chosen WHERE id = NEW.completion_id;
    IF previous IS DISTINCT FROM target THEN
      IF previous IS NOT NULL THEN
        UPDATE run_verdict_count SET count = count - 1 WHERE run_id = owner AND verdict = previous;
      END IF;
      INSERT INTO run_verdict_count (run_id, verdict, count) VALUES (owner, target, 1)
      ON CONFLICT (run_id, verdict) DO UPDATE SET count = run_verdict_count.count + 1;
    END IF;
    IF previous IS DISTINCT FROM target OR previous_unsure IS DISTINCT FROM target_unsure THEN
      SELECT experiment_id, sample_id, setting::text AS setting, shots INTO cell
      FROM run WHERE id = owner AND kind = 'MEMORIZATION' AND experiment_id IS NOT NULL;
      IF FOUND THEN
        INSERT INTO instance_verdict_count AS v
          (experiment_id, sample_id, setting, shots, sampled_instance_id, exact, near_exact, inexact,
           unsure_near_exact, unsure_inexact)
        VALUES (cell.experiment_id, cell.sample_id, cell.setting, cell.shots, instance,
          CASE WHEN target = 'EXACT' THEN 1 ELSE 0 END,
          CASE WHEN target = 'NEAR_EXACT' THEN 1 ELSE 0 END,
          CASE WHEN target = 'INEXACT' THEN 1 ELSE 0 END,
          CASE WHEN target = 'NEAR_EXACT' AND target_unsure THEN 1 ELSE 0 END,
          CASE WHEN target = 'INEXACT' AND target_unsure THEN 1 ELSE 0 END)
        ON CONFLICT (experiment_id, sample_id, setting, shots, sampled_instance_id) DO UPDATE SET
          exact = v.exact + EXCLUDED.exact - CASE WHEN previous = 'EXACT' THEN 1 ELSE 0 END,
          near_exact = v.near_exact + EXCLUDED.near_exact - CASE WHEN previous = 'NEAR_EXACT' THEN 1 ELSE 0 END,
          inexact = v.inexact + EXCLUDED.inexact - CASE WHEN previous = 'INEXACT' THEN 1 ELSE 0 END,
          unsure_near_exact = v.unsure_near_exact + EXCLUDED.unsure_near_exact
            - CASE WHEN previous = 'NEAR_EXACT' AND previous_unsure THEN 1 ELSE 0 END,
          unsure_inexact = v.unsure_inexact + EXCLUDED.unsure_inexact
            - CASE WHEN previous = 'INEXACT' AND previous_unsure THEN 1 ELSE 0 END;
      END IF;
    END IF;
    RETURN NULL;
  END
  $fn$`;

export class UnsureVerdicts1764543600000 implements MigrationInterface {
  name = "UnsureVerdicts1764543600000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "instance_verdict_count" ADD "unsure_near_exact" integer NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(
      `ALTER TABLE "instance_verdict_count" ADD "unsure_inexact" integer NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(FUNCTION);
    // Judgments stored before the mark: a heuristic judgment that recorded it (none yet) counts here.
    await queryRunner.query(`
      WITH marked AS (
        SELECT r.experiment_id, r.sample_id, r.setting::text AS setting, r.shots, c.sampled_instance_id,
               count(*) FILTER (WHERE c.effective_verdict = 'NEAR_EXACT')::int AS near_exact,
               count(*) FILTER (WHERE c.effective_verdict = 'INEXACT')::int AS inexact
        FROM completion c
        JOIN judgment j ON j.id = c.effective_judgment_id AND (j.details->>'unsure')::boolean
        JOIN run r ON r.id = c.run_id AND r.kind = 'MEMORIZATION' AND r.experiment_id IS NOT NULL
        GROUP BY 1, 2, 3, 4, 5
      )
      UPDATE instance_verdict_count v SET unsure_near_exact = m.near_exact, unsure_inexact = m.inexact
      FROM marked m
      WHERE v.experiment_id = m.experiment_id AND v.sample_id = m.sample_id AND v.setting = m.setting
        AND v.shots = m.shots AND v.sampled_instance_id = m.sampled_instance_id`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(PREVIOUS_FUNCTION);
    await queryRunner.query(`ALTER TABLE "instance_verdict_count" DROP COLUMN "unsure_inexact"`);
    await queryRunner.query(`ALTER TABLE "instance_verdict_count" DROP COLUMN "unsure_near_exact"`);
  }
}
