import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from "typeorm";

/** The runs that belong together: the grid of settings x k x kinds for one model over some samples. */
@Entity("experiment")
export class Experiment {
  @PrimaryGeneratedColumn("uuid")
  id: string;

  @Column({ type: "varchar", length: 200 })
  name: string;

  @Column({ type: "varchar", length: 100 })
  provider: string;

  @Column({ type: "varchar", length: 200 })
  model: string;

  /** The request that created the experiment, so a retried request returns it instead of a second one. */
  @Column({ name: "idempotency_key", type: "varchar", length: 200, nullable: true, unique: true })
  idempotencyKey: string | null;

  @Column({ type: "jsonb", default: () => "'{}'" })
  parameters: Record<string, unknown>;

  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  createdAt: Date;
}
