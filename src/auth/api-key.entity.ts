import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from "typeorm";

/** An API key: who it is (name, role); only the SHA-256 of the secret is kept. */
@Entity("api_key")
@Index("UQ_api_key_hash", ["keyHash"], { unique: true })
@Index("UQ_api_key_live_name", ["name"], { unique: true, where: `"revoked_at" IS NULL` })
export class ApiKey {
  @PrimaryGeneratedColumn("uuid", { primaryKeyConstraintName: "PK_api_key" })
  id: string;

  @Column({ type: "varchar", length: 100 })
  name: string;

  @Column({ type: "varchar", length: 20 })
  role: string;

  /** A blind reviewer: its queries reach neither automatic verdicts, other reviewers' verdicts nor the model. */
  @Column({ type: "boolean", default: false })
  blind: boolean;

  @Column({ name: "key_hash", type: "char", length: 64 })
  keyHash: string;

  /** The key's first characters, to tell keys apart in listings (not enough to use it). */
  @Column({ type: "varchar", length: 20 })
  prefix: string;

  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  createdAt: Date;

  @Column({ name: "revoked_at", type: "timestamptz", nullable: true })
  revokedAt: Date | null;

  @Column({ name: "last_used_at", type: "timestamptz", nullable: true })
  lastUsedAt: Date | null;
}
