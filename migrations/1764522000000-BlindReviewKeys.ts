import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Blind reviewers: a reviewer's key may be blind, and its queries then reach only what reviewing needs (the
 * prompt's texts, the answer, the reference), never an automatic verdict, another reviewer's, or the model.
 */
export class BlindReviewKeys1764522000000 implements MigrationInterface {
  name = "BlindReviewKeys1764522000000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_key" ADD "blind" boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_key" DROP COLUMN "blind"`);
  }
}
