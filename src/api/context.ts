import DataLoader from "dataloader";
import { Principal } from "../auth/api-key.service";
import { Page } from "../common/connection";
import { Completion } from "../completion/completion.entity";
import { Config } from "../config/config";
import { Dataset } from "../dataset/dataset.entity";
import { InstanceFilter, LabelCount } from "../dataset/dataset.inputs";
import { InstancePageKey } from "../dataset/dataset.service";
import { DatasetSource } from "../dataset/dataset-source.entity";
import { Demonstration } from "../demonstration/demonstration.entity";
import { Instance } from "../instance/instance.entity";
import { Judgment } from "../judgment/judgment.entity";
import { Logger } from "../logging/logger";
import { Run } from "../run/run.entity";
import { Sample } from "../sample/sample.entity";
import { SampledInstance } from "../sample/sampled-instance.entity";
import { RenderBudget } from "../template/prompt.service";
import { Services } from "./services";

/** Per-request loaders: every relation a list can reach is batched, so nested lists cost one query per level. */
export interface Loaders {
  dataset: DataLoader<string, Dataset | null>;
  datasetSources: DataLoader<string, DatasetSource[]>;
  labelCounts: DataLoader<Dataset, LabelCount[]>;
  instance: DataLoader<string, Instance | null>;
  instanceCount: DataLoader<{ datasetId: string; filter: InstanceFilter }, number, string>;
  instancePage: DataLoader<InstancePageKey, Page<Instance>, string>;
  datasetSamples: DataLoader<string, Sample[]>;
  sampleInstanceCount: DataLoader<string, number>;
  sampleDemonstrationCount: DataLoader<string, number>;
  sampledInstancePage: DataLoader<
    { sampleId: string; first: number; after: string | null },
    Page<SampledInstance>,
    string
  >;
  demonstrationSet: DataLoader<{ sampleId: string; shots: number }, Demonstration[], string>;
  sample: DataLoader<string, Sample | null>;
  sampledInstance: DataLoader<string, SampledInstance | null>;
  experimentRuns: DataLoader<string, Run[]>;
  judgmentHistory: DataLoader<string, Judgment[]>;
  effectiveJudgment: DataLoader<string, Judgment | null>;
  completionPage: DataLoader<
    { runId: string; first: number; after: string | null; status: string | null },
    Page<Completion>,
    string
  >;
}

export interface Context {
  config: Config;
  services: Services;
  loaders: Loaders;
  logger: Logger;
  /** The API key that made the request (null when authentication is off). */
  principal: Principal | null;
  /** Prompts this request's estimates may still render (all its `estimateGrid` aliases share it). */
  estimateBudget: RenderBudget;
}

/** Loaders keyed by objects compare keys by value. */
function keyedByValue<K, V>(batch: (keys: readonly K[]) => Promise<V[]>): DataLoader<K, V, string> {
  return new DataLoader<K, V, string>(batch, { cacheKeyFn: (key) => JSON.stringify(key) });
}

export function createLoaders(services: Services): Loaders {
  const { datasets, samples } = services;
  return {
    dataset: new DataLoader((ids) => datasets.datasetsByIds(ids)),
    datasetSources: new DataLoader((ids) => datasets.sourcesByDatasetIds(ids)),
    labelCounts: new DataLoader((list) => datasets.labelCountsByDatasets(list), {
      cacheKeyFn: (dataset) => dataset.id,
    }),
    instance: new DataLoader((ids) => datasets.instancesByIds(ids)),
    instanceCount: keyedByValue((keys) => datasets.instanceCounts(keys)),
    instancePage: keyedByValue((keys) => datasets.instancePages(keys)),
    datasetSamples: new DataLoader((ids) => samples.samplesByDatasets(ids)),
    sampleInstanceCount: new DataLoader((ids) => samples.instanceCounts(ids)),
    sampleDemonstrationCount: new DataLoader((ids) => samples.demonstrationCounts(ids)),
    sampledInstancePage: keyedByValue((keys) => samples.sampledInstancePages(keys)),
    demonstrationSet: keyedByValue((keys) => samples.demonstrationSets(keys)),
    sample: new DataLoader((ids) => samples.samplesByIds(ids)),
    sampledInstance: new DataLoader((ids) => services.runs.sampledInstancesByIds(ids)),
    experimentRuns: new DataLoader((ids) => services.runs.runsByExperiments(ids)),
    judgmentHistory: new DataLoader((ids) => services.judgments.historyByCompletions(ids)),
    effectiveJudgment: new DataLoader((ids) => services.judgments.effectiveByCompletions(ids)),
    completionPage: keyedByValue((keys) => services.runs.completionPages(keys)),
  };
}

export function createContext(
  config: Config,
  services: Services,
  logger: Logger,
  principal: Principal | null = null,
): Context {
  return {
    config,
    services,
    loaders: createLoaders(services),
    logger,
    principal,
    estimateBudget: { remaining: config.maxEstimatePrompts },
  };
}
