import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from "typeorm";
import { Field, Float, ID, Int, ObjectType, registerEnumType } from "../graphql/deferred-types";
import { Run } from "../run/run.entity";

export enum ProviderBatchState {
  /** memicl chose its items and recorded its intent; the provider may or may not have the batch yet. */
  PREPARING = "PREPARING",
  /** The provider has it (its id is recorded); memicl polls it. */
  SUBMITTED = "SUBMITTED",
  /** The run was cancelled: the provider was asked to cancel the batch; what it answered is collected. */
  CANCELLING = "CANCELLING",
  /** Its answers are stored and its other items given back (to another batch, online, or failed). */
  COLLECTED = "COLLECTED",
}

/**
 * One batch at a provider for some of a run's completions (`completion.batch_id`). The id is memicl's own and
 * is in the batch's metadata at the provider, so a submission whose answer was lost is found again, never made
 * twice. A process works on a batch while it holds `owner` and `lease_until`.
 */
@ObjectType({ description: "One batch of a run's calls at the provider's Batch API." })
@Entity("provider_batch")
@Index("IDX_provider_batch_run", ["runId"])
@Index("IDX_provider_batch_open", ["state", "nextPollAt"])
export class ProviderBatch {
  @PrimaryColumn("uuid")
  @Field(() => ID)
  id: string;

  @Column({ name: "run_id", type: "uuid" })
  @Field(() => ID)
  runId: string;

  @ManyToOne(() => Run, { onDelete: "CASCADE" })
  @JoinColumn({ name: "run_id" })
  run?: Run;

  @Column({ type: "varchar", length: 100 })
  provider: string;

  @Column({ type: "enum", enum: ProviderBatchState, default: ProviderBatchState.PREPARING })
  @Field(() => ProviderBatchState)
  state: ProviderBatchState;

  @Column({ name: "provider_batch_id", type: "varchar", length: 200, nullable: true })
  @Field(() => String, { nullable: true, description: "The batch's id at the provider, once it is known." })
  providerBatchId: string | null;

  @Column({ name: "provider_status", type: "varchar", length: 50, nullable: true })
  @Field(() => String, {
    nullable: true,
    description:
      "The provider's status: validating, in_progress, finalizing, completed, expired, cancelled, failed.",
  })
  providerStatus: string | null;

  @Column({ name: "request_count", type: "int" })
  @Field(() => Int)
  requestCount: number;

  @Column({ name: "completed_count", type: "int", default: 0 })
  @Field(() => Int, { description: "Requests the provider answered (as it last said, then as stored)." })
  completedCount: number;

  @Column({ name: "failed_count", type: "int", default: 0 })
  @Field(() => Int, { description: "Requests that failed or expired in the batch." })
  failedCount: number;

  @Column({ type: "int", default: 0 })
  @Field(() => Int, { description: "Bytes of its input file." })
  bytes: number;

  @Column({ name: "submit_failures", type: "int", default: 0 })
  @Field(() => Int, {
    description:
      "Times sending it failed; a refusal, or as many failures as the provider's batch attempts, gives it up.",
  })
  submitFailures: number;

  @Column({ type: "bigint", default: 0 })
  @Field(() => Float, {
    description:
      "Prompt tokens of its requests, as memicl counts them (what a provider's batch queue limit counts).",
  })
  tokens: string;

  @Column({ name: "owner", type: "uuid", nullable: true })
  owner: string | null;

  @Column({ name: "lease_until", type: "timestamptz", nullable: true })
  leaseUntil: Date | null;

  @Column({ name: "next_poll_at", type: "timestamptz", default: () => "now()" })
  nextPollAt: Date;

  @Column({ name: "poll_seconds", type: "double precision", default: 0 })
  pollSeconds: number;

  @Column({ name: "last_error", type: "text", nullable: true })
  @Field(() => String, { nullable: true })
  lastError: string | null;

  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  @Field()
  createdAt: Date;

  @Column({ name: "submitted_at", type: "timestamptz", nullable: true })
  @Field(() => Date, { nullable: true })
  submittedAt: Date | null;

  @Column({ name: "finished_at", type: "timestamptz", nullable: true })
  @Field(() => Date, { nullable: true })
  finishedAt: Date | null;

  @UpdateDateColumn({ name: "updated_at", type: "timestamptz" })
  updatedAt: Date;
}

registerEnumType(ProviderBatchState, { name: "ProviderBatchState" });
