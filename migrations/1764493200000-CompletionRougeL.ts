import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `completion.rouge_l`: a memorization answer's ROUGE-L F against its reference (Time Travel's Algorithm 1 score),
 * stored with the answer. Answers stored before it keep null, and the report computes theirs when it reads them.
 */
export class CompletionRougeL1764493200000 implements MigrationInterface {
  name = "CompletionRougeL1764493200000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "completion" ADD "rouge_l" real`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "completion" DROP COLUMN "rouge_l"`);
  }
}
