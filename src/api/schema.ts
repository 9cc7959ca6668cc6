import { createPubSub } from "@graphql-yoga/subscription";
import { GraphQLSchema } from "graphql";
import { buildSchema } from "type-graphql";
import "../graphql/study-enums";
import { DatasetResolver } from "../dataset/dataset.resolver";
import { InstanceResolver } from "../instance/instance.resolver";
import { CompletionJudgmentResolver, JudgmentResolver } from "../judgment/judgment.resolver";
import { DeletionResolver } from "../lifecycle/deletion.resolver";
import { MetricResolver } from "../results/metric.resolver";
import { ResultResolver } from "../results/result.resolver";
import { CompletionResolver, ExperimentResolver, RunResolver } from "../run/run.resolver";
import { DemonstrationResolver, SampledInstanceResolver, SampleResolver } from "../sample/sample.resolver";
import { TemplateResolver } from "../template/template.resolver";
import { WorkerResolver } from "../worker/worker.resolver";
import { VersionResolver } from "./version.resolver";

export const RESOLVERS = [
  DatasetResolver,
  InstanceResolver,
  SampleResolver,
  SampledInstanceResolver,
  DemonstrationResolver,
  TemplateResolver,
  RunResolver,
  ExperimentResolver,
  CompletionResolver,
  JudgmentResolver,
  CompletionJudgmentResolver,
  ResultResolver,
  MetricResolver,
  WorkerResolver,
  VersionResolver,
  DeletionResolver,
] as const;

export function createSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: RESOLVERS,
    validate: { forbidUnknownValues: false },
    // Required by type-graphql for subscriptions; ours read the database themselves (run/progress.ts), so that
    // progress made in any process shows, and publish nothing through it.
    pubSub: createPubSub(),
  });
}
