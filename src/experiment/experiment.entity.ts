import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from "typeorm";
import { Field, Float, ID, ObjectType } from "../graphql/deferred-types";

/** The runs that belong together: the grid of settings x k x kinds for one model over some samples. */
@ObjectType({ description: "Runs that belong together: the grid for one model." })
@Entity("experiment")
export class Experiment {
  @PrimaryGeneratedColumn("uuid")
  @Field(() => ID)
  id: string;

  @Column({ type: "varchar", length: 200 })
  @Field()
  name: string;

  @Column({ type: "varchar", length: 100 })
  @Field()
  provider: string;

  @Column({ type: "varchar", length: 200 })
  @Field()
  model: string;

  /** The request that created the experiment, so a retried request returns it instead of a second one. */
  @Column({ name: "idempotency_key", type: "varchar", length: 200, nullable: true, unique: true })
  idempotencyKey: string | null;

  /** The budget of all its runs together; null without one. */
  @Column({ name: "max_cost_usd", type: "numeric", precision: 14, scale: 6, nullable: true })
  @Field(() => Float, {
    nullable: true,
    description:
      "The budget of all its runs together, in US dollars: no call starts that could take their cost, counting the " +
      "worst case of the calls in flight, above it; null without one.",
  })
  maxCostUsd: string | null;

  @Column({ type: "jsonb", default: () => "'{}'" })
  parameters: Record<string, unknown>;

  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  @Field()
  createdAt: Date;
}
