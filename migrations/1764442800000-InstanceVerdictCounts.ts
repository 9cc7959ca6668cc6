import { MigrationInterface, QueryRunner } from "typeorm";
import { FUNCTION as PREVIOUS_FUNCTION } from "./1764435600000-HonestVerdicts";

/**
 * The same trigger as before (effective verdicts, per-run counts), now also keeping per-instance counts of each
 * experiment's memorization cells (sample x setting x k): the unit of the paired tests, cluster intervals and the
 * contamination subset, read as a few rows per instance instead of a scan of every completion.
 */
export const FUNCTION = `
  CREATE OR REPLACE FUNCTION memicl_apply_judgment() RETURNS trigger LANGUAGE plpgsql AS $fn$
  DECLARE
    previous varchar(20);
    owner uuid;
    instance bigint;
    cell record;
  BEGIN
    SELECT effective_verdict, run_id, sampled_instance_id INTO previous, owner, instance
    FROM completion WHERE id = NEW.completion_id FOR UPDATE;
    IF NEW.judge_kind <> 'HUMAN' AND EXISTS (
      SELECT 1 FROM judgment WHERE completion_id = NEW.completion_id AND judge_kind = 'HUMAN' AND id <> NEW.id
    ) THEN
      RETURN NULL;
    END IF;
    -- An unreadable automatic verdict never hides a readable one; it stays in the history.
    IF NEW.judge_kind <> 'HUMAN' AND NEW.verdict = 'UNPARSEABLE' AND previous IS NOT NULL AND previous <> 'UNPARSEABLE' THEN
      RETURN NULL;
    END IF;
    IF previous IS DISTINCT FROM NEW.verdict::text THEN
      UPDATE completion SET effective_verdict = NEW.verdict::text WHERE id = NEW.completion_id;
      IF previous IS NOT NULL THEN
        UPDATE run_verdict_count SET count = count - 1 WHERE run_id = owner AND verdict = previous;
      END IF;
      INSERT INTO run_verdict_count (run_id, verdict, count) VALUES (owner, NEW.verdict::text, 1)
      ON CONFLICT (run_id, verdict) DO UPDATE SET count = run_verdict_count.count + 1;
      SELECT experiment_id, sample_id, setting::text AS setting, shots INTO cell
      FROM run WHERE id = owner AND kind = 'MEMORIZATION' AND experiment_id IS NOT NULL;
      IF FOUND THEN
        INSERT INTO instance_verdict_count AS v
          (experiment_id, sample_id, setting, shots, sampled_instance_id, exact, near_exact, inexact)
        VALUES (cell.experiment_id, cell.sample_id, cell.setting, cell.shots, instance,
          CASE WHEN NEW.verdict = 'EXACT' THEN 1 ELSE 0 END,
          CASE WHEN NEW.verdict = 'NEAR_EXACT' THEN 1 ELSE 0 END,
          CASE WHEN NEW.verdict = 'INEXACT' THEN 1 ELSE 0 END)
        ON CONFLICT (experiment_id, sample_id, setting, shots, sampled_instance_id) DO UPDATE SET
          exact = v.exact + EXCLUDED.exact - CASE WHEN previous = 'EXACT' THEN 1 ELSE 0 END,
          near_exact = v.near_exact + EXCLUDED.near_exact - CASE WHEN previous = 'NEAR_EXACT' THEN 1 ELSE 0 END,
          inexact = v.inexact + EXCLUDED.inexact - CASE WHEN previous = 'INEXACT' THEN 1 ELSE 0 END;
      END IF;
    END IF;
    RETURN NULL;
  END
  $fn$`;

export class InstanceVerdictCounts1764442800000 implements MigrationInterface {
  name = "InstanceVerdictCounts1764442800000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "instance_verdict_count" ("experiment_id" uuid NOT NULL, "sample_id" uuid NOT NULL,
        "setting" character varying(30) NOT NULL, "shots" integer NOT NULL, "sampled_instance_id" bigint NOT NULL,
        "exact" integer NOT NULL DEFAULT 0, "near_exact" integer NOT NULL DEFAULT 0, "inexact" integer NOT NULL DEFAULT 0,
        CONSTRAINT "PK_instance_verdict_count" PRIMARY KEY ("experiment_id", "sample_id", "setting", "shots", "sampled_instance_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "instance_verdict_count" ADD CONSTRAINT "FK_instance_verdict_count_experiment" FOREIGN KEY ("experiment_id") REFERENCES "experiment"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(FUNCTION);
    // The counts of the judgments made before this migration.
    await queryRunner.query(`
      INSERT INTO instance_verdict_count (experiment_id, sample_id, setting, shots, sampled_instance_id, exact, near_exact, inexact)
      SELECT r.experiment_id, r.sample_id, r.setting::text, r.shots, c.sampled_instance_id,
             count(*) FILTER (WHERE c.effective_verdict = 'EXACT'),
             count(*) FILTER (WHERE c.effective_verdict = 'NEAR_EXACT'),
             count(*) FILTER (WHERE c.effective_verdict = 'INEXACT')
      FROM completion c JOIN run r ON r.id = c.run_id
      WHERE r.kind = 'MEMORIZATION' AND r.experiment_id IS NOT NULL AND c.effective_verdict IS NOT NULL
      GROUP BY r.experiment_id, r.sample_id, r.setting, r.shots, c.sampled_instance_id`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(PREVIOUS_FUNCTION(true));
    await queryRunner.query(`DROP TABLE "instance_verdict_count"`);
  }
}
