import { MigrationInterface, QueryRunner } from "typeorm";

/** `sample.min_target_words`: design version 3's fewest words of a reference (null for samples drawn before). */
export class SampleMinTargetWords1764471600000 implements MigrationInterface {
  name = "SampleMinTargetWords1764471600000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sample" ADD "min_target_words" integer`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sample" DROP COLUMN "min_target_words"`);
  }
}
