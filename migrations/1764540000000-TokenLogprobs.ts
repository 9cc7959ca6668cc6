import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `completion.token_logprobs`: a LOGPROB answer's per-token values (the compact `TokenLogprobs` JSON scoring needs),
 * kept whole in their own column whatever the text's length; `output` holds a short note and stays under the cap
 * every answer has. Answers stored before it keep their payload in `output`, which the report still reads.
 */
export class TokenLogprobs1764540000000 implements MigrationInterface {
  name = "TokenLogprobs1764540000000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "completion" ADD "token_logprobs" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "completion" DROP COLUMN "token_logprobs"`);
  }
}
