import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from "typeorm";
import { Field, ID, Int, ObjectType } from "../graphql/deferred-types";
import { Dataset } from "./dataset.entity";
import { DatasetSource } from "./dataset-source.entity";

@Entity("instance")
@Index("IDX_instance_dataset_split_label", ["datasetId", "split", "label", "id"])
@Index("IDX_instance_dataset_id", ["datasetId", "id"])
@ObjectType({ description: "One row of a dataset, as imported." })
export class Instance {
  /** bigint identity; the driver returns it as a string. */
  @PrimaryColumn({ type: "bigint", generated: "identity", generatedIdentity: "ALWAYS" })
  @Field(() => ID)
  id: string;

  @Column({ name: "dataset_id", type: "uuid" })
  datasetId: string;

  @ManyToOne(() => Dataset, { onDelete: "CASCADE" })
  @JoinColumn({ name: "dataset_id" })
  dataset?: Dataset;

  @Column({ name: "source_id", type: "uuid" })
  sourceId: string;

  @ManyToOne(() => DatasetSource, { onDelete: "CASCADE" })
  @JoinColumn({ name: "source_id" })
  source?: DatasetSource;

  @Column({ type: "varchar", length: 50 })
  @Field()
  split: string;

  @Column({ type: "int" })
  @Field(() => Int, { description: "Line of the source file the row started on (1-based)." })
  line: number;

  @Column({ name: "external_id", type: "varchar", length: 200, nullable: true })
  @Field(() => String, { nullable: true, description: "The row's own id in the source, when it has one." })
  externalId: string | null;

  @Column({ type: "text" })
  @Field({ description: "The (first) text." })
  text: string;

  @Column({ name: "second_text", type: "text", nullable: true })
  @Field(() => String, { nullable: true, description: "The second text of an NLI pair." })
  secondText: string | null;

  @Column({ type: "varchar", length: 200 })
  @Field()
  label: string;
}
