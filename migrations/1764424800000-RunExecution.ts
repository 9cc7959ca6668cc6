import { MigrationInterface, QueryRunner } from "typeorm";

export class RunExecution1764424800000 implements MigrationInterface {
  name = "RunExecution1764424800000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "provider_rate_bucket" ("provider" character varying(100) NOT NULL, "kind" character varying(20) NOT NULL, "capacity" double precision NOT NULL, "available" double precision NOT NULL, "refill_per_second" double precision NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_e6f5b312ae0a5369c30bae52d2e" PRIMARY KEY ("provider", "kind"))`,
    );
    await queryRunner.query(`ALTER TABLE "run" ADD "consecutive_failures" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "run" ADD "parameters" jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "completion" ADD "lease_token" uuid`);
    await queryRunner.query(`ALTER TABLE "completion" ADD "lease_until" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "completion" ADD "cost_usd" numeric(12,8)`);
    await queryRunner.query(
      `ALTER TYPE "public"."completion_status_enum" ADD VALUE 'RUNNING' AFTER 'PENDING'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_sampled_instance_initial_md5" ON "sampled_instance" (md5("initial_segment"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_sampled_instance_initial_md5"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_completion_run_status"`);
    await queryRunner.query(
      `CREATE TYPE "public"."completion_status_enum_old" AS ENUM('PENDING', 'SUCCEEDED', 'FAILED')`,
    );
    // A claimed completion goes back to waiting; its lease columns go below.
    await queryRunner.query(`UPDATE "completion" SET "status" = 'PENDING' WHERE "status" = 'RUNNING'`);
    await queryRunner.query(`ALTER TABLE "completion" ALTER COLUMN "status" DROP DEFAULT`);
    await queryRunner.query(
      `ALTER TABLE "completion" ALTER COLUMN "status" TYPE "public"."completion_status_enum_old" USING "status"::"text"::"public"."completion_status_enum_old"`,
    );
    await queryRunner.query(`ALTER TABLE "completion" ALTER COLUMN "status" SET DEFAULT 'PENDING'`);
    await queryRunner.query(`DROP TYPE "public"."completion_status_enum"`);
    await queryRunner.query(
      `ALTER TYPE "public"."completion_status_enum_old" RENAME TO "completion_status_enum"`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_completion_run_status" ON "completion" USING btree ("run_id", "status") `,
    );
    await queryRunner.query(`ALTER TABLE "completion" DROP COLUMN "cost_usd"`);
    await queryRunner.query(`ALTER TABLE "completion" DROP COLUMN "lease_until"`);
    await queryRunner.query(`ALTER TABLE "completion" DROP COLUMN "lease_token"`);
    await queryRunner.query(`ALTER TABLE "run" DROP COLUMN "parameters"`);
    await queryRunner.query(`ALTER TABLE "run" DROP COLUMN "consecutive_failures"`);
    await queryRunner.query(`DROP TABLE "provider_rate_bucket"`);
  }
}
