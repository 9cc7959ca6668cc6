import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `dataset.control_of_id`: the dataset a dataset is the control of (data the model cannot have memorized), so
 * the report can set each rate against its control's. Deleting the dataset it controls clears it.
 */
export class ControlDatasets1764468000000 implements MigrationInterface {
  name = "ControlDatasets1764468000000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dataset" ADD "control_of_id" uuid`);
    await queryRunner.query(
      `ALTER TABLE "dataset" ADD CONSTRAINT "FK_47904f222817c7d26700cb9ef25" FOREIGN KEY ("control_of_id") REFERENCES "dataset"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "dataset" DROP CONSTRAINT "FK_47904f222817c7d26700cb9ef25"`);
    await queryRunner.query(`ALTER TABLE "dataset" DROP COLUMN "control_of_id"`);
  }
}
