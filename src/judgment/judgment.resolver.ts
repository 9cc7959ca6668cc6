import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from "type-graphql";
import { Context } from "../api/context";
import { Completion } from "../completion/completion.entity";
import { Judgment } from "./judgment.entity";
import {
  JudgeAgreement,
  JudgeSelector,
  JudgingScope,
  RejudgeInput,
  RejudgePayload,
  ReviewCompletionInput,
  ReviewCompletionPayload,
} from "./judgment.inputs";

@Resolver()
export class JudgmentResolver {
  @Mutation(() => ReviewCompletionPayload, {
    description:
      "Records a reviewer's verdict. It becomes the completion's effective verdict; earlier judgments stay as history.",
  })
  reviewCompletion(@Arg("input") input: ReviewCompletionInput, @Ctx() { services }: Context) {
    return services.judgments.review(input);
  }

  @Mutation(() => RejudgePayload, {
    description: "Adds heuristic judgments for the scope's completions; never replaces any.",
  })
  async rejudge(@Arg("input") input: RejudgeInput, @Ctx() { services }: Context) {
    const judgedCount = await services.judgments.rejudgeHeuristically(input.scope, {
      rougeL: input.rougeL,
      containedReferenceMinTokens: input.containedReferenceMinTokens,
      charSimilarity: input.charSimilarity,
    });
    return { judgedCount };
  }

  @Query(() => JudgeAgreement, {
    description:
      "Agreement between two judges (either may be HUMAN) on the scope's memorization completions.",
  })
  judgeAgreement(
    @Arg("scope") scope: JudgingScope,
    @Arg("judgeA") judgeA: JudgeSelector,
    @Arg("judgeB") judgeB: JudgeSelector,
    @Ctx() { services }: Context,
  ) {
    return services.judgments.agreement(scope, judgeA, judgeB);
  }
}

@Resolver(() => Completion)
export class CompletionJudgmentResolver {
  @FieldResolver(() => [Judgment], { description: "Every judgment of this completion, newest first." })
  judgments(@Root() completion: Completion, @Ctx() { loaders }: Context) {
    return loaders.judgmentHistory.load(completion.id);
  }

  @FieldResolver(() => Judgment, {
    nullable: true,
    description: "The latest human judgment, else the latest automatic one.",
  })
  effectiveJudgment(@Root() completion: Completion, @Ctx() { loaders }: Context) {
    return loaders.effectiveJudgment.load(completion.id);
  }
}
