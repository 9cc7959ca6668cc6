import { BudgetService } from "./budget.service";

/** What budgets add to the request context (src/graphql/context.ts). */
declare module "../graphql/context" {
  interface Services {
    budgets: BudgetService;
  }
}
