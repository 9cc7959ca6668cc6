import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `provider_call_slot`: the calls in flight of a provider whose `maxConcurrencyScope` is `database`, one row per
 * slot, leased by the process that calls (the lease lapses if it dies), so that `maxConcurrency` holds across every
 * process on the database.
 */
export class ProviderCallSlots1764460800000 implements MigrationInterface {
  name = "ProviderCallSlots1764460800000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "provider_call_slot" ("provider" character varying(100) NOT NULL, "slot" integer NOT NULL, "token" uuid, "until" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_provider_call_slot" PRIMARY KEY ("provider", "slot"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "provider_call_slot"`);
  }
}
