import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `provider_batch.submit_failures`: how many times sending a batch failed. A batch the provider refuses (a
 * server without a Batch API answers HTTP 400 or 404), or that failed as many times as the provider's batch
 * attempts, is given up: its requests go online or fail, by the provider's `fallback`, instead of being sent again
 * every few seconds for ever.
 */
export class BatchSubmitFailures1764514800000 implements MigrationInterface {
  name = "BatchSubmitFailures1764514800000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "provider_batch" ADD "submit_failures" integer NOT NULL DEFAULT 0`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "provider_batch" DROP COLUMN "submit_failures"`);
  }
}
