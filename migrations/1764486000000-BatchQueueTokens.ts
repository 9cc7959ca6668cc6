import { MigrationInterface, QueryRunner } from "typeorm";

/** `provider_batch.tokens`: its requests' prompt tokens, which a provider's batch queue limit counts. */
export class BatchQueueTokens1764486000000 implements MigrationInterface {
  name = "BatchQueueTokens1764486000000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "provider_batch" ADD "tokens" bigint NOT NULL DEFAULT '0'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "provider_batch" DROP COLUMN "tokens"`);
  }
}
