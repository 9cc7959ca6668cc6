import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Batch execution: `provider_batch` (one batch of a run's calls at the provider, memicl's id in its metadata);
 * `completion.batch_id` (the batch an item is in) and `batch_attempts` (batches it went into);
 * `run.batch_attempts` (batches an item may go through; 0 for an online run).
 */
export class ProviderBatches1764482400000 implements MigrationInterface {
  name = "ProviderBatches1764482400000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TYPE "public"."provider_batch_state_enum" AS ENUM('PREPARING', 'SUBMITTED', 'CANCELLING', 'COLLECTED')`,
    );
    await queryRunner.query(
      `CREATE TABLE "provider_batch" ("id" uuid NOT NULL, "run_id" uuid NOT NULL, "provider" character varying(100) NOT NULL, "state" "public"."provider_batch_state_enum" NOT NULL DEFAULT 'PREPARING', "provider_batch_id" character varying(200), "provider_status" character varying(50), "request_count" integer NOT NULL, "completed_count" integer NOT NULL DEFAULT '0', "failed_count" integer NOT NULL DEFAULT '0', "bytes" integer NOT NULL DEFAULT '0', "owner" uuid, "lease_until" TIMESTAMP WITH TIME ZONE, "next_poll_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "poll_seconds" double precision NOT NULL DEFAULT '0', "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "submitted_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9ce13c55a6561be355a89937e95" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_provider_batch_open" ON "provider_batch" ("state", "next_poll_at") `,
    );
    await queryRunner.query(`CREATE INDEX "IDX_provider_batch_run" ON "provider_batch" ("run_id") `);
    await queryRunner.query(`ALTER TABLE "run" ADD "batch_attempts" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "completion" ADD "batch_id" uuid`);
    await queryRunner.query(`ALTER TABLE "completion" ADD "batch_attempts" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(
      `CREATE INDEX "IDX_completion_batch" ON "completion" ("batch_id") WHERE batch_id IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "provider_batch" ADD CONSTRAINT "FK_ffdd2e11a216c86bb90efe17381" FOREIGN KEY ("run_id") REFERENCES "run"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "provider_batch" DROP CONSTRAINT "FK_ffdd2e11a216c86bb90efe17381"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_completion_batch"`);
    await queryRunner.query(`ALTER TABLE "completion" DROP COLUMN "batch_attempts"`);
    await queryRunner.query(`ALTER TABLE "completion" DROP COLUMN "batch_id"`);
    await queryRunner.query(`ALTER TABLE "run" DROP COLUMN "batch_attempts"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_provider_batch_run"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_provider_batch_open"`);
    await queryRunner.query(`DROP TABLE "provider_batch"`);
    await queryRunner.query(`DROP TYPE "public"."provider_batch_state_enum"`);
  }
}
