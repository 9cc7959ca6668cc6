import { MigrationInterface, QueryRunner } from "typeorm";

/** The TS-Guessing method's runs: each instance with one content word masked, the model asked for it. */
export class GuessingRuns1764550800000 implements MigrationInterface {
  name = "GuessingRuns1764550800000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TYPE "public"."run_kind_enum" ADD VALUE IF NOT EXISTS 'GUESSING'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "run" WHERE "kind" = 'GUESSING'`);
    await queryRunner.query(`DROP INDEX "public"."IDX_run_sample"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_run_experiment"`);
    await queryRunner.query(
      `CREATE TYPE "public"."run_kind_enum_old" AS ENUM('MEMORIZATION', 'PERFORMANCE', 'QUIZ_OPTIONS', 'QUIZ', 'LOGPROB', 'CONTINUATION')`,
    );
    await queryRunner.query(
      `ALTER TABLE "run" ALTER COLUMN "kind" TYPE "public"."run_kind_enum_old" USING "kind"::"text"::"public"."run_kind_enum_old"`,
    );
    await queryRunner.query(`DROP TYPE "public"."run_kind_enum"`);
    await queryRunner.query(`ALTER TYPE "public"."run_kind_enum_old" RENAME TO "run_kind_enum"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_run_sample" ON "run" USING btree ("sample_id", "kind", "shots") `,
    );
    await queryRunner.query(`CREATE INDEX "IDX_run_experiment" ON "run" ("experiment_id", "kind") `);
  }
}
