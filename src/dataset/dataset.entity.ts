import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from "typeorm";
import { Field, ID, Int, ObjectType } from "../graphql/deferred-types";
import { TaskKind } from "../study/task";

@ObjectType({ description: "A label of a dataset and the words that stand for it in prompts." })
export class LabelVerbalizer {
  @Field({ description: "The label as stored in the source file." })
  label: string;

  @Field({ description: "The word or phrase prompts use for the label." })
  verbalizer: string;
}

@Entity("dataset")
@ObjectType({ description: "A named collection of labelled instances, imported from one or more files." })
export class Dataset {
  @PrimaryGeneratedColumn("uuid")
  @Field(() => ID)
  id: string;

  @Column({ type: "varchar", length: 200, unique: true })
  @Field()
  name: string;

  @Column({ name: "prompt_name", type: "varchar", length: 200, nullable: true })
  @Field(() => String, {
    nullable: true,
    description: "How prompts name the dataset (e.g. `RTE`); the name when unset.",
  })
  promptName: string | null;

  @Column({ name: "task_kind", type: "enum", enum: TaskKind })
  @Field(() => TaskKind)
  taskKind: TaskKind;

  @Column({ name: "text_fields", type: "jsonb" })
  @Field(() => [String], { description: "Names of the source fields that hold the instance text(s)." })
  textFields: string[];

  @Column({ name: "label_verbalizers", type: "jsonb", default: () => "'[]'" })
  @Field(() => [LabelVerbalizer])
  labelVerbalizers: LabelVerbalizer[];

  /**
   * The dataset this one is a control of: data the model cannot have memorized (published after its cutoff, or
   * never published), run on the same grid; the report sets each rate of that dataset against this one's.
   */
  @Column({ name: "control_of_id", type: "uuid", nullable: true })
  controlOfId: string | null;

  @ManyToOne(() => Dataset, { nullable: true, onDelete: "SET NULL" })
  @JoinColumn({ name: "control_of_id" })
  controlOf?: Dataset | null;

  @Column({ name: "instance_count", type: "int", default: 0 })
  @Field(() => Int, { description: "Instances across all splits." })
  totalInstanceCount: number;

  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  @Field()
  createdAt: Date;

  @UpdateDateColumn({ name: "updated_at", type: "timestamptz" })
  @Field()
  updatedAt: Date;
}
