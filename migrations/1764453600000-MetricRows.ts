import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `metric` rows belong to an experiment: the study report of that experiment as flat rows, rewritten when its
 * results change. `metric_state` records which state of the experiment's runs the rows were computed from.
 */
export class MetricRows1764453600000 implements MigrationInterface {
  name = "MetricRows1764453600000";

  async up(queryRunner: QueryRunner): Promise<void> {
    // Nothing wrote the table before this migration.
    await queryRunner.query(`DELETE FROM "metric"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_metric_name"`);
    await queryRunner.query(`ALTER TABLE "metric" ADD "experiment_id" uuid NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "metric" ADD CONSTRAINT "FK_metric_experiment" FOREIGN KEY ("experiment_id") REFERENCES "experiment"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_metric_experiment" ON "metric" ("experiment_id", "name", "id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "metric_state" ("experiment_id" uuid NOT NULL, "fingerprint" text NOT NULL, "computed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "rows" integer NOT NULL, CONSTRAINT "PK_metric_state" PRIMARY KEY ("experiment_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "metric_state" ADD CONSTRAINT "FK_metric_state_experiment" FOREIGN KEY ("experiment_id") REFERENCES "experiment"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "metric_state"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_metric_experiment"`);
    await queryRunner.query(`ALTER TABLE "metric" DROP CONSTRAINT "FK_metric_experiment"`);
    await queryRunner.query(`ALTER TABLE "metric" DROP COLUMN "experiment_id"`);
    await queryRunner.query(`CREATE INDEX "IDX_metric_name" ON "metric" ("name", "computed_at")`);
  }
}
