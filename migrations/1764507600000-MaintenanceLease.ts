import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `maintenance_lease`: who may run a piece of upkeep (the reconciler's pass, an experiment's metric refresh) now,
 * and until when. A lease, unlike a lock of a transaction held open, holds no connection while its holder works,
 * and lapses on its own when the holder stops renewing it.
 */
export class MaintenanceLease1764507600000 implements MigrationInterface {
  name = "MaintenanceLease1764507600000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "maintenance_lease" ("name" character varying(200) NOT NULL, "holder" character varying(200) NOT NULL,
        "until" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_maintenance_lease" PRIMARY KEY ("name"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "maintenance_lease"`);
  }
}
