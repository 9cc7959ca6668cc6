import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `provider_rate_bucket.waiting_until`: when a request a limit held back last expected its slot, so that any
 * process can say what a provider's runs wait for, and until when.
 */
export class RateLimitWaits1764457200000 implements MigrationInterface {
  name = "RateLimitWaits1764457200000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "provider_rate_bucket" ADD "waiting_until" TIMESTAMP WITH TIME ZONE`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "provider_rate_bucket" DROP COLUMN "waiting_until"`);
  }
}
