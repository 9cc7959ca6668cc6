import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from "typeorm";
import { Experiment } from "../experiment/experiment.entity";
import {
  Field,
  Float,
  GraphQLJSONObject,
  ID,
  Int,
  ObjectType,
  registerEnumType,
} from "../graphql/deferred-types";
import { QuizOptionSet } from "../option-set/option-set.entity";
import { Sample } from "../sample/sample.entity";
import { OptionLetter } from "../study/quiz-letters";
import { MemorizationSetting, RunKind } from "../study/settings";

export enum RunStatus {
  QUEUED = "QUEUED",
  RUNNING = "RUNNING",
  SUCCEEDED = "SUCCEEDED",
  FAILED = "FAILED",
  CANCELLED = "CANCELLED",
  /** Stopped before a call that could take spending above the budget; raising the budget resumes it. */
  PAUSED_BUDGET = "PAUSED_BUDGET",
}

/** The automatic judge of a run's memorization answers, as recorded on the run. */
export type RunJudge =
  /** `version`: the heuristic version the run judges with; absent on runs started before heuristic-6 (heuristic-5). */
  | { kind: "HEURISTIC"; version?: string }
  | { kind: "LLM"; provider: string; model: string; promptVersion: number; judgeVersion?: string };

/** One (sample, kind, setting, k, model, parameters, repeats): a domain record with its own status. */
@ObjectType({ description: "One run: a sample, a kind, a setting, k and a model, with its own status." })
@Entity("run")
@Index("IDX_run_experiment", ["experimentId", "kind"])
@Index("IDX_run_sample", ["sampleId", "kind", "shots"])
@Index("IDX_run_status", ["status"])
@Index("IDX_run_option_set", ["optionSetId"])
export class Run {
  @PrimaryGeneratedColumn("uuid")
  @Field(() => ID)
  id: string;

  @Column({ name: "experiment_id", type: "uuid", nullable: true })
  @Field(() => ID, { nullable: true })
  experimentId: string | null;

  @ManyToOne(() => Experiment, { onDelete: "CASCADE" })
  @JoinColumn({ name: "experiment_id" })
  experiment?: Experiment;

  @Column({ name: "sample_id", type: "uuid" })
  sampleId: string;

  @ManyToOne(() => Sample, { onDelete: "RESTRICT" })
  @JoinColumn({ name: "sample_id" })
  sample?: Sample;

  @Column({ type: "enum", enum: RunKind })
  @Field(() => RunKind)
  kind: RunKind;

  /** Null for performance runs. */
  @Column({ type: "enum", enum: MemorizationSetting, nullable: true })
  @Field(() => MemorizationSetting, { nullable: true })
  setting: MemorizationSetting | null;

  @Column({ type: "int" })
  @Field(() => Int)
  shots: number;

  /** Quiz runs: the generated options they show; the option-generation run: the set it writes. */
  @Column({ name: "option_set_id", type: "uuid", nullable: true })
  @Field(() => ID, { nullable: true, description: "Quiz runs: the option set their quizzes show." })
  optionSetId: string | null;

  @ManyToOne(() => QuizOptionSet, { onDelete: "CASCADE" })
  @JoinColumn({ name: "option_set_id" })
  optionSet?: QuizOptionSet;

  /** Quiz runs: the letter the original instance sits at (a bias compensator quiz); null for the detector quiz. */
  @Column({ name: "quiz_position", type: "varchar", length: 1, nullable: true })
  @Field(() => String, {
    nullable: true,
    description:
      "QUIZ runs: the letter the original sits at (a bias compensator quiz); null for the bias detector quiz.",
  })
  quizPosition: OptionLetter | null;

  @Column({ type: "varchar", length: 100 })
  @Field()
  provider: string;

  @Column({ type: "varchar", length: 200 })
  @Field({ description: "The model as requested." })
  model: string;

  /** The model name as the provider reported it in its responses. */
  @Column({ name: "reported_model", type: "varchar", length: 200, nullable: true })
  @Field(() => String, { nullable: true, description: "The model as the provider reported it." })
  reportedModel: string | null;

  @Column({ type: "double precision", default: 0 })
  @Field(() => Float)
  temperature: number;

  @Column({ name: "max_output_tokens", type: "int" })
  @Field(() => Int)
  maxOutputTokens: number;

  @Column({ type: "int", default: 1 })
  @Field(() => Int)
  repeats: number;

  @Column({ name: "template_key", type: "varchar", length: 100 })
  @Field()
  templateKey: string;

  @Column({ name: "template_version", type: "int" })
  @Field(() => Int)
  templateVersion: number;

  @Column({ name: "dataset_fingerprint", type: "char", length: 64 })
  @Field()
  datasetFingerprint: string;

  @Column({ name: "code_version", type: "varchar", length: 100 })
  @Field()
  codeVersion: string;

  /** Which automatic judge scores this run's completions (e.g. `{ "kind": "HEURISTIC" }`). */
  @Column({ type: "jsonb", default: () => "'{}'" })
  @Field(() => GraphQLJSONObject, {
    description:
      'The automatic judge: `{ "kind": "HEURISTIC" }` or `{ "kind": "LLM", "provider", "model" }`.',
  })
  judge: Record<string, unknown>;

  @Column({ name: "cache_enabled", type: "boolean", default: true })
  @Field()
  cacheEnabled: boolean;

  @Column({ type: "enum", enum: RunStatus, default: RunStatus.QUEUED })
  @Field(() => RunStatus)
  status: RunStatus;

  @Column({ name: "expected_count", type: "int" })
  @Field(() => Int, { description: "Completions the run will make: instances x repeats." })
  expectedCount: number;

  @Column({ name: "done_count", type: "int", default: 0 })
  @Field(() => Int, { description: "Completions stored successfully." })
  doneCount: number;

  @Column({ name: "failed_count", type: "int", default: 0 })
  @Field(() => Int, {
    description: "Completions that failed for good (retry them with retryFailedCompletions).",
  })
  failedCount: number;

  @Column({ name: "cache_hit_count", type: "int", default: 0 })
  @Field(() => Int, { description: "Completions answered from the response cache." })
  cacheHitCount: number;

  @Column({ name: "prompt_tokens", type: "bigint", default: 0 })
  @Field(() => Float)
  promptTokens: string;

  @Column({ name: "completion_tokens", type: "bigint", default: 0 })
  @Field(() => Float)
  completionTokens: string;

  @Column({ name: "cached_tokens", type: "bigint", default: 0 })
  @Field(() => Float)
  cachedTokens: string;

  @Column({ name: "cost_usd", type: "numeric", precision: 14, scale: 6, default: 0 })
  @Field(() => Float, { description: "From the provider's configured prices; 0 when none are configured." })
  costUsd: string;

  /** The run's own budget: no call is made that could take `costUsd` (with the calls in flight) above it. */
  @Column({ name: "max_cost_usd", type: "numeric", precision: 14, scale: 6, nullable: true })
  @Field(() => Float, {
    nullable: true,
    description:
      "The run's own budget in US dollars (an experiment's budget is the experiment's): no call starts that could " +
      "take the cost, counting the worst case of the calls in flight, above it; null without one.",
  })
  maxCostUsd: string | null;

  /**
   * Batch execution: the provider batches an item may go through before it is called online (or failed); 0 for
   * a run whose calls are made online.
   */
  @Column({ name: "batch_attempts", type: "int", default: 0 })
  batchAttempts: number;

  @Field({ description: "Its calls go through the provider's Batch API (at batch prices)." })
  get batch(): boolean {
    return this.batchAttempts > 0;
  }

  /** Items that failed for good in a row; the circuit breaker fails the run when this reaches its limit. */
  @Column({ name: "consecutive_failures", type: "int", default: 0 })
  consecutiveFailures: number;

  /** What else shaped the prompts and the bill: verbalizers, prompt name, prices used. */
  @Column({ type: "jsonb", default: () => "'{}'" })
  parameters: Record<string, unknown>;

  @Column({ name: "last_error", type: "text", nullable: true })
  @Field(() => String, { nullable: true })
  lastError: string | null;

  /** Why work that is waiting is not moving (no capable worker, rate limit, breaker); null when it moves. */
  @Column({ name: "waiting_reason", type: "text", nullable: true })
  @Field(() => String, {
    nullable: true,
    description:
      "Why waiting work is not moving (e.g. no live worker can call its provider); null when it moves.",
  })
  waitingReason: string | null;

  @Column({ name: "idempotency_key", type: "varchar", length: 200, nullable: true, unique: true })
  @Field(() => String, { nullable: true })
  idempotencyKey: string | null;

  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  @Field()
  createdAt: Date;

  @Column({ name: "started_at", type: "timestamptz", nullable: true })
  @Field(() => Date, { nullable: true })
  startedAt: Date | null;

  @Column({ name: "finished_at", type: "timestamptz", nullable: true })
  @Field(() => Date, { nullable: true })
  finishedAt: Date | null;

  @UpdateDateColumn({ name: "updated_at", type: "timestamptz" })
  @Field(() => Date, {
    name: "lastUpdatedAt",
    description:
      "When anything about the run last changed (progress, status, a judgment or review): poll this cheaply and " +
      "refetch the heavy tables only when it moves.",
  })
  updatedAt: Date;
}

registerEnumType(RunStatus, { name: "RunStatus" });
