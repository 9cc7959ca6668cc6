import DataLoader from "dataloader";
import { Page } from "../graphql/connection";
import { keyedByValue } from "../graphql/loaders";
import { Demonstration } from "./demonstration.entity";
import { Sample } from "./sample.entity";
import { SampleService } from "./sample.service";
import { SampledInstance } from "./sampled-instance.entity";

interface SampledInstancePageKey {
  sampleId: string;
  first: number;
  after: string | null;
}

/** What samples, their instances under test and their demonstrations add to the request context. */
declare module "../graphql/context" {
  interface Services {
    samples: SampleService;
  }
  interface Loaders {
    datasetSamples: DataLoader<string, Sample[]>;
    sampleInstanceCount: DataLoader<string, number>;
    sampleDemonstrationCount: DataLoader<string, number>;
    sampledInstancePage: DataLoader<SampledInstancePageKey, Page<SampledInstance>, string>;
    demonstrationSet: DataLoader<{ sampleId: string; shots: number }, Demonstration[], string>;
    sample: DataLoader<string, Sample | null>;
    sampledInstance: DataLoader<string, SampledInstance | null>;
  }
}

export function sampleLoaders(samples: SampleService) {
  return {
    datasetSamples: new DataLoader((ids: readonly string[]) => samples.samplesByDatasets(ids)),
    sampleInstanceCount: new DataLoader((ids: readonly string[]) => samples.instanceCounts(ids)),
    sampleDemonstrationCount: new DataLoader((ids: readonly string[]) => samples.demonstrationCounts(ids)),
    sampledInstancePage: keyedByValue((keys: readonly SampledInstancePageKey[]) =>
      samples.sampledInstancePages(keys),
    ),
    demonstrationSet: keyedByValue((keys: readonly { sampleId: string; shots: number }[]) =>
      samples.demonstrationSets(keys),
    ),
    sample: new DataLoader((ids: readonly string[]) => samples.samplesByIds(ids)),
    sampledInstance: new DataLoader((ids: readonly string[]) => samples.sampledInstancesByIds(ids)),
  };
}
