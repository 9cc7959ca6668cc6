import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { Field, Float, ID, Int, ObjectType, registerEnumType } from "../graphql/deferred-types";
import { Run } from "../run/run.entity";
import { SampledInstance } from "../sample/sampled-instance.entity";

export enum CompletionStatus {
  /** Waiting for a worker. */
  PENDING = "PENDING",
  /** Claimed by a worker until `leaseUntil`; a lapsed lease may be claimed again. */
  RUNNING = "RUNNING",
  SUCCEEDED = "SUCCEEDED",
  FAILED = "FAILED",
}

registerEnumType(CompletionStatus, { name: "CompletionStatus" });

/** One model call for (run, instance, repeat). A successful completion is never overwritten. */
@ObjectType({ description: "One model call for (run, instance, repeat)." })
@Entity("completion")
@Index("UQ_completion_item", ["runId", "sampledInstanceId", "repeat"], { unique: true })
@Index("IDX_completion_run_status", ["runId", "status"])
@Index("IDX_completion_batch", ["batchId"], { where: "batch_id IS NOT NULL" })
@Index("IDX_completion_pending", ["id"], { where: "status = 'PENDING'" })
export class Completion {
  @PrimaryColumn({ type: "bigint", generated: "identity", generatedIdentity: "ALWAYS" })
  @Field(() => ID)
  id: string;

  @Column({ name: "run_id", type: "uuid" })
  runId: string;

  @ManyToOne(() => Run, { onDelete: "CASCADE" })
  @JoinColumn({ name: "run_id" })
  run?: Run;

  @Column({ name: "sampled_instance_id", type: "bigint" })
  sampledInstanceId: string;

  @ManyToOne(() => SampledInstance, { onDelete: "RESTRICT" })
  @JoinColumn({ name: "sampled_instance_id" })
  sampledInstance?: SampledInstance;

  @Column({ type: "int" })
  @Field(() => Int)
  repeat: number;

  @Column({ type: "enum", enum: CompletionStatus, default: CompletionStatus.PENDING })
  @Field(() => CompletionStatus)
  status: CompletionStatus;

  /** SHA-256 of the exact messages sent; the prompt itself is re-rendered from the run's recorded inputs. */
  @Column({ name: "prompt_hash", type: "char", length: 64, nullable: true })
  @Field(() => String, { nullable: true, description: "SHA-256 of the exact messages sent." })
  promptHash: string | null;

  @Column({ type: "text", nullable: true })
  @Field(() => String, { nullable: true, description: "The model's raw output." })
  output: string | null;

  /**
   * LOGPROB: the per-token values scoring needs (`TokenLogprobs` JSON, src/logprob/scores.ts), whole whatever the
   * text's length; `output` holds a short note. Null for other kinds and for answers stored before it.
   */
  @Column({ name: "token_logprobs", type: "text", nullable: true })
  tokenLogprobs: string | null;

  @Column({ name: "extracted_answer", type: "text", nullable: true })
  @Field(() => String, {
    nullable: true,
    description:
      "Memorization: the answer the judges compare with the reference, extracted from the raw output by the " +
      "prompt's layout (echoed labels dropped, cut where the pattern goes on). Null before extraction existed.",
  })
  extractedAnswer: string | null;

  /** Memorization: ROUGE-L F of the extracted answer against the reference, as Time Travel's Algorithm 1 scores it. */
  @Column({ name: "rouge_l", type: "real", nullable: true })
  @Field(() => Float, {
    nullable: true,
    description:
      "Memorization: ROUGE-L F of the extracted answer against the reference (rouge_score's tokenisation, no " +
      "stemmer, rounded to 2 decimals), Algorithm 1's per-instance score; null before it was stored.",
  })
  rougeL: number | null;

  @Column({ name: "extraction_rule", type: "varchar", length: 50, nullable: true })
  @Field(() => String, { nullable: true, description: "The extraction rule and version (e.g. layout-2)." })
  extractionRule: string | null;

  @Column({ name: "finish_reason", type: "varchar", length: 50, nullable: true })
  @Field(() => String, { nullable: true })
  finishReason: string | null;

  @Column({ name: "prompt_tokens", type: "int", nullable: true })
  @Field(() => Int, { nullable: true })
  promptTokens: number | null;

  @Column({ name: "completion_tokens", type: "int", nullable: true })
  @Field(() => Int, { nullable: true })
  completionTokens: number | null;

  @Column({ name: "cached_tokens", type: "int", nullable: true })
  @Field(() => Int, { nullable: true })
  cachedTokens: number | null;

  @Column({ name: "latency_ms", type: "int", nullable: true })
  @Field(() => Int, { nullable: true })
  latencyMs: number | null;

  @Column({ type: "int", default: 0 })
  @Field(() => Int, { description: "Calls made for this item, every retry counted." })
  attempts: number;

  /** The claim of the worker calling the model; only its holder may write the result. */
  @Column({ name: "lease_token", type: "uuid", nullable: true })
  leaseToken: string | null;

  @Column({ name: "lease_until", type: "timestamptz", nullable: true })
  leaseUntil: Date | null;

  /** The worker holding the lease; its lease lives while that worker beats. */
  @Column({ name: "lease_owner", type: "uuid", nullable: true })
  leaseOwner: string | null;

  /** When the lease was taken or last renewed (a lapsed lease is taken only from an owner that let it go). */
  @Column({ name: "lease_renewed_at", type: "timestamptz", nullable: true })
  leaseRenewedAt: Date | null;

  @Column({ name: "cost_usd", type: "numeric", precision: 12, scale: 8, nullable: true })
  costUsd: string | null;

  /** A budgeted call's worst-case cost, held while `reservedToken` equals the lease token (the claim lives). */
  @Column({ name: "reserved_usd", type: "numeric", precision: 12, scale: 8, nullable: true })
  reservedUsd: string | null;

  @Column({ name: "reserved_token", type: "uuid", nullable: true })
  reservedToken: string | null;

  /** The provider batch the item is in while it is there (its claim is the batch's, not a worker's). */
  @Column({ name: "batch_id", type: "uuid", nullable: true })
  batchId: string | null;

  /** Provider batches the item went into. */
  @Column({ name: "batch_attempts", type: "int", default: 0 })
  batchAttempts: number;

  @Column({ type: "text", nullable: true })
  @Field(() => String, { nullable: true, description: "Why the item failed: data, not a GraphQL error." })
  error: string | null;

  @Column({ name: "reported_model", type: "varchar", length: 200, nullable: true })
  @Field(() => String, { nullable: true })
  reportedModel: string | null;

  @Column({ name: "system_fingerprint", type: "varchar", length: 200, nullable: true })
  @Field(() => String, { nullable: true })
  systemFingerprint: string | null;

  @Column({ name: "cache_hit", type: "boolean", default: false })
  @Field()
  cacheHit: boolean;

  /** Performance runs: the label parsed from the output (null when unparseable). */
  @Column({ name: "parsed_label", type: "varchar", length: 200, nullable: true })
  @Field(() => String, {
    nullable: true,
    description: "Performance: the label read from the answer; null when unparseable.",
  })
  parsedLabel: string | null;

  @Column({ type: "boolean", nullable: true })
  @Field(() => Boolean, { nullable: true })
  correct: boolean | null;

  /**
   * The effective verdict (the latest human judgment, else the latest automatic one), kept up to date by a
   * database trigger on every new judgment, so results aggregate without looking at judgments at all.
   */
  @Column({ name: "effective_verdict", type: "varchar", length: 20, nullable: true })
  effectiveVerdict: string | null;

  /** The judgment that gives the effective verdict, kept by the same trigger (the rule lives only there). */
  @Column({ name: "effective_judgment_id", type: "bigint", nullable: true })
  effectiveJudgmentId: string | null;

  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  createdAt: Date;

  @Column({ name: "completed_at", type: "timestamptz", nullable: true })
  @Field(() => Date, { nullable: true })
  completedAt: Date | null;
}
