import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from "typeorm";
import { Field, ID, Int, ObjectType } from "../graphql/deferred-types";
import { Dataset } from "./dataset.entity";

/** One imported file: recognising its fingerprint again makes re-import a no-op. */
@Entity("dataset_source")
@Index("UQ_dataset_source_fingerprint", ["datasetId", "fingerprint"], { unique: true })
@ObjectType({ description: "A file imported into a dataset." })
export class DatasetSource {
  @PrimaryGeneratedColumn("uuid")
  @Field(() => ID)
  id: string;

  @Column({ name: "dataset_id", type: "uuid" })
  datasetId: string;

  @ManyToOne(() => Dataset, { onDelete: "CASCADE" })
  @JoinColumn({ name: "dataset_id" })
  dataset?: Dataset;

  @Column({ type: "varchar", length: 50 })
  @Field()
  split: string;

  @Column({ type: "varchar", length: 10 })
  @Field()
  format: string;

  @Column({ name: "file_name", type: "varchar", length: 500 })
  @Field()
  fileName: string;

  @Column({ type: "char", length: 64 })
  @Field({ description: "SHA-256 of the file's bytes and the field mapping used to read it." })
  fingerprint: string;

  @Column({ name: "row_count", type: "int" })
  @Field(() => Int)
  rowCount: number;

  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  @Field()
  createdAt: Date;
}
