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

/** Why a row was left out of a sample (e.g. a text too short to cut). */
export interface SampleExclusion {
  instanceId: string;
  reason: string;
}

/**
 * The study design for one dataset: which instances are tested, which demonstrations are shown,
 * and how each was segmented. Same dataset fingerprint + seed + parameters = same sample.
 */
@Entity("sample")
@Index("UQ_sample_identity", ["datasetId", "datasetFingerprint", "parametersHash"], { unique: true })
export class Sample {
  @PrimaryGeneratedColumn("uuid")
  id: string;

  @Column({ name: "dataset_id", type: "uuid" })
  datasetId: string;

  @ManyToOne(() => Dataset, { onDelete: "RESTRICT" })
  @JoinColumn({ name: "dataset_id" })
  dataset?: Dataset;

  @Column({ type: "varchar", length: 200, nullable: true })
  name: string | null;

  @Column({ type: "bigint" })
  seed: string;

  @Column({ name: "instance_split", type: "varchar", length: 50 })
  instanceSplit: string;

  @Column({ name: "demonstration_split", type: "varchar", length: 50 })
  demonstrationSplit: string;

  @Column({ name: "requested_instance_count", type: "int" })
  requestedInstanceCount: number;

  @Column({ name: "requested_demonstration_count", type: "int" })
  requestedDemonstrationCount: number;

  @Column({ name: "shot_counts", type: "jsonb" })
  shotCounts: number[];

  @Column({ name: "cut_min", type: "double precision" })
  cutMin: number;

  @Column({ name: "cut_max", type: "double precision" })
  cutMax: number;

  @Column({ name: "dataset_fingerprint", type: "char", length: 64 })
  datasetFingerprint: string;

  @Column({ name: "parameters_hash", type: "char", length: 64 })
  parametersHash: string;

  @Column({ name: "algorithm_version", type: "int" })
  algorithmVersion: number;

  @Column({ type: "jsonb", default: () => "'[]'" })
  notes: string[];

  @Column({ type: "jsonb", default: () => "'[]'" })
  exclusions: SampleExclusion[];

  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  createdAt: Date;
}
