import { MigrationInterface, QueryRunner } from "typeorm";

/** Workers register and beat; a completion's lease names the worker holding it. */
export class Workers1764432000000 implements MigrationInterface {
  name = "Workers1764432000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "worker" ("id" uuid NOT NULL, "host" character varying(255) NOT NULL, "pid" integer NOT NULL, "role" character varying(20) NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "concurrency" integer NOT NULL, "providers" text array NOT NULL, "in_flight" integer NOT NULL DEFAULT '0', "run_ids" uuid array NOT NULL DEFAULT '{}', "code_version" character varying(100) NOT NULL, CONSTRAINT "PK_dc8175fa0e34ce7a39e4ec73b94" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_worker_last_seen" ON "worker" ("last_seen_at") `);
    await queryRunner.query(`ALTER TABLE "completion" ADD "lease_owner" uuid`);
    await queryRunner.query(`ALTER TABLE "run" ADD "waiting_reason" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "run" DROP COLUMN "waiting_reason"`);
    await queryRunner.query(`ALTER TABLE "completion" DROP COLUMN "lease_owner"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_worker_last_seen"`);
    await queryRunner.query(`DROP TABLE "worker"`);
  }
}
