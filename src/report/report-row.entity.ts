import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { Experiment } from "../experiment/experiment.entity";
import { Field, Float, ID, Int, ObjectType } from "../graphql/deferred-types";
import { MemorizationMeasure } from "../study/measures";
import { Regime } from "../study/regime";
import { MemorizationSetting } from "../study/settings";
import type { FlatRowScope } from "./report-rows";

@ObjectType({
  description: "What a report row covers. Null fields do not apply (or, for the sample, pool samples).",
})
export class ReportRowScope implements FlatRowScope {
  @Field(() => ID)
  experimentId: string;

  @Field(() => String, { nullable: true, description: "The experiment's provider." })
  provider: string | null;

  @Field(() => String, { nullable: true, description: "The experiment's model, as requested." })
  model: string | null;

  @Field(() => ID, {
    nullable: true,
    description: "The sample; null on a row pooled over a dataset's samples.",
  })
  sampleId: string | null;

  @Field(() => String, { nullable: true })
  sampleName: string | null;

  @Field(() => String, { nullable: true })
  sampleSeed: string | null;

  @Field(() => String, { nullable: true })
  dataset: string | null;

  @Field(() => MemorizationSetting, { nullable: true })
  setting: MemorizationSetting | null;

  @Field(() => Int, { nullable: true, description: "k (the first k of a transition or comparison)." })
  shots: number | null;

  @Field(() => Regime, { nullable: true })
  regime: Regime | null;

  @Field(() => MemorizationMeasure, { nullable: true })
  measure: MemorizationMeasure | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Whose verdicts a memorization figure counts: "effective" (the latest human review, else the judge).',
  })
  judge: string | null;

  @Field(() => MemorizationSetting, {
    nullable: true,
    description: "The second setting of a paired comparison.",
  })
  otherSetting: MemorizationSetting | null;

  @Field(() => Int, { nullable: true, description: "The second k of a paired comparison or a transition." })
  otherShots: number | null;

  @Field(() => String, { nullable: true, description: "The control dataset of a control comparison." })
  otherDataset: string | null;

  @Field(() => String, {
    nullable: true,
    description: "A group of instances within the cell: `label=<label>` or `length=<bucket>` (words).",
  })
  group: string | null;
}

/** One number of an experiment's study report, flat, with its counts and the scope it covers. */
@ObjectType({
  description:
    "One number of an experiment's study report as a flat row: its value, counts and interval, and the scope it " +
    "covers. Rewritten whenever the experiment's results change; docs/REPORT-ROWS.md lists the names.",
})
@Entity("metric")
@Index("IDX_metric_experiment", ["experimentId", "name", "id"])
@Index("IDX_metric_scope_gin", { synchronize: false })
export class ReportRow {
  @PrimaryColumn({ type: "bigint", generated: "identity", generatedIdentity: "ALWAYS" })
  @Field(() => ID)
  id: string;

  @Column({ name: "experiment_id", type: "uuid" })
  experimentId: string;

  @ManyToOne(() => Experiment, { onDelete: "CASCADE" })
  @JoinColumn({ name: "experiment_id", foreignKeyConstraintName: "FK_metric_experiment" })
  experiment?: Experiment;

  @Column({ type: "varchar", length: 100 })
  @Field()
  name: string;

  @Column({ type: "jsonb" })
  @Field(() => ReportRowScope)
  scope: ReportRowScope;

  @Column({ type: "double precision", nullable: true })
  @Field(() => Float, { nullable: true })
  value: number | null;

  @Column({ type: "int", nullable: true })
  @Field(() => Int, { nullable: true })
  numerator: number | null;

  @Column({ type: "int", nullable: true })
  @Field(() => Int, { nullable: true })
  denominator: number | null;

  @Column({ name: "ci_low", type: "double precision", nullable: true })
  @Field(() => Float, {
    nullable: true,
    description: "The 95% interval's lower end, where the report gives one.",
  })
  ciLow: number | null;

  @Column({ name: "ci_high", type: "double precision", nullable: true })
  @Field(() => Float, { nullable: true })
  ciHigh: number | null;

  @Column({ name: "computed_at", type: "timestamptz", default: () => "now()" })
  @Field()
  computedAt: Date;
}

/** Which state of an experiment's results its report rows were computed from. */
@Entity("metric_state")
export class ReportRowState {
  @PrimaryColumn({ name: "experiment_id", type: "uuid", primaryKeyConstraintName: "PK_metric_state" })
  experimentId: string;

  @ManyToOne(() => Experiment, { onDelete: "CASCADE" })
  @JoinColumn({ name: "experiment_id", foreignKeyConstraintName: "FK_metric_state_experiment" })
  experiment?: Experiment;

  /** A fingerprint of every run's lastUpdatedAt when the rows were computed. */
  @Column({ type: "text" })
  fingerprint: string;

  @Column({ name: "computed_at", type: "timestamptz", default: () => "now()" })
  computedAt: Date;

  @Column({ type: "int" })
  rows: number;
}
