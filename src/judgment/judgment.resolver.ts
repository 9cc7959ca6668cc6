import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from "type-graphql";
import { BadInputError, DomainError } from "../common/errors";
import { Completion } from "../completion/completion.entity";
import { CompletionConnection } from "../completion/completion.resolver";
import { Context } from "../graphql/context";
import { PageArgs } from "../graphql/page-args";
import {
  HEURISTIC_JUDGE_VERSION,
  HEURISTIC_JUDGE_VERSIONS,
  isHeuristicJudgeVersion,
} from "../judge/heuristic-judge";
import { JudgeKind } from "../study/verdicts";
import { JudgedSpan, judgedSpansOf } from "./judged-span";
import { Judgment } from "./judgment.entity";
import {
  BLIND_REASONS,
  JudgeAgreement,
  JudgeSelector,
  JudgingScope,
  LlmJudgingEstimate,
  RejudgeInput,
  RejudgePayload,
  ReviewCompletionInput,
  ReviewCompletionPayload,
  ReviewerAgreement,
  ReviewReason,
} from "./judgment.inputs";

@Resolver()
export class JudgmentResolver {
  @Mutation(() => ReviewCompletionPayload, {
    description:
      "Records a reviewer's verdict. It becomes the completion's effective verdict; earlier judgments stay as history.",
  })
  reviewCompletion(@Arg("input") input: ReviewCompletionInput, @Ctx() { services, principal }: Context) {
    // With keys on, the key says who reviewed; a client cannot record a review under another name.
    if (principal && input.reviewer && input.reviewer.trim() !== principal.name)
      throw new DomainError(
        "FORBIDDEN",
        `this key reviews as "${principal.name}"; leave reviewer out or send that name`,
        { field: "reviewer" },
      );
    const reviewer = principal?.name ?? input.reviewer?.trim();
    if (!reviewer) throw new BadInputError("reviewer is required (who reviewed)", { field: "reviewer" });
    return services.judgments.review(
      { ...input, reviewer, note: input.note ?? undefined },
      principal?.blind ? principal.keyId : null,
    );
  }

  @Mutation(() => RejudgePayload, {
    description: "Adds heuristic judgments for the scope's completions; never replaces any.",
  })
  async rejudge(@Arg("input") input: RejudgeInput, @Ctx() { services }: Context) {
    const llm = llmJudgeOfInput(input);
    if (llm) {
      const { request, queuedCount } = await services.judgments.requestLlmJudging(
        input.scope,
        llm.provider,
        llm.model,
        llm.promptVersion,
        llm.judgeVersion,
        input.unsureOnly ?? false,
      );
      return { judgedCount: 0, queuedCount, request };
    }
    const version = input.judge?.judgeVersion ?? HEURISTIC_JUDGE_VERSION;
    if (!isHeuristicJudgeVersion(version))
      throw new BadInputError(
        `judge.judgeVersion: a heuristic judge is ${HEURISTIC_JUDGE_VERSIONS.join(" or ")}`,
        {
          field: "judge",
        },
      );
    const judgedCount = await services.judgments.rejudgeHeuristically(
      input.scope,
      {
        rougeL: input.rougeL,
        containedReferenceMinTokens: input.containedReferenceMinTokens,
        charSimilarity: input.charSimilarity,
        contentPrecision: input.contentPrecision,
        contentRecall: input.contentRecall,
      },
      version,
    );
    return { judgedCount, queuedCount: 0, request: null };
  }

  @Query(() => LlmJudgingEstimate, {
    description:
      "What `rejudge` with the same input (an LLM judge) would send, before it does: calls, tokens and the " +
      "worst-case cost at the model's configured price. With `unsureOnly`, only the verdicts the heuristic judge is " +
      "unsure of.",
  })
  estimateJudging(@Arg("input") input: RejudgeInput, @Ctx() { services }: Context) {
    const llm = llmJudgeOfInput(input);
    if (!llm)
      throw new BadInputError("an estimate is for an LLM judge: a heuristic rejudge makes no call", {
        field: "judge",
      });
    return services.judgments.estimateLlmJudging(
      input.scope,
      llm.provider,
      llm.model,
      llm.promptVersion,
      llm.judgeVersion,
      input.unsureOnly ?? false,
    );
  }

  @Query(() => CompletionConnection, {
    description:
      "Completions a reviewer should look at, for a reason, paged. With `reviewer` (always, for a blind key: its " +
      "own name), that reviewer's own queue: what they have not reviewed yet, whatever other reviewers did.",
  })
  completionsToReview(
    @Arg("scope") scope: JudgingScope,
    @Arg("reason", () => ReviewReason, {
      defaultValue: ReviewReason.ROUTED,
      description:
        "Why items are routed; ROUTED (the default) names no verdict. A blind key: ROUTED, UNREVIEWED or SAMPLE.",
    })
    reason: ReviewReason,
    @Args() { first, after }: PageArgs,
    @Arg("seed", {
      defaultValue: "memicl",
      description: "Orders SAMPLE and ROUTED; the same seed gives the same order.",
    })
    seed: string,
    @Arg("reviewer", () => String, {
      nullable: true,
      description: "Leave out what this reviewer has reviewed: their own queue (a blind key's is its name).",
    })
    reviewer: string | null | undefined,
    @Ctx() { services, principal }: Context,
  ) {
    let own = reviewer?.trim() || null;
    if (principal?.blind) {
      if (own && own !== principal.name)
        throw new DomainError(
          "FORBIDDEN",
          `this key reviews blind as "${principal.name}"; its queue is its own`,
          {
            field: "reviewer",
          },
        );
      if (!BLIND_REASONS.includes(reason))
        throw new DomainError(
          "FORBIDDEN",
          `reason ${reason} names a verdict, which a blind reviewer does not see: ask for ${BLIND_REASONS.join(", ")}`,
          { field: "reason" },
        );
      own = principal.name;
    }
    return services.judgments.toReview(
      scope,
      reason,
      first,
      after ?? null,
      seed,
      own,
      principal?.blind ? principal.keyId : null,
    );
  }

  @Query(() => ReviewerAgreement, {
    description:
      "Agreement between human reviewers on the scope's completions that every one of them reviewed (`items` says " +
      "how many) " +
      "(inter-annotator agreement; compare it with judgeAgreement of an automatic judge against HUMAN).",
  })
  reviewerAgreement(@Arg("scope") scope: JudgingScope, @Ctx() { services }: Context) {
    return services.judgments.reviewerAgreement(scope);
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

@Resolver(() => Judgment)
export class JudgmentSpansResolver {
  @FieldResolver(() => [JudgedSpan], {
    nullable: true,
    description:
      "Why the heuristic judge decided as it did: each span where the answer differs from the reference, classed as a changed fact, a change of form, or unsure. Empty where the answer differs only in case, punctuation, accents, number format, contractions or a word's other form (the alignment meets them); null where the judge recorded none (heuristic-7 and earlier, LLM and human judgments).",
  })
  spans(@Root() judgment: Judgment): JudgedSpan[] | null {
    return judgedSpansOf(judgment.details);
  }

  @FieldResolver(() => Boolean, {
    nullable: true,
    description:
      "Whether the verdict rests on a span the heuristic judge cannot class (an UNSURE span decided by the overlap rules): the report counts it between its lower and upper bounds, and `rejudge(unsureOnly: true)` or a review queue with `unsureOnly` settles such verdicts alone. null where the judgment records no such mark (heuristic-7 and earlier, heuristic-8 judgments stored before the mark, LLM and human judgments).",
  })
  unsure(@Root() judgment: Judgment): boolean | null {
    const unsure = (judgment.details as { unsure?: unknown } | null)?.unsure;
    return typeof unsure === "boolean" ? unsure : null;
  }
}

/**
 * The LLM judge a rejudge input names (with its provider and model), null for the heuristic judge; refuses a human
 * judge, an LLM judge without a provider or model, and `unsureOnly` without an LLM judge.
 */
function llmJudgeOfInput(input: RejudgeInput) {
  const judge = input.judge;
  if (judge?.kind === JudgeKind.HUMAN)
    throw new BadInputError("a human judges through reviewCompletion", { field: "judge" });
  if (judge?.kind !== JudgeKind.LLM) {
    if (input.unsureOnly)
      throw new BadInputError(
        "unsureOnly settles the heuristic judge's unsure verdicts with an LLM judge (judge: {kind: LLM, provider, " +
          "model}) or a review (completionsToReview reason UNSURE); a heuristic rejudge judges every completion again",
        { field: "unsureOnly" },
      );
    return null;
  }
  if (!judge.provider || !judge.model)
    throw new BadInputError("an LLM judge needs a provider and a model", { field: "judge" });
  return {
    provider: judge.provider,
    model: judge.model,
    promptVersion: judge.promptVersion,
    judgeVersion: judge.judgeVersion,
  };
}
