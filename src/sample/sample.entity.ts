import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from "typeorm";
import { Dataset } from "../dataset/dataset.entity";
import { Field, Float, ID, Int, ObjectType } from "../graphql/deferred-types";

/** Why a row was left out of a sample (e.g. a text too short to cut). */
export interface SampleExclusion {
  instanceId: string;
  reason: string;
}

/**
 * The study design for one dataset: which instances are tested, which demonstrations are shown,
 * and how each was segmented. Same dataset fingerprint + seed + parameters = same sample.
 */
@ObjectType({
  description: "A study sample: the instances under test and the demonstrations shown, for one dataset.",
})
@Entity("sample")
@Index("UQ_sample_identity", ["datasetId", "datasetFingerprint", "parametersHash"], { unique: true })
export class Sample {
  @PrimaryGeneratedColumn("uuid")
  @Field(() => ID)
  id: string;

  @Column({ name: "dataset_id", type: "uuid" })
  datasetId: string;

  @ManyToOne(() => Dataset, { onDelete: "RESTRICT" })
  @JoinColumn({ name: "dataset_id" })
  dataset?: Dataset;

  @Column({ type: "varchar", length: 200, nullable: true })
  @Field(() => String, { nullable: true })
  name: string | null;

  @Column({ type: "bigint" })
  @Field(() => String, { description: "The seed every random choice derives from." })
  seed: string;

  @Column({ name: "instance_split", type: "varchar", length: 50 })
  @Field()
  instanceSplit: string;

  @Column({ name: "demonstration_split", type: "varchar", length: 50 })
  @Field()
  demonstrationSplit: string;

  @Column({ name: "requested_instance_count", type: "int" })
  @Field(() => Int)
  requestedInstanceCount: number;

  @Column({ name: "requested_demonstration_count", type: "int" })
  @Field(() => Int)
  requestedDemonstrationCount: number;

  @Column({ name: "shot_counts", type: "jsonb" })
  @Field(() => [Int], { description: "The k values this sample is meant for." })
  shotCounts: number[];

  @Column({ name: "cut_min", type: "double precision" })
  @Field(() => Float, { description: "Smallest share of a single text's tokens in its initial segment." })
  cutMin: number;

  @Column({ name: "cut_max", type: "double precision" })
  @Field(() => Float, { description: "Largest share of a single text's tokens in its initial segment." })
  cutMax: number;

  @Column({ name: "dataset_fingerprint", type: "char", length: 64 })
  @Field({ description: "SHA-256 over the fingerprints of the dataset's files when the sample was drawn." })
  datasetFingerprint: string;

  @Column({ name: "parameters_hash", type: "char", length: 64 })
  parametersHash: string;

  /** SHA-256 over every choice of the design (keys, labels, segments, order), independent of database ids. */
  @Column({ name: "content_hash", type: "char", length: 64 })
  @Field()
  contentHash: string;

  @Column({ name: "algorithm_version", type: "int" })
  @Field(() => Int, { description: "The design version it was drawn by (see createSample's designVersion)." })
  algorithmVersion: number;

  @Column({ name: "min_target_words", type: "int", nullable: true })
  @Field(() => Int, {
    nullable: true,
    description: "Design version 3: the fewest words a reference should have; null for earlier versions.",
  })
  minTargetWords: number | null;

  @Column({ type: "jsonb", default: () => "'[]'" })
  @Field(() => [String], { description: "What was done where the data could not give what was asked." })
  notes: string[];

  @Column({ type: "jsonb", default: () => "'[]'" })
  exclusions: SampleExclusion[];

  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  @Field()
  createdAt: Date;
}
