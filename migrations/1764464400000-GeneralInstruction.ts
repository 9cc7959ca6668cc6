import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The general-instruction setting (a control: Time Travel's general instruction, without dataset or split) as a
 * value of `run.setting`.
 */
export class GeneralInstruction1764464400000 implements MigrationInterface {
  name = "GeneralInstruction1764464400000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TYPE "public"."run_setting_enum" ADD VALUE IF NOT EXISTS 'GENERAL_INSTRUCTION'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const [{ used }] = await queryRunner.query(
      `SELECT count(*)::int AS used FROM run WHERE setting::text = 'GENERAL_INSTRUCTION'`,
    );
    if (used > 0)
      throw new Error(`${used} run(s) use the GENERAL_INSTRUCTION setting: delete them before reverting`);
    await queryRunner.query(`ALTER TYPE "public"."run_setting_enum" RENAME TO "run_setting_enum_old"`);
    await queryRunner.query(
      `CREATE TYPE "public"."run_setting_enum" AS ENUM('FULL_INFORMATION', 'SEGMENT_PAIRS_AND_LABELS', 'ONLY_SEGMENT_PAIRS')`,
    );
    await queryRunner.query(
      `ALTER TABLE "run" ALTER COLUMN "setting" TYPE "public"."run_setting_enum" USING "setting"::text::"public"."run_setting_enum"`,
    );
    await queryRunner.query(`DROP TYPE "public"."run_setting_enum_old"`);
  }
}
