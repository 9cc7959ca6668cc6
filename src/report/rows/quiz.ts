// The row types of the report table in ../tables/quiz.ts: what its analysis returns and GraphQL serves.

import { Field, Float, ID, Int, ObjectType } from "../../graphql/deferred-types";
import { SampleScoped } from "../tables/scope";

@ObjectType({ description: "One bias compensator quiz: the original at one letter, and what was answered." })
export class QuizCompensatorRow {
  @Field({ description: "Where the original sat." })
  letter: string;

  @Field({ description: "A letter the detector quiz shows the model does not prefer: its hits count." })
  nonPreferred: boolean;

  @Field(() => Int, { description: "Answers naming the original's letter." })
  hits: number;

  @Field(() => [Int], { description: "Answers A, B, C, D, E, in that order." })
  answers: number[];

  @Field(() => Int, { description: "Answers without a standalone letter A-E." })
  unreadable: number;

  @Field(() => Int, { description: "Calls that failed." })
  failed: number;
}

@ObjectType({
  description:
    "The Data Contamination Quiz on one sample: the option set, the bias detector quiz (letters the model prefers " +
    "with no original among the options), the bias compensator quizzes, and the detected contamination range " +
    "[lower, upper] (Golchin & Surdeanu): upper = hits of the best non-preferred letter / n; kappa = (hits - " +
    "detector answers of that letter) / (n - those); lower = max(kappa, hits of the second letter / n).",
  implements: SampleScoped,
})
export class QuizRangeRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => String, { nullable: true })
  split: string | null;

  @Field(() => ID)
  optionSetId: string;

  @Field()
  generatorProvider: string;

  @Field()
  generatorModel: string;

  @Field(() => Int)
  optionTemplateVersion: number;

  @Field(() => Int, { description: "n: instances with valid options, each quizzed once per quiz." })
  instances: number;

  @Field(() => Int, { description: "Instances of the sample." })
  sampledInstances: number;

  @Field(() => Int, { description: "Instances whose options were given up (every generation rejected)." })
  optionsGivenUp: number;

  @Field(() => Int, { description: "Generations rejected by the option checks." })
  rejectedGenerations: number;

  @Field(() => Int, { description: "Of those, generations that had the original among their options." })
  originalAmongOptions: number;

  @Field(() => [Int], { description: "The bias detector quiz's answers A, B, C, D, E, in that order." })
  bias: number[];

  @Field(() => Int)
  biasUnreadable: number;

  @Field(() => [String], {
    description: "Letters answered fewer than ceil(n / 5) times in the detector quiz.",
  })
  nonPreferred: string[];

  @Field(() => [QuizCompensatorRow])
  compensators: QuizCompensatorRow[];

  @Field(() => Float, { nullable: true })
  upper: number | null;

  @Field(() => Float, { nullable: true })
  lower: number | null;

  @Field(() => Float, { nullable: true })
  kappa: number | null;

  @Field(() => String, { nullable: true, description: "The best letter: most hits, then least bias." })
  best: string | null;

  @Field(() => String, { nullable: true })
  second: string | null;

  @Field({ description: "Every quiz run ended with nothing waiting." })
  complete: boolean;

  @Field(() => [String], { description: "Edge cases met, and what was done." })
  notes: string[];
}
