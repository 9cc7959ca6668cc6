import { Arg, Ctx, Field, FieldResolver, ID, Int, ObjectType, Query, Resolver, Root } from "type-graphql";
import { Context } from "../graphql/context";
import { QuizOptionSet } from "./option-set.entity";
import "./option-set.context";

@ObjectType({ description: "What an option set holds, counted." })
class QuizOptionSetCounts {
  @Field(() => Int, { description: "Instances of the sample." })
  instances: number;

  @Field(() => Int, { description: "Instances with valid options: the ones quizzed." })
  valid: number;

  @Field(() => Int, { description: "Instances whose options were rejected at every generation." })
  givenUp: number;

  @Field(() => Int, { description: "Instances whose options are not final yet." })
  waiting: number;

  @Field(() => Int, { description: "Generations the checks rejected." })
  rejectedGenerations: number;
}

@ObjectType({ description: "One instance's options in a set: the last generation's, checked." })
class QuizOptionView {
  @Field(() => ID)
  sampledInstanceId: string;

  @Field(() => [String], { description: "The options in letter order (A-D when valid)." })
  options: string[];

  @Field(() => Int)
  generations: number;

  @Field()
  valid: boolean;

  @Field({ description: "Valid, or given up: the quizzes of the instance no longer wait." })
  final: boolean;

  @Field(() => [String], { description: "Why the last generation was rejected; empty when valid." })
  problems: string[];

  @Field(() => [[String]], { description: "Every rejected generation's problems, in order." })
  rejections: string[][];
}

@Resolver(() => QuizOptionSet)
export class OptionSetResolver {
  @Query(() => [QuizOptionSet], {
    description: "The quiz's option sets of a sample (or every sample), newest first (at most 100).",
  })
  quizOptionSets(
    @Arg("sampleId", () => ID, { nullable: true }) sampleId: string | null,
    @Ctx() { services }: Context,
  ) {
    return services.optionSets.list(sampleId ?? null);
  }

  @Query(() => QuizOptionSet, { nullable: true })
  quizOptionSet(@Arg("id", () => ID) id: string, @Ctx() { services }: Context) {
    return services.optionSets.get(id);
  }

  @FieldResolver(() => QuizOptionSetCounts)
  counts(@Root() set: QuizOptionSet, @Ctx() { services }: Context) {
    return services.optionSets.counts(set);
  }

  @FieldResolver(() => [QuizOptionView], {
    description:
      "Each instance's options in the sample's order (generated text: shown to viewers and above).",
  })
  options(
    @Root() set: QuizOptionSet,
    @Arg("first", () => Int, { defaultValue: 100 }) first: number,
    @Arg("afterPosition", () => Int, { defaultValue: -1, description: "The sample position to start after." })
    after: number,
    @Ctx() { services }: Context,
  ) {
    return services.optionSets.options(set, first, after);
  }
}
