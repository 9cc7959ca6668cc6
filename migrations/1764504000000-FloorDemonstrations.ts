import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The no-memory floor's rule floor-3: whether an instance's best no-memory answer is exact (Time Travel's rule
 * counts exact and near-exact apart), and the smallest k whose prompt shows a demonstration whose continuation
 * matches it (a model that copies a shown demonstration). Rows of earlier rules keep both unset.
 */
export class FloorDemonstrations1764504000000 implements MigrationInterface {
  name = "FloorDemonstrations1764504000000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "no_memory_floor" ADD "exact" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "no_memory_floor" ADD "demonstration_shots" integer`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "no_memory_floor" DROP COLUMN "demonstration_shots"`);
    await queryRunner.query(`ALTER TABLE "no_memory_floor" DROP COLUMN "exact"`);
  }
}
