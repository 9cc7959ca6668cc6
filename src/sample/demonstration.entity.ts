import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { Instance } from "../dataset/instance.entity";
import { Field, ID, Int, ObjectType } from "../graphql/deferred-types";
import { Sample } from "./sample.entity";

/**
 * A sampled training instance shown in prompts. `rank` is its place in the nesting order:
 * the k-shot set is the demonstrations with rank < k, so every smaller k is inside every larger one.
 */
@ObjectType({ description: "A training instance shown in prompts, as a segment pair with its label." })
@Entity("demonstration")
@Index("UQ_demonstration_rank", ["sampleId", "rank"], { unique: true })
@Index("UQ_demonstration_instance", ["sampleId", "instanceId"], { unique: true })
export class Demonstration {
  @PrimaryColumn({ type: "bigint", generated: "identity", generatedIdentity: "ALWAYS" })
  @Field(() => ID)
  id: string;

  @Column({ name: "sample_id", type: "uuid" })
  sampleId: string;

  @ManyToOne(() => Sample, { onDelete: "CASCADE" })
  @JoinColumn({ name: "sample_id" })
  sample?: Sample;

  @Column({ name: "instance_id", type: "bigint" })
  instanceId: string;

  @ManyToOne(() => Instance, { onDelete: "RESTRICT" })
  @JoinColumn({ name: "instance_id" })
  instance?: Instance;

  @Column({ type: "int" })
  @Field(() => Int, {
    description: "Place in the nesting order: the k-shot set is the demonstrations with rank < k.",
  })
  rank: number;

  @Column({ type: "varchar", length: 200 })
  @Field()
  label: string;

  @Column({ name: "initial_segment", type: "text" })
  @Field()
  initialSegment: string;

  @Column({ name: "subsequent_segment", type: "text" })
  @Field()
  subsequentSegment: string;

  @Column({ name: "cut_token_index", type: "int", nullable: true })
  @Field(() => Int, { nullable: true })
  cutTokenIndex: number | null;

  @Column({ name: "token_count", type: "int" })
  @Field(() => Int)
  tokenCount: number;
}
