import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { Sample } from "./sample.entity";

/**
 * The no-memory floor of one sampled instance (judge/no-memory.ts), stored once per sample and floor rule, so
 * every process and every report reads it instead of judging a sample's copied answers again (about 3 ms to
 * 15 ms an instance). It depends on the sample's texts, which never change, and on the other rows of the
 * dataset (an NLI instance's siblings), which only an import into the dataset adds to: `datasetInstanceCount`
 * is the dataset's size when it was computed, and a floor of another size is computed again.
 */
@Entity("no_memory_floor")
export class NoMemoryFloor {
  @PrimaryColumn({ name: "sample_id", type: "uuid", primaryKeyConstraintName: "PK_no_memory_floor" })
  sampleId: string;

  @ManyToOne(() => Sample, { onDelete: "CASCADE" })
  @JoinColumn({ name: "sample_id", foreignKeyConstraintName: "FK_no_memory_floor_sample" })
  sample?: Sample;

  /** The floor's rule (NO_MEMORY_FLOOR_VERSION). */
  @PrimaryColumn({ type: "varchar", length: 20, primaryKeyConstraintName: "PK_no_memory_floor" })
  version: string;

  @PrimaryColumn({
    name: "sampled_instance_id",
    type: "bigint",
    primaryKeyConstraintName: "PK_no_memory_floor",
  })
  sampledInstanceId: string;

  @Column({ name: "dataset_instance_count", type: "int" })
  datasetInstanceCount: number;

  @Column({ type: "boolean" })
  memorized: boolean;

  /** Where the no-memory answer that matched comes from: copy or constant; null when none matched. */
  @Column({ type: "varchar", length: 10, nullable: true })
  strategy: string | null;

  /** The best no-memory answer (copy or constant) is exact, not only near-exact. */
  @Column({ type: "boolean", default: false })
  exact: boolean;

  /** The smallest k whose prompt shows a demonstration whose continuation matches; null when none does. */
  @Column({ name: "demonstration_shots", type: "int", nullable: true })
  demonstrationShots: number | null;

  @CreateDateColumn({ name: "computed_at", type: "timestamptz" })
  computedAt: Date;
}
