import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `run.updated_at` becomes `lastUpdatedAt`: every update of a run row (progress counts, status, errors, waiting
 * reasons, and the touch that reviews and rejudges make) sets it, so a polling dashboard refetches only what changed.
 */
export class RunLastUpdated1764450000000 implements MigrationInterface {
  name = "RunLastUpdated1764450000000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE run SET updated_at = greatest(created_at, coalesce(started_at, created_at), coalesce(finished_at, created_at))`,
    );
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION memicl_touch_run() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        NEW.updated_at := clock_timestamp();
        RETURN NEW;
      END
      $fn$`);
    await queryRunner.query(
      `CREATE TRIGGER "TR_run_touch" BEFORE UPDATE ON "run" FOR EACH ROW EXECUTE FUNCTION memicl_touch_run()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TR_run_touch" ON "run"`);
    await queryRunner.query("DROP FUNCTION memicl_touch_run()");
  }
}
