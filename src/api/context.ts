import DataLoader from "dataloader";
import { Page } from "../common/connection";
import { Config } from "../config/config";
import { Dataset } from "../dataset/dataset.entity";
import { InstanceFilter, LabelCount } from "../dataset/dataset.inputs";
import { InstancePageKey } from "../dataset/dataset.service";
import { DatasetSource } from "../dataset/dataset-source.entity";
import { Instance } from "../instance/instance.entity";
import { Logger } from "../logging/logger";
import { Services } from "./services";

/** Per-request loaders: every relation a list can reach is batched, so nested lists cost one query per level. */
export interface Loaders {
  dataset: DataLoader<string, Dataset | null>;
  datasetSources: DataLoader<string, DatasetSource[]>;
  labelCounts: DataLoader<Dataset, LabelCount[]>;
  instanceCount: DataLoader<{ datasetId: string; filter: InstanceFilter }, number, string>;
  instancePage: DataLoader<InstancePageKey, Page<Instance>, string>;
}

export interface Context {
  config: Config;
  services: Services;
  loaders: Loaders;
  logger: Logger;
}

export function createLoaders(services: Services): Loaders {
  const datasets = services.datasets;
  return {
    dataset: new DataLoader((ids) => datasets.datasetsByIds(ids)),
    datasetSources: new DataLoader((ids) => datasets.sourcesByDatasetIds(ids)),
    labelCounts: new DataLoader((list) => datasets.labelCountsByDatasets(list), {
      cacheKeyFn: (dataset) => dataset.id,
    }),
    instanceCount: new DataLoader((keys) => datasets.instanceCounts(keys), {
      cacheKeyFn: (key) => JSON.stringify(key),
    }),
    instancePage: new DataLoader((keys) => datasets.instancePages(keys), {
      cacheKeyFn: (key) => JSON.stringify(key),
    }),
  };
}

export function createContext(config: Config, services: Services, logger: Logger): Context {
  return { config, services, loaders: createLoaders(services), logger };
}
