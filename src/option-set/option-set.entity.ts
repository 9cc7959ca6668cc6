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
import { Sample } from "../sample/sample.entity";

/**
 * The Data Contamination Quiz's options for a sample: four word-level perturbations of each instance under test,
 * written by a named generator model with a versioned prompt. Generated once (its run is the `QUIZ_OPTIONS` run
 * with this `option_set_id`) and reused by every examined model's quiz on the sample, so their quizzes are the same.
 */
@ObjectType({
  description:
    "Generated quiz options for a sample, by one generator model and prompt version, shared by every examined model's quiz.",
})
@Entity("quiz_option_set")
@Index(
  "UQ_quiz_option_set_generator",
  ["sampleId", "provider", "model", "templateVersion", "maxGenerations"],
  {
    unique: true,
  },
)
export class QuizOptionSet {
  @PrimaryGeneratedColumn("uuid")
  @Field(() => ID)
  id: string;

  @Column({ name: "sample_id", type: "uuid" })
  @Field(() => ID)
  sampleId: string;

  @ManyToOne(() => Sample, { onDelete: "CASCADE" })
  @JoinColumn({ name: "sample_id" })
  sample?: Sample;

  @Column({ type: "varchar", length: 100 })
  @Field({ description: "The generator's provider." })
  provider: string;

  @Column({ type: "varchar", length: 200 })
  @Field({ description: "The generator model, as requested." })
  model: string;

  @Column({ name: "template_version", type: "int" })
  @Field(() => Int, { description: "The option-generation prompt's version." })
  templateVersion: number;

  @Column({ name: "max_generations", type: "int" })
  @Field(() => Int, {
    description:
      "Generations an instance may take: its options are given up when the last one is rejected too.",
  })
  maxGenerations: number;

  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  @Field()
  createdAt: Date;
}

/**
 * One instance's options in a set: the last generation's parsed options, whether they passed the checks (four,
 * pairwise distinct, none the original, each a word-level edit of it), and how many generations it took.
 * `final`: usable (valid) or given up; a quiz's item waits until its instance's row is final.
 */
@Entity("quiz_option")
@Index("UQ_quiz_option_instance", ["optionSetId", "sampledInstanceId"], { unique: true })
export class QuizOption {
  @PrimaryGeneratedColumn({ type: "bigint" })
  id: string;

  @Column({ name: "option_set_id", type: "uuid" })
  optionSetId: string;

  @ManyToOne(() => QuizOptionSet, { onDelete: "CASCADE" })
  @JoinColumn({ name: "option_set_id" })
  optionSet?: QuizOptionSet;

  @Column({ name: "sampled_instance_id", type: "bigint" })
  sampledInstanceId: string;

  /** The generation whose answer this is (the option-generation run's completion). */
  @Column({ name: "completion_id", type: "bigint" })
  completionId: string;

  @Column({ type: "jsonb" })
  options: string[];

  @Column({ type: "int" })
  generations: number;

  @Column({ type: "boolean" })
  valid: boolean;

  @Column({ type: "boolean" })
  final: boolean;

  /** Why the last generation was rejected; empty when it is valid. */
  @Column({ type: "jsonb", default: () => "'[]'" })
  problems: string[];

  /** Every rejected generation's problems, in order (the defects the checks caught). */
  @Column({ name: "rejections", type: "jsonb", default: () => "'[]'" })
  rejections: string[][];
}
