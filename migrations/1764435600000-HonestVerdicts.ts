import { MigrationInterface, QueryRunner } from "typeorm";

export const FUNCTION = (skipUnreadable: boolean) => `
  CREATE OR REPLACE FUNCTION memicl_apply_judgment() RETURNS trigger LANGUAGE plpgsql AS $fn$
  DECLARE
    previous varchar(20);
    owner uuid;
  BEGIN
    SELECT effective_verdict, run_id INTO previous, owner FROM completion WHERE id = NEW.completion_id FOR UPDATE;
    IF NEW.judge_kind <> 'HUMAN' AND EXISTS (
      SELECT 1 FROM judgment WHERE completion_id = NEW.completion_id AND judge_kind = 'HUMAN' AND id <> NEW.id
    ) THEN
      RETURN NULL;
    END IF;
    ${
      skipUnreadable
        ? `-- An unreadable automatic verdict never hides a readable one; it stays in the history.
    IF NEW.judge_kind <> 'HUMAN' AND NEW.verdict = 'UNPARSEABLE' AND previous IS NOT NULL AND previous <> 'UNPARSEABLE' THEN
      RETURN NULL;
    END IF;`
        : ""
    }
    IF previous IS DISTINCT FROM NEW.verdict::text THEN
      UPDATE completion SET effective_verdict = NEW.verdict::text WHERE id = NEW.completion_id;
      IF previous IS NOT NULL THEN
        UPDATE run_verdict_count SET count = count - 1 WHERE run_id = owner AND verdict = previous;
      END IF;
      INSERT INTO run_verdict_count (run_id, verdict, count) VALUES (owner, NEW.verdict::text, 1)
      ON CONFLICT (run_id, verdict) DO UPDATE SET count = run_verdict_count.count + 1;
    END IF;
    RETURN NULL;
  END
  $fn$`;

/** Recomputes every effective verdict and every run's counts under the rule `readableFirst` says. */
const RECOMPUTE = (readableFirst: boolean) => [
  `UPDATE completion c SET effective_verdict = (
     SELECT j.verdict::text FROM judgment j WHERE j.completion_id = c.id
     ORDER BY (j.judge_kind = 'HUMAN') DESC, ${readableFirst ? "(j.verdict <> 'UNPARSEABLE') DESC, " : ""}j.created_at DESC, j.id DESC
     LIMIT 1)
   WHERE EXISTS (SELECT 1 FROM judgment j WHERE j.completion_id = c.id)`,
  "DELETE FROM run_verdict_count",
  `INSERT INTO run_verdict_count (run_id, verdict, count)
   SELECT run_id, effective_verdict, count(*) FROM completion WHERE effective_verdict IS NOT NULL GROUP BY run_id, effective_verdict`,
];

/**
 * The effective verdict is the latest human judgment, else the latest readable automatic one; an
 * UNPARSEABLE judgment is effective only when nothing readable exists.
 */
export class HonestVerdicts1764435600000 implements MigrationInterface {
  name = "HonestVerdicts1764435600000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(FUNCTION(true));
    for (const statement of RECOMPUTE(true)) await queryRunner.query(statement);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(FUNCTION(false));
    for (const statement of RECOMPUTE(false)) await queryRunner.query(statement);
  }
}
