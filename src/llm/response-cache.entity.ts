import { Column, CreateDateColumn, Entity, PrimaryColumn } from "typeorm";

/** Responses keyed by provider + model + messages + sampling parameters + repeat index. */
@Entity("response_cache")
export class ResponseCacheEntry {
  @PrimaryColumn({ type: "char", length: 64 })
  key: string;

  @Column({ type: "varchar", length: 100 })
  provider: string;

  @Column({ type: "varchar", length: 200 })
  model: string;

  @Column({ type: "jsonb" })
  response: Record<string, unknown>;

  @Column({ name: "hit_count", type: "int", default: 0 })
  hitCount: number;

  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  createdAt: Date;
}
