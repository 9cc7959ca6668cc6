import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { Experiment } from "../experiment/experiment.entity";

/**
 * How many of an instance's completions in one memorization cell of an experiment (sample x setting x k) have
 * each effective verdict: kept by the judgment trigger, beside `run_verdict_count`, so the per-instance analyses
 * (paired tests, cluster intervals, contamination) read a few rows per instance instead of every completion.
 */
@Entity("instance_verdict_count")
export class InstanceVerdictCount {
  @PrimaryColumn({
    name: "experiment_id",
    type: "uuid",
    primaryKeyConstraintName: "PK_instance_verdict_count",
  })
  experimentId: string;

  @ManyToOne(() => Experiment, { onDelete: "CASCADE" })
  @JoinColumn({ name: "experiment_id", foreignKeyConstraintName: "FK_instance_verdict_count_experiment" })
  experiment?: Experiment;

  @PrimaryColumn({ name: "sample_id", type: "uuid", primaryKeyConstraintName: "PK_instance_verdict_count" })
  sampleId: string;

  @PrimaryColumn({ type: "varchar", length: 30, primaryKeyConstraintName: "PK_instance_verdict_count" })
  setting: string;

  @PrimaryColumn({ type: "int", primaryKeyConstraintName: "PK_instance_verdict_count" })
  shots: number;

  @PrimaryColumn({
    name: "sampled_instance_id",
    type: "bigint",
    primaryKeyConstraintName: "PK_instance_verdict_count",
  })
  sampledInstanceId: string;

  @Column({ type: "int", default: 0 })
  exact: number;

  @Column({ name: "near_exact", type: "int", default: 0 })
  nearExact: number;

  @Column({ type: "int", default: 0 })
  inexact: number;

  /** Of the near-exact ones, those whose verdict rests on a span the heuristic judge cannot class. */
  @Column({ name: "unsure_near_exact", type: "int", default: 0 })
  unsureNearExact: number;

  /** Of the inexact ones, those whose verdict rests on a span the heuristic judge cannot class. */
  @Column({ name: "unsure_inexact", type: "int", default: 0 })
  unsureInexact: number;
}
