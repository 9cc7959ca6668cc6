import { CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { ApiKey } from "../auth/api-key.entity";
import { Completion } from "../completion/completion.entity";

/**
 * A completion a blind reviewer's queue served to its key: such a key may review only what it was served, so a
 * blind reviewer cannot record a verdict on an item it picked itself (of another experiment, or never routed).
 */
@Entity("review_assignment")
@Index("IDX_review_assignment_completion", ["completionId"])
export class ReviewAssignment {
  @PrimaryColumn({ name: "api_key_id", type: "uuid", primaryKeyConstraintName: "PK_review_assignment" })
  apiKeyId: string;

  @PrimaryColumn({ name: "completion_id", type: "bigint", primaryKeyConstraintName: "PK_review_assignment" })
  completionId: string;

  @ManyToOne(() => ApiKey, { onDelete: "CASCADE" })
  @JoinColumn({ name: "api_key_id" })
  apiKey?: ApiKey;

  @ManyToOne(() => Completion, { onDelete: "CASCADE" })
  @JoinColumn({ name: "completion_id" })
  completion?: Completion;

  @CreateDateColumn({ name: "served_at", type: "timestamptz" })
  servedAt: Date;
}
