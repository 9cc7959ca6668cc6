import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `completion.lease_renewed_at`: when the lease was last taken or renewed. A lapsed lease is taken from its owner
 * only if the owner has beaten since without renewing it (it let the item go) or is gone: a worker whose beat is
 * late (a starved process) keeps its items until it is declared dead, so the call it is making is not made again.
 * Leases taken before this column lapse as before.
 */
export class LeaseRenewedAt1764496800000 implements MigrationInterface {
  name = "LeaseRenewedAt1764496800000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "completion" ADD "lease_renewed_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "completion" DROP COLUMN "lease_renewed_at"`);
  }
}
