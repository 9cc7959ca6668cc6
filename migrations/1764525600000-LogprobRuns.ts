import { MigrationInterface, QueryRunner } from "typeorm";

/** The LOGPROB method's runs: the log-probability of each token of an instance's text, no answer generated. */
export class LogprobRuns1764525600000 implements MigrationInterface {
  name = "LogprobRuns1764525600000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TYPE "public"."run_kind_enum" ADD VALUE IF NOT EXISTS 'LOGPROB'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "run" WHERE "kind" = 'LOGPROB'`);
    await queryRunner.query(`DROP INDEX "public"."IDX_run_sample"`);
    await queryRunner.query(
      `CREATE TYPE "public"."run_kind_enum_old" AS ENUM('MEMORIZATION', 'PERFORMANCE', 'QUIZ_OPTIONS', 'QUIZ')`,
    );
    await queryRunner.query(
      `ALTER TABLE "run" ALTER COLUMN "kind" TYPE "public"."run_kind_enum_old" USING "kind"::"text"::"public"."run_kind_enum_old"`,
    );
    await queryRunner.query(`DROP TYPE "public"."run_kind_enum"`);
    await queryRunner.query(`ALTER TYPE "public"."run_kind_enum_old" RENAME TO "run_kind_enum"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_run_sample" ON "run" USING btree ("sample_id", "kind", "shots") `,
    );
  }
}
