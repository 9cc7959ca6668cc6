import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * What a blind reviewer's queue served to its key: such a key may review only those completions (issue: a blind
 * reviewer recorded verdicts on completions its queue never served, in any experiment).
 */
export class ReviewAssignments1764536400000 implements MigrationInterface {
  name = "ReviewAssignments1764536400000";

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "review_assignment" ("api_key_id" uuid NOT NULL, "completion_id" bigint NOT NULL, "served_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_review_assignment" PRIMARY KEY ("api_key_id", "completion_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_review_assignment_completion" ON "review_assignment" ("completion_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "review_assignment" ADD CONSTRAINT "FK_92e985b4ecd64e6fde96ef756ad" FOREIGN KEY ("api_key_id") REFERENCES "api_key"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "review_assignment" ADD CONSTRAINT "FK_cc128ba57deb4ec3d79fcfc171a" FOREIGN KEY ("completion_id") REFERENCES "completion"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "review_assignment"`);
  }
}
