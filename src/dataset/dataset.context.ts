import DataLoader from "dataloader";
import { Page } from "../graphql/connection";
import { keyedByValue } from "../graphql/loaders";
import { Dataset } from "./dataset.entity";
import { InstanceFilter, LabelCount } from "./dataset.inputs";
import { DatasetService, InstancePageKey } from "./dataset.service";
import { DatasetSource } from "./dataset-source.entity";
import { DatasetImportService } from "./import/dataset-import.service";
import { Instance } from "./instance.entity";

/** What datasets and their instances add to the request context (src/graphql/context.ts). */
declare module "../graphql/context" {
  interface Services {
    datasets: DatasetService;
    datasetImport: DatasetImportService;
  }
  interface Loaders {
    dataset: DataLoader<string, Dataset | null>;
    datasetSources: DataLoader<string, DatasetSource[]>;
    labelCounts: DataLoader<Dataset, LabelCount[]>;
    instance: DataLoader<string, Instance | null>;
    instanceCount: DataLoader<{ datasetId: string; filter: InstanceFilter }, number, string>;
    instancePage: DataLoader<InstancePageKey, Page<Instance>, string>;
  }
}

export function datasetLoaders(datasets: DatasetService) {
  return {
    dataset: new DataLoader((ids: readonly string[]) => datasets.datasetsByIds(ids)),
    datasetSources: new DataLoader((ids: readonly string[]) => datasets.sourcesByDatasetIds(ids)),
    labelCounts: new DataLoader((list: readonly Dataset[]) => datasets.labelCountsByDatasets(list), {
      cacheKeyFn: (dataset) => dataset.id,
    }),
    instance: new DataLoader((ids: readonly string[]) => datasets.instancesByIds(ids)),
    instanceCount: keyedByValue((keys: readonly { datasetId: string; filter: InstanceFilter }[]) =>
      datasets.instanceCounts(keys),
    ),
    instancePage: keyedByValue((keys: readonly InstancePageKey[]) => datasets.instancePages(keys)),
  };
}
