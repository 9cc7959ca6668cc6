import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { Instance } from "../dataset/instance.entity";
import { Field, ID, Int, ObjectType } from "../graphql/deferred-types";
import { Sample } from "./sample.entity";

/** An instance under test in a sample, with its recorded segmentation. */
@ObjectType({ description: "An instance under test in a sample, with its recorded segmentation." })
@Entity("sampled_instance")
@Index("UQ_sampled_instance_position", ["sampleId", "position"], { unique: true })
@Index("UQ_sampled_instance_instance", ["sampleId", "instanceId"], { unique: true })
// md5(initial_segment), created in the migration: lets the simulated model find the instance a prompt asks about.
@Index("IDX_sampled_instance_initial_md5", { synchronize: false })
export class SampledInstance {
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
  @Field(() => Int)
  position: number;

  @Column({ type: "varchar", length: 200 })
  @Field()
  label: string;

  @Column({ name: "initial_segment", type: "text" })
  @Field()
  initialSegment: string;

  @Column({ name: "subsequent_segment", type: "text" })
  @Field({ description: "The reference a replication is judged against." })
  subsequentSegment: string;

  /** Whitespace tokens in the initial segment (null for NLI, where the cut is between the two texts). */
  @Column({ name: "cut_token_index", type: "int", nullable: true })
  @Field(() => Int, {
    nullable: true,
    description: "Whitespace tokens in the initial segment (null for NLI).",
  })
  cutTokenIndex: number | null;

  @Column({ name: "token_count", type: "int" })
  @Field(() => Int)
  tokenCount: number;
}
