import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The Data Contamination Quiz as runs: option sets (a sample's generated options by one generator and prompt
 * version) with one row of options per instance, and on `run` the option set a quiz shows and where the original
 * sits (`quiz_position`, null for the bias detector quiz). Two run kinds: QUIZ_OPTIONS and QUIZ.
 */
export class QuizRuns1764489600000 implements MigrationInterface {
  name = "QuizRuns1764489600000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "quiz_option_set" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "sample_id" uuid NOT NULL, "provider" character varying(100) NOT NULL, "model" character varying(200) NOT NULL, "template_version" integer NOT NULL, "max_generations" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a73ee2c2781ff28cbc38fc0efb7" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_quiz_option_set_generator" ON "quiz_option_set"  ("sample_id", "provider", "model", "template_version", "max_generations") `,
    );
    await queryRunner.query(
      `CREATE TABLE "quiz_option" ("id" BIGSERIAL NOT NULL, "option_set_id" uuid NOT NULL, "sampled_instance_id" bigint NOT NULL, "completion_id" bigint NOT NULL, "options" jsonb NOT NULL, "generations" integer NOT NULL, "valid" boolean NOT NULL, "final" boolean NOT NULL, "problems" jsonb NOT NULL DEFAULT '[]', "rejections" jsonb NOT NULL DEFAULT '[]', CONSTRAINT "PK_79f04c20187d85a8cc959ae57c0" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_quiz_option_instance" ON "quiz_option"  ("option_set_id", "sampled_instance_id") `,
    );
    await queryRunner.query(`ALTER TABLE "run" ADD "option_set_id" uuid`);
    await queryRunner.query(`ALTER TABLE "run" ADD "quiz_position" character varying(1)`);
    await queryRunner.query(`ALTER TYPE "public"."run_kind_enum" ADD VALUE 'QUIZ_OPTIONS'`);
    await queryRunner.query(`ALTER TYPE "public"."run_kind_enum" ADD VALUE 'QUIZ'`);
    await queryRunner.query(
      `ALTER TABLE "quiz_option_set" ADD CONSTRAINT "FK_a6bce1d4b17fdd8607ebff2ea9a" FOREIGN KEY ("sample_id") REFERENCES "sample"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "quiz_option" ADD CONSTRAINT "FK_46b9d3c0034def20c64e51c6a92" FOREIGN KEY ("option_set_id") REFERENCES "quiz_option_set"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "run" ADD CONSTRAINT "FK_b4a218af7fe677aefd07f67aeb3" FOREIGN KEY ("option_set_id") REFERENCES "quiz_option_set"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_run_option_set" ON "run" ("option_set_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_run_option_set"`);
    await queryRunner.query(`ALTER TABLE "run" DROP CONSTRAINT "FK_b4a218af7fe677aefd07f67aeb3"`);
    await queryRunner.query(`DELETE FROM "run" WHERE "kind" IN ('QUIZ_OPTIONS', 'QUIZ')`);
    await queryRunner.query(`DROP INDEX "public"."IDX_run_sample"`);
    await queryRunner.query(
      `CREATE TYPE "public"."run_kind_enum_old" AS ENUM('MEMORIZATION', 'PERFORMANCE')`,
    );
    await queryRunner.query(
      `ALTER TABLE "run" ALTER COLUMN "kind" TYPE "public"."run_kind_enum_old" USING "kind"::"text"::"public"."run_kind_enum_old"`,
    );
    await queryRunner.query(`DROP TYPE "public"."run_kind_enum"`);
    await queryRunner.query(`ALTER TYPE "public"."run_kind_enum_old" RENAME TO "run_kind_enum"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_run_sample" ON "run" USING btree ("sample_id", "kind", "shots") `,
    );
    await queryRunner.query(`ALTER TABLE "run" DROP COLUMN "quiz_position"`);
    await queryRunner.query(`ALTER TABLE "run" DROP COLUMN "option_set_id"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_quiz_option_instance"`);
    await queryRunner.query(`DROP TABLE "quiz_option"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_quiz_option_set_generator"`);
    await queryRunner.query(`DROP TABLE "quiz_option_set"`);
  }
}
