import { MigrationInterface, QueryRunner } from "typeorm";

export class SampleContentHashAndPromptName1764421200000 implements MigrationInterface {
  name = "SampleContentHashAndPromptName1764421200000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dataset" ADD "prompt_name" character varying(200)`);
    await queryRunner.query(`ALTER TABLE "sample" ADD "content_hash" character(64) NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sample" DROP COLUMN "content_hash"`);
    await queryRunner.query(`ALTER TABLE "dataset" DROP COLUMN "prompt_name"`);
  }
}
