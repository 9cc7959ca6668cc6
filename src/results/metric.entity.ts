import { Column, Entity, Index, PrimaryColumn } from "typeorm";

/** A computed number with its counts and the scope it covers (dataset, setting, k, measure, ...). */
@Entity("metric")
@Index("IDX_metric_name", ["name", "computedAt"])
@Index("IDX_metric_scope_gin", { synchronize: false })
export class Metric {
  @PrimaryColumn({ type: "bigint", generated: "identity", generatedIdentity: "ALWAYS" })
  id: string;

  @Column({ type: "varchar", length: 100 })
  name: string;

  @Column({ type: "jsonb" })
  scope: Record<string, unknown>;

  @Column({ type: "double precision", nullable: true })
  value: number | null;

  @Column({ type: "int", nullable: true })
  numerator: number | null;

  @Column({ type: "int", nullable: true })
  denominator: number | null;

  @Column({ name: "ci_low", type: "double precision", nullable: true })
  ciLow: number | null;

  @Column({ name: "ci_high", type: "double precision", nullable: true })
  ciHigh: number | null;

  @Column({ name: "computed_at", type: "timestamptz", default: () => "now()" })
  computedAt: Date;
}
