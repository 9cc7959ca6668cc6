import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from "typeorm";

/**
 * A versioned prompt template. Rows are immutable once written: an edit is a new version,
 * and every run records the (key, version) it used.
 */
@Entity("prompt_template")
@Index("UQ_prompt_template_version", ["key", "version"], { unique: true })
export class PromptTemplate {
  @PrimaryGeneratedColumn("uuid")
  id: string;

  /** e.g. `memorization/full-information/nli`, `performance/classification`, `judge`. */
  @Column({ type: "varchar", length: 100 })
  key: string;

  @Column({ type: "int" })
  version: number;

  @Column({ type: "jsonb" })
  body: Record<string, unknown>;

  @Column({ type: "varchar", length: 500, nullable: true })
  note: string | null;

  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  createdAt: Date;
}
