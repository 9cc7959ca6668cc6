import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The waiting items in id order, for the reconciler's bounded passes: a pass reads a slice of the backlog from
 * where the last one stopped, instead of the whole backlog each beat (140,000 queued items kept PostgreSQL at
 * half a core).
 */
export class PendingIndex1764518400000 implements MigrationInterface {
  name = "PendingIndex1764518400000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_completion_pending" ON "completion" ("id") WHERE status = 'PENDING'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_completion_pending"`);
  }
}
