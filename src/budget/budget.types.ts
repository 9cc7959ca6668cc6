import { IsOptional, IsPositive } from "class-validator";
import { Field, Float, ID, InputType, Int, ObjectType } from "type-graphql";
import { Experiment } from "../experiment/experiment.entity";
import { Run } from "../run/run.entity";

@InputType({ description: "A new budget for an experiment (all its runs together) or for one run." })
export class SetBudgetInput {
  @Field(() => ID, { nullable: true, description: "The experiment whose budget it is (or give runId)." })
  @IsOptional()
  experimentId?: string;

  @Field(() => ID, { nullable: true, description: "The run whose own budget it is (or give experimentId)." })
  @IsOptional()
  runId?: string;

  @Field(() => Float, {
    nullable: true,
    description:
      "US dollars; null removes the budget. Raising it (or removing it) resumes the runs it paused.",
  })
  @IsOptional()
  @IsPositive()
  maxCostUsd?: number | null;
}

@ObjectType({
  description: "One budget as it stands: its limit, what was spent, what the calls in flight hold.",
})
export class BudgetView {
  @Field({ description: "EXPERIMENT or RUN: whose budget it is." })
  scope: string;

  @Field(() => Float)
  maxCostUsd: number;

  @Field(() => Float, { description: "What the calls stored so far cost (the runs' costUsd)." })
  spentUsd: number;

  @Field(() => Float, { description: "The worst case of the calls in flight now, held against the budget." })
  inFlightUsd: number;

  @Field(() => Int, { description: "Calls in flight now that hold part of the budget." })
  inFlightCalls: number;

  @Field(() => Float, { description: "Budget - spent - in flight, at least 0: what further calls may use." })
  remainingUsd: number;

  @Field(() => Int, { description: "The budget's runs it paused (PAUSED_BUDGET)." })
  pausedRuns: number;

  @Field(() => Int, {
    description:
      "Calls whose provider returned more output tokens than max_tokens allows: charged as reported, and the " +
      "budget's runs paused at once.",
  })
  overrunCalls: number;

  @Field(() => Int, {
    description:
      "Calls whose provider reported no usable usage (missing, negative, fractional, too large): charged at their " +
      "worst case (the prompt's counted tokens at the full price plus max_tokens), never at $0.",
  })
  worstCaseCharges: number;
}

@ObjectType()
export class SetBudgetPayload {
  @Field(() => Experiment, { nullable: true })
  experiment: Experiment | null;

  @Field(() => Run, { nullable: true })
  run: Run | null;

  @Field(() => BudgetView, { nullable: true, description: "The budget as it stands now; null when removed." })
  budget: BudgetView | null;

  @Field(() => Int, {
    description: "Runs the budget had paused that were resumed (they pause again if it is short).",
  })
  resumedRuns: number;
}
