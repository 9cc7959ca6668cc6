import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { Run } from "../run/run.entity";

/**
 * How many of a run's completions have each effective verdict: a running count kept by the same trigger that
 * keeps `completion.effective_verdict`, so breakdowns read a few rows per run instead of every completion.
 */
@Entity("run_verdict_count")
export class RunVerdictCount {
  @PrimaryColumn({ name: "run_id", type: "uuid" })
  runId: string;

  @ManyToOne(() => Run, { onDelete: "CASCADE" })
  @JoinColumn({ name: "run_id" })
  run?: Run;

  @PrimaryColumn({ type: "varchar", length: 20 })
  verdict: string;

  @Column({ type: "int", default: 0 })
  count: number;
}
