import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Answer extraction before judging: a memorization completion keeps its raw output and the answer extracted from
 * it (with the rule's name); each automatic judgment records the rule it judged by. Older rows keep nulls: they
 * were judged on the raw output, and a rejudge extracts and records.
 */
export class AnswerExtraction1764439200000 implements MigrationInterface {
  name = "AnswerExtraction1764439200000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "completion" ADD "extracted_answer" text`);
    await queryRunner.query(`ALTER TABLE "completion" ADD "extraction_rule" character varying(50)`);
    await queryRunner.query(`ALTER TABLE "judgment" ADD "extraction_rule" character varying(50)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "judgment" DROP COLUMN "extraction_rule"`);
    await queryRunner.query(`ALTER TABLE "completion" DROP COLUMN "extraction_rule"`);
    await queryRunner.query(`ALTER TABLE "completion" DROP COLUMN "extracted_answer"`);
  }
}
