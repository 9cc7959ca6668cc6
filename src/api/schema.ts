import { createPubSub } from "@graphql-yoga/subscription";
import { GraphQLSchema } from "graphql";
import { buildSchema } from "type-graphql";
import "../graphql/study-enums";
import { RunBatchesResolver } from "../batch/batch.resolver";
import { BudgetResolver, ExperimentBudgetResolver, RunBudgetResolver } from "../budget/budget.resolver";
import { CompletionResolver, RunCompletionsResolver } from "../completion/completion.resolver";
import { DatasetResolver } from "../dataset/dataset.resolver";
import { InstanceResolver } from "../dataset/instance.resolver";
import { DeletionResolver } from "../deletion/deletion.resolver";
import { ExperimentResolver } from "../experiment/experiment.resolver";
import { applyDeferredTypes } from "../graphql/deferred-types";
import {
  CompletionJudgmentResolver,
  JudgmentResolver,
  JudgmentSpansResolver,
} from "../judgment/judgment.resolver";
import { OptionSetResolver } from "../option-set/option-set.resolver";
import { ExperimentComparisonResolver, ReportResolver, StudyReportResolver } from "../report/report.resolver";
import { ReportRowResolver } from "../report/report-row.resolver";
import { ExperimentRunsResolver, RunResolver } from "../run/run.resolver";
import {
  DatasetSamplesResolver,
  DemonstrationResolver,
  SampledInstanceResolver,
  SampleResolver,
} from "../sample/sample.resolver";
import { TemplateResolver } from "../template/template.resolver";
import { WorkerResolver } from "../worker/worker.resolver";
import { VersionResolver } from "./version.resolver";

export const RESOLVERS = [
  DatasetResolver,
  InstanceResolver,
  SampleResolver,
  SampledInstanceResolver,
  DemonstrationResolver,
  DatasetSamplesResolver,
  TemplateResolver,
  RunResolver,
  ExperimentResolver,
  ExperimentRunsResolver,
  BudgetResolver,
  ExperimentBudgetResolver,
  RunBudgetResolver,
  RunBatchesResolver,
  CompletionResolver,
  RunCompletionsResolver,
  JudgmentResolver,
  CompletionJudgmentResolver,
  JudgmentSpansResolver,
  ReportResolver,
  StudyReportResolver,
  ExperimentComparisonResolver,
  ReportRowResolver,
  WorkerResolver,
  VersionResolver,
  DeletionResolver,
  OptionSetResolver,
] as const;

export function createSchema(): Promise<GraphQLSchema> {
  applyDeferredTypes();
  return buildSchema({
    resolvers: RESOLVERS,
    validate: { forbidUnknownValues: false },
    // Required by type-graphql for subscriptions; ours read the database themselves (run/progress.ts), so that
    // progress made in any process shows, and publish nothing through it.
    pubSub: createPubSub(),
  });
}
