import { MigrationInterface, QueryRunner } from "typeorm";

export class InitialSchema1764417600000 implements MigrationInterface {
  name = "InitialSchema1764417600000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "experiment" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(200) NOT NULL, "provider" character varying(100) NOT NULL, "model" character varying(200) NOT NULL, "idempotency_key" character varying(200), "parameters" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_5d981f52a45eea6e107a17231f7" UNIQUE ("idempotency_key"), CONSTRAINT "PK_4f6eec215c62eec1e0fde987caf" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE TYPE "public"."dataset_task_kind_enum" AS ENUM('NLI', 'CLASSIFICATION')`);
    await queryRunner.query(
      `CREATE TABLE "dataset" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(200) NOT NULL, "task_kind" "public"."dataset_task_kind_enum" NOT NULL, "text_fields" jsonb NOT NULL, "label_verbalizers" jsonb NOT NULL DEFAULT '[]', "instance_count" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_109fd11edd246e0465d2e7e76a1" UNIQUE ("name"), CONSTRAINT "PK_36c1c67adb3d1dd69ae57f18913" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "sample" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "dataset_id" uuid NOT NULL, "name" character varying(200), "seed" bigint NOT NULL, "instance_split" character varying(50) NOT NULL, "demonstration_split" character varying(50) NOT NULL, "requested_instance_count" integer NOT NULL, "requested_demonstration_count" integer NOT NULL, "shot_counts" jsonb NOT NULL, "cut_min" double precision NOT NULL, "cut_max" double precision NOT NULL, "dataset_fingerprint" character(64) NOT NULL, "parameters_hash" character(64) NOT NULL, "algorithm_version" integer NOT NULL, "notes" jsonb NOT NULL DEFAULT '[]', "exclusions" jsonb NOT NULL DEFAULT '[]', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1e92238b098b5a4d13f6422cba7" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_sample_identity" ON "sample"  ("dataset_id", "dataset_fingerprint", "parameters_hash") `,
    );
    await queryRunner.query(`CREATE TYPE "public"."run_kind_enum" AS ENUM('MEMORIZATION', 'PERFORMANCE')`);
    await queryRunner.query(
      `CREATE TYPE "public"."run_setting_enum" AS ENUM('FULL_INFORMATION', 'SEGMENT_PAIRS_AND_LABELS', 'ONLY_SEGMENT_PAIRS')`,
    );
    await queryRunner.query(
      `CREATE TYPE "public"."run_status_enum" AS ENUM('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED')`,
    );
    await queryRunner.query(
      `CREATE TABLE "run" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "experiment_id" uuid, "sample_id" uuid NOT NULL, "kind" "public"."run_kind_enum" NOT NULL, "setting" "public"."run_setting_enum", "shots" integer NOT NULL, "provider" character varying(100) NOT NULL, "model" character varying(200) NOT NULL, "reported_model" character varying(200), "temperature" double precision NOT NULL DEFAULT '0', "max_output_tokens" integer NOT NULL, "repeats" integer NOT NULL DEFAULT '1', "template_key" character varying(100) NOT NULL, "template_version" integer NOT NULL, "dataset_fingerprint" character(64) NOT NULL, "code_version" character varying(100) NOT NULL, "judge" jsonb NOT NULL DEFAULT '{}', "cache_enabled" boolean NOT NULL DEFAULT true, "status" "public"."run_status_enum" NOT NULL DEFAULT 'QUEUED', "expected_count" integer NOT NULL, "done_count" integer NOT NULL DEFAULT '0', "failed_count" integer NOT NULL DEFAULT '0', "cache_hit_count" integer NOT NULL DEFAULT '0', "prompt_tokens" bigint NOT NULL DEFAULT '0', "completion_tokens" bigint NOT NULL DEFAULT '0', "cached_tokens" bigint NOT NULL DEFAULT '0', "cost_usd" numeric(14,6) NOT NULL DEFAULT '0', "last_error" text, "idempotency_key" character varying(200), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_fd3db8af4c79ef634e89b0bcb8e" UNIQUE ("idempotency_key"), CONSTRAINT "PK_804c38ffba92002c6d2c646dd46" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_run_status" ON "run"  ("status") `);
    await queryRunner.query(`CREATE INDEX "IDX_run_sample" ON "run"  ("sample_id", "kind", "shots") `);
    await queryRunner.query(`CREATE INDEX "IDX_run_experiment" ON "run"  ("experiment_id") `);
    await queryRunner.query(
      `CREATE TABLE "dataset_source" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "dataset_id" uuid NOT NULL, "split" character varying(50) NOT NULL, "format" character varying(10) NOT NULL, "file_name" character varying(500) NOT NULL, "fingerprint" character(64) NOT NULL, "row_count" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b43354fa834a12c05135efc37bf" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_dataset_source_fingerprint" ON "dataset_source"  ("dataset_id", "fingerprint") `,
    );
    await queryRunner.query(
      `CREATE TABLE "instance" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "dataset_id" uuid NOT NULL, "source_id" uuid NOT NULL, "split" character varying(50) NOT NULL, "line" integer NOT NULL, "external_id" character varying(200), "text" text NOT NULL, "second_text" text, "label" character varying(200) NOT NULL, CONSTRAINT "PK_eaf60e4a0c399c9935413e06474" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_instance_dataset_id" ON "instance"  ("dataset_id", "id") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_instance_dataset_split_label" ON "instance"  ("dataset_id", "split", "label", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "sampled_instance" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "sample_id" uuid NOT NULL, "instance_id" bigint NOT NULL, "position" integer NOT NULL, "label" character varying(200) NOT NULL, "initial_segment" text NOT NULL, "subsequent_segment" text NOT NULL, "cut_token_index" integer, "token_count" integer NOT NULL, CONSTRAINT "PK_52ac341a0c0bca0700e3a30edd1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_sampled_instance_instance" ON "sampled_instance"  ("sample_id", "instance_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_sampled_instance_position" ON "sampled_instance"  ("sample_id", "position") `,
    );
    await queryRunner.query(
      `CREATE TYPE "public"."completion_status_enum" AS ENUM('PENDING', 'SUCCEEDED', 'FAILED')`,
    );
    await queryRunner.query(
      `CREATE TABLE "completion" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "run_id" uuid NOT NULL, "sampled_instance_id" bigint NOT NULL, "repeat" integer NOT NULL, "status" "public"."completion_status_enum" NOT NULL DEFAULT 'PENDING', "prompt_hash" character(64), "output" text, "finish_reason" character varying(50), "prompt_tokens" integer, "completion_tokens" integer, "cached_tokens" integer, "latency_ms" integer, "attempts" integer NOT NULL DEFAULT '0', "error" text, "reported_model" character varying(200), "system_fingerprint" character varying(200), "cache_hit" boolean NOT NULL DEFAULT false, "parsed_label" character varying(200), "correct" boolean, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_2c0de9dd4943fffe5936e083748" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_completion_run_status" ON "completion"  ("run_id", "status") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_completion_item" ON "completion"  ("run_id", "sampled_instance_id", "repeat") `,
    );
    await queryRunner.query(
      `CREATE TABLE "demonstration" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "sample_id" uuid NOT NULL, "instance_id" bigint NOT NULL, "rank" integer NOT NULL, "label" character varying(200) NOT NULL, "initial_segment" text NOT NULL, "subsequent_segment" text NOT NULL, "cut_token_index" integer, "token_count" integer NOT NULL, CONSTRAINT "PK_201f764349f1204e2d0188a417c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_demonstration_instance" ON "demonstration"  ("sample_id", "instance_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_demonstration_rank" ON "demonstration"  ("sample_id", "rank") `,
    );
    await queryRunner.query(
      `CREATE TYPE "public"."judgment_verdict_enum" AS ENUM('EXACT', 'NEAR_EXACT', 'INEXACT', 'UNPARSEABLE')`,
    );
    await queryRunner.query(
      `CREATE TYPE "public"."judgment_judge_kind_enum" AS ENUM('LLM', 'HEURISTIC', 'HUMAN')`,
    );
    await queryRunner.query(
      `CREATE TABLE "judgment" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "completion_id" bigint NOT NULL, "verdict" "public"."judgment_verdict_enum" NOT NULL, "judge_kind" "public"."judgment_judge_kind_enum" NOT NULL, "judge_name" character varying(200) NOT NULL, "judge_version" character varying(50), "details" jsonb NOT NULL DEFAULT '{}', "note" text, "supersedes_id" bigint, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_682cce006896f46fbf1198298a0" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_judgment_judge" ON "judgment"  ("judge_kind", "judge_name") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_judgment_completion" ON "judgment"  ("completion_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "response_cache" ("key" character(64) NOT NULL, "provider" character varying(100) NOT NULL, "model" character varying(200) NOT NULL, "response" jsonb NOT NULL, "hit_count" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2a4e478eb2cafe1599c87290d07" PRIMARY KEY ("key"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "metric" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "name" character varying(100) NOT NULL, "scope" jsonb NOT NULL, "value" double precision, "numerator" integer, "denominator" integer, "ci_low" double precision, "ci_high" double precision, "computed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7d24c075ea2926dd32bd1c534ce" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_metric_scope_gin" ON "metric" USING GIN ("scope")`);
    await queryRunner.query(`CREATE INDEX "IDX_metric_name" ON "metric"  ("name", "computed_at") `);
    await queryRunner.query(
      `CREATE TABLE "prompt_template" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "key" character varying(100) NOT NULL, "version" integer NOT NULL, "body" jsonb NOT NULL, "note" character varying(500), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_01a2960dbe949ac6990b0882f90" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_prompt_template_version" ON "prompt_template"  ("key", "version") `,
    );
    await queryRunner.query(
      `ALTER TABLE "sample" ADD CONSTRAINT "FK_b62138f26347b173fe87f4b922e" FOREIGN KEY ("dataset_id") REFERENCES "dataset"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "run" ADD CONSTRAINT "FK_44676dc87e385ef65c7526fb360" FOREIGN KEY ("experiment_id") REFERENCES "experiment"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "run" ADD CONSTRAINT "FK_03bb2b21f9245135bacdcb320e5" FOREIGN KEY ("sample_id") REFERENCES "sample"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "dataset_source" ADD CONSTRAINT "FK_4834c3d483b8dabb9e969015828" FOREIGN KEY ("dataset_id") REFERENCES "dataset"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "instance" ADD CONSTRAINT "FK_9ebfbef0f952ce7fc3d076d2562" FOREIGN KEY ("dataset_id") REFERENCES "dataset"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "instance" ADD CONSTRAINT "FK_e52c64c6f95066533f7efc6c1f0" FOREIGN KEY ("source_id") REFERENCES "dataset_source"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "sampled_instance" ADD CONSTRAINT "FK_4031fa635ccd1e1816a6d04677d" FOREIGN KEY ("sample_id") REFERENCES "sample"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "sampled_instance" ADD CONSTRAINT "FK_985539e20ffccb500e31369c2db" FOREIGN KEY ("instance_id") REFERENCES "instance"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "completion" ADD CONSTRAINT "FK_643a74f23128158882cc1e41d1b" FOREIGN KEY ("run_id") REFERENCES "run"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "completion" ADD CONSTRAINT "FK_b6e1957588a9c787dffe2c6c862" FOREIGN KEY ("sampled_instance_id") REFERENCES "sampled_instance"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "demonstration" ADD CONSTRAINT "FK_011a958360430c194fbd37a7d2b" FOREIGN KEY ("sample_id") REFERENCES "sample"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "demonstration" ADD CONSTRAINT "FK_6c7da212d4465c2494de8950d19" FOREIGN KEY ("instance_id") REFERENCES "instance"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "judgment" ADD CONSTRAINT "FK_50afb81e941aaac745b9161d443" FOREIGN KEY ("completion_id") REFERENCES "completion"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "judgment" ADD CONSTRAINT "FK_f58d884a5ca823fbb795aa49208" FOREIGN KEY ("supersedes_id") REFERENCES "judgment"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_metric_scope_gin"`);
    await queryRunner.query(`ALTER TABLE "judgment" DROP CONSTRAINT "FK_f58d884a5ca823fbb795aa49208"`);
    await queryRunner.query(`ALTER TABLE "judgment" DROP CONSTRAINT "FK_50afb81e941aaac745b9161d443"`);
    await queryRunner.query(`ALTER TABLE "demonstration" DROP CONSTRAINT "FK_6c7da212d4465c2494de8950d19"`);
    await queryRunner.query(`ALTER TABLE "demonstration" DROP CONSTRAINT "FK_011a958360430c194fbd37a7d2b"`);
    await queryRunner.query(`ALTER TABLE "completion" DROP CONSTRAINT "FK_b6e1957588a9c787dffe2c6c862"`);
    await queryRunner.query(`ALTER TABLE "completion" DROP CONSTRAINT "FK_643a74f23128158882cc1e41d1b"`);
    await queryRunner.query(
      `ALTER TABLE "sampled_instance" DROP CONSTRAINT "FK_985539e20ffccb500e31369c2db"`,
    );
    await queryRunner.query(
      `ALTER TABLE "sampled_instance" DROP CONSTRAINT "FK_4031fa635ccd1e1816a6d04677d"`,
    );
    await queryRunner.query(`ALTER TABLE "instance" DROP CONSTRAINT "FK_e52c64c6f95066533f7efc6c1f0"`);
    await queryRunner.query(`ALTER TABLE "instance" DROP CONSTRAINT "FK_9ebfbef0f952ce7fc3d076d2562"`);
    await queryRunner.query(`ALTER TABLE "dataset_source" DROP CONSTRAINT "FK_4834c3d483b8dabb9e969015828"`);
    await queryRunner.query(`ALTER TABLE "run" DROP CONSTRAINT "FK_03bb2b21f9245135bacdcb320e5"`);
    await queryRunner.query(`ALTER TABLE "run" DROP CONSTRAINT "FK_44676dc87e385ef65c7526fb360"`);
    await queryRunner.query(`ALTER TABLE "sample" DROP CONSTRAINT "FK_b62138f26347b173fe87f4b922e"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_prompt_template_version"`);
    await queryRunner.query(`DROP TABLE "prompt_template"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_metric_name"`);
    await queryRunner.query(`DROP TABLE "metric"`);
    await queryRunner.query(`DROP TABLE "response_cache"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_judgment_completion"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_judgment_judge"`);
    await queryRunner.query(`DROP TABLE "judgment"`);
    await queryRunner.query(`DROP TYPE "public"."judgment_judge_kind_enum"`);
    await queryRunner.query(`DROP TYPE "public"."judgment_verdict_enum"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_demonstration_rank"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_demonstration_instance"`);
    await queryRunner.query(`DROP TABLE "demonstration"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_completion_item"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_completion_run_status"`);
    await queryRunner.query(`DROP TABLE "completion"`);
    await queryRunner.query(`DROP TYPE "public"."completion_status_enum"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_sampled_instance_position"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_sampled_instance_instance"`);
    await queryRunner.query(`DROP TABLE "sampled_instance"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_instance_dataset_split_label"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_instance_dataset_id"`);
    await queryRunner.query(`DROP TABLE "instance"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_dataset_source_fingerprint"`);
    await queryRunner.query(`DROP TABLE "dataset_source"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_run_experiment"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_run_sample"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_run_status"`);
    await queryRunner.query(`DROP TABLE "run"`);
    await queryRunner.query(`DROP TYPE "public"."run_status_enum"`);
    await queryRunner.query(`DROP TYPE "public"."run_setting_enum"`);
    await queryRunner.query(`DROP TYPE "public"."run_kind_enum"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_sample_identity"`);
    await queryRunner.query(`DROP TABLE "sample"`);
    await queryRunner.query(`DROP TABLE "dataset"`);
    await queryRunner.query(`DROP TYPE "public"."dataset_task_kind_enum"`);
    await queryRunner.query(`DROP TABLE "experiment"`);
  }
}
