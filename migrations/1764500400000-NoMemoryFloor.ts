import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `no_memory_floor`: each sampled instance's no-memory floor, stored once per sample and floor rule with the
 * dataset's size it was computed at, instead of computed again by every process's first report.
 */
export class NoMemoryFloor1764500400000 implements MigrationInterface {
  name = "NoMemoryFloor1764500400000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "no_memory_floor" ("sample_id" uuid NOT NULL, "version" character varying(20) NOT NULL,
        "sampled_instance_id" bigint NOT NULL, "dataset_instance_count" integer NOT NULL, "memorized" boolean NOT NULL,
        "strategy" character varying(10), "computed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_no_memory_floor" PRIMARY KEY ("sample_id", "version", "sampled_instance_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "no_memory_floor" ADD CONSTRAINT "FK_no_memory_floor_sample" FOREIGN KEY ("sample_id") REFERENCES "sample"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "no_memory_floor"`);
  }
}
