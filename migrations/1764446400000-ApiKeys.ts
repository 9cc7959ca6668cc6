import { MigrationInterface, QueryRunner } from "typeorm";

/** API keys: a name, a role, the SHA-256 of the secret (never the secret), and when it was revoked. */
export class ApiKeys1764446400000 implements MigrationInterface {
  name = "ApiKeys1764446400000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "api_key" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(100) NOT NULL,
        "role" character varying(20) NOT NULL, "key_hash" character(64) NOT NULL, "prefix" character varying(20) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP WITH TIME ZONE,
        "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_api_key" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_api_key_hash" ON "api_key" ("key_hash")`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_api_key_live_name" ON "api_key" ("name") WHERE "revoked_at" IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "api_key"`);
  }
}
