import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root } from "type-graphql";
import { Experiment } from "../experiment/experiment.entity";
import { Context } from "../graphql/context";
import { Run } from "../run/run.entity";
import { BudgetView, SetBudgetInput, SetBudgetPayload } from "./budget.types";

@Resolver()
export class BudgetResolver {
  @Mutation(() => SetBudgetPayload, {
    description:
      "Sets, raises or removes the budget of an experiment or a run; the runs it paused are resumed (they pause " +
      "again at the next call that could exceed it). Needs the provider's prices for the model.",
  })
  setBudget(@Arg("input") input: SetBudgetInput, @Ctx() { services }: Context) {
    return services.budgets.setBudget(input);
  }
}

/** An experiment's budget as it stands: the budget concept's field on an experiment. */
@Resolver(() => Experiment)
export class ExperimentBudgetResolver {
  @FieldResolver(() => BudgetView, {
    nullable: true,
    description: "Its budget as it stands (spent, in flight, remaining); null without one.",
  })
  budget(@Root() experiment: Experiment, @Ctx() { services }: Context) {
    return experiment.maxCostUsd === null ? null : services.budgets.budgetOf({ experimentId: experiment.id });
  }
}

/** A run's own budget as it stands. */
@Resolver(() => Run)
export class RunBudgetResolver {
  @FieldResolver(() => BudgetView, {
    nullable: true,
    description: "Its own budget as it stands (spent, in flight, remaining); null without one.",
  })
  budget(@Root() run: Run, @Ctx() { services }: Context) {
    return run.maxCostUsd === null ? null : services.budgets.budgetOf({ runId: run.id });
  }
}
