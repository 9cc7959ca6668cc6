import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * An experiment's runs by kind: the report reads one kind of an experiment's runs at a time (its quiz runs, its
 * performance runs), which at 50,000 memorization runs scanned every run of the experiment for none.
 */
export class RunExperimentKind1764532800000 implements MigrationInterface {
  name = "RunExperimentKind1764532800000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_run_experiment"`);
    await queryRunner.query(`CREATE INDEX "IDX_run_experiment" ON "run" ("experiment_id", "kind") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_run_experiment"`);
    await queryRunner.query(`CREATE INDEX "IDX_run_experiment" ON "run" ("experiment_id") `);
  }
}
