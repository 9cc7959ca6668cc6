import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { Completion } from "../completion/completion.entity";
import { Field, GraphQLJSONObject, ID, ObjectType } from "../graphql/deferred-types";
import { JudgeKind, Verdict } from "../study/verdicts";

/** A verdict on one completion. Never updated: a correction is a new row that supersedes the old one. */
@ObjectType({ description: "A verdict on one completion; never changed, a correction is a new judgment." })
@Entity("judgment")
@Index("IDX_judgment_completion", ["completionId", "createdAt"])
@Index("IDX_judgment_judge", ["judgeKind", "judgeName"])
export class Judgment {
  @PrimaryColumn({ type: "bigint", generated: "identity", generatedIdentity: "ALWAYS" })
  @Field(() => ID)
  id: string;

  @Column({ name: "completion_id", type: "bigint" })
  completionId: string;

  @ManyToOne(() => Completion, { onDelete: "CASCADE" })
  @JoinColumn({ name: "completion_id" })
  completion?: Completion;

  @Column({ type: "enum", enum: Verdict })
  @Field(() => Verdict)
  verdict: Verdict;

  @Column({ name: "judge_kind", type: "enum", enum: JudgeKind })
  @Field(() => JudgeKind)
  judgeKind: JudgeKind;

  /** e.g. `heuristic`, `llm:openai/gpt-4`, or the reviewer's name for HUMAN. */
  @Column({ name: "judge_name", type: "varchar", length: 200 })
  @Field()
  judgeName: string;

  @Column({ name: "judge_version", type: "varchar", length: 50, nullable: true })
  @Field(() => String, { nullable: true })
  judgeVersion: string | null;

  /** Heuristic similarity scores, or the LLM judge's raw answer and usage. */
  @Column({ name: "extraction_rule", type: "varchar", length: 50, nullable: true })
  @Field(() => String, {
    nullable: true,
    description:
      "The answer-extraction rule the judge saw the output through; null: the raw output (or a human).",
  })
  extractionRule: string | null;

  @Column({ type: "jsonb", default: () => "'{}'" })
  @Field(() => GraphQLJSONObject, {
    description: "Heuristic scores and thresholds, or the LLM judge's raw answer.",
  })
  details: Record<string, unknown>;

  @Column({ type: "text", nullable: true })
  @Field(() => String, { nullable: true })
  note: string | null;

  @Column({ name: "supersedes_id", type: "bigint", nullable: true })
  @Field(() => ID, { nullable: true, description: "The judgment this one corrects (human review)." })
  supersedesId: string | null;

  @ManyToOne(() => Judgment, { onDelete: "SET NULL" })
  @JoinColumn({ name: "supersedes_id" })
  supersedes?: Judgment;

  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  @Field()
  createdAt: Date;
}
