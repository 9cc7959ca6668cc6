import { MigrationInterface, QueryRunner } from "typeorm";

export class EffectiveVerdicts1764428400000 implements MigrationInterface {
  name = "EffectiveVerdicts1764428400000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "run_verdict_count" ("run_id" uuid NOT NULL, "verdict" character varying(20) NOT NULL, "count" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_fc12a88a8462f5a644536ab7880" PRIMARY KEY ("run_id", "verdict"))`,
    );
    await queryRunner.query(`ALTER TABLE "completion" ADD "effective_verdict" character varying(20)`);
    await queryRunner.query(
      `ALTER TABLE "run_verdict_count" ADD CONSTRAINT "FK_d3160b3c216d2fce677a0c1fffb" FOREIGN KEY ("run_id") REFERENCES "run"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // Keeps completion.effective_verdict and run_verdict_count up to date on every new judgment: a human
    // judgment always becomes effective; an automatic one does unless a human has judged the completion.
    await queryRunner.query(`
          CREATE FUNCTION memicl_apply_judgment() RETURNS trigger LANGUAGE plpgsql AS $fn$
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
          $fn$`);
    await queryRunner.query(
      `CREATE TRIGGER "TR_judgment_effective" AFTER INSERT ON "judgment" FOR EACH ROW EXECUTE FUNCTION memicl_apply_judgment()`,
    );
    // Judgments made before this migration.
    await queryRunner.query(`
          UPDATE completion c SET effective_verdict = (
            SELECT j.verdict::text FROM judgment j WHERE j.completion_id = c.id
            ORDER BY (j.judge_kind = 'HUMAN') DESC, j.created_at DESC, j.id DESC LIMIT 1)
          WHERE EXISTS (SELECT 1 FROM judgment j WHERE j.completion_id = c.id)`);
    await queryRunner.query(`
          INSERT INTO run_verdict_count (run_id, verdict, count)
          SELECT run_id, effective_verdict, count(*) FROM completion WHERE effective_verdict IS NOT NULL GROUP BY run_id, effective_verdict`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TR_judgment_effective" ON "judgment"`);
    await queryRunner.query(`DROP FUNCTION memicl_apply_judgment()`);
    await queryRunner.query(
      `ALTER TABLE "run_verdict_count" DROP CONSTRAINT "FK_d3160b3c216d2fce677a0c1fffb"`,
    );
    await queryRunner.query(`ALTER TABLE "completion" DROP COLUMN "effective_verdict"`);
    await queryRunner.query(`DROP TABLE "run_verdict_count"`);
  }
}
