import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Budgets: `max_cost_usd` on an experiment and on a run; a run the budget stopped is `PAUSED_BUDGET`; a claimed
 * completion holds its call's worst-case cost (`reserved_usd`) while `reserved_token` is its lease token, so a
 * hold ends with the claim (stored, failed, released, or lapsed) without a statement of its own.
 */
export class Budgets1764478800000 implements MigrationInterface {
  name = "Budgets1764478800000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TYPE "public"."run_status_enum" ADD VALUE IF NOT EXISTS 'PAUSED_BUDGET'`);
    await queryRunner.query(`ALTER TABLE "run" ADD "max_cost_usd" numeric(14,6)`);
    await queryRunner.query(`ALTER TABLE "experiment" ADD "max_cost_usd" numeric(14,6)`);
    await queryRunner.query(`ALTER TABLE "completion" ADD "reserved_usd" numeric(12,8)`);
    await queryRunner.query(`ALTER TABLE "completion" ADD "reserved_token" uuid`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "completion" DROP COLUMN "reserved_token"`);
    await queryRunner.query(`ALTER TABLE "completion" DROP COLUMN "reserved_usd"`);
    await queryRunner.query(`ALTER TABLE "experiment" DROP COLUMN "max_cost_usd"`);
    await queryRunner.query(`ALTER TABLE "run" DROP COLUMN "max_cost_usd"`);
    await queryRunner.query(`UPDATE "run" SET "status" = 'CANCELLED' WHERE "status" = 'PAUSED_BUDGET'`);
    await queryRunner.query(`ALTER TYPE "public"."run_status_enum" RENAME TO "run_status_enum_old"`);
    await queryRunner.query(
      `CREATE TYPE "public"."run_status_enum" AS ENUM('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED')`,
    );
    await queryRunner.query(`ALTER TABLE "run" ALTER COLUMN "status" DROP DEFAULT`);
    await queryRunner.query(
      `ALTER TABLE "run" ALTER COLUMN "status" TYPE "public"."run_status_enum" USING "status"::"text"::"public"."run_status_enum"`,
    );
    await queryRunner.query(`ALTER TABLE "run" ALTER COLUMN "status" SET DEFAULT 'QUEUED'`);
    await queryRunner.query(`DROP TYPE "public"."run_status_enum_old"`);
  }
}
