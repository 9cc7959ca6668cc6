import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A finished run (succeeded, failed, cancelled) waits for nothing: whatever statement finishes it, or writes a
 * reason after it finished, its waiting reason is cleared. After a study, 27 of 42 succeeded runs still said
 * "waiting for the tokens-per-minute limit". A run paused by its budget keeps the reason it was paused for.
 */
export class FinishedRunsWaitNoMore1764511200000 implements MigrationInterface {
  name = "FinishedRunsWaitNoMore1764511200000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION run_finished_waits_no_more() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status IN ('SUCCEEDED', 'FAILED', 'CANCELLED') AND NEW.waiting_reason IS NOT NULL THEN
          NEW.waiting_reason := NULL;
        END IF;
        RETURN NEW;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER run_finished_waits_no_more BEFORE UPDATE OF status, waiting_reason ON run
      FOR EACH ROW EXECUTE FUNCTION run_finished_waits_no_more()`);
    await queryRunner.query(
      `UPDATE run SET waiting_reason = NULL
       WHERE status IN ('SUCCEEDED', 'FAILED', 'CANCELLED') AND waiting_reason IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DROP TRIGGER run_finished_waits_no_more ON run");
    await queryRunner.query("DROP FUNCTION run_finished_waits_no_more()");
  }
}
