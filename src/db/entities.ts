import { ApiKey } from "../auth/api-key.entity";
import { Completion } from "../completion/completion.entity";
import { Dataset } from "../dataset/dataset.entity";
import { DatasetSource } from "../dataset/dataset-source.entity";
import { Demonstration } from "../demonstration/demonstration.entity";
import { Experiment } from "../experiment/experiment.entity";
import { Instance } from "../instance/instance.entity";
import { Judgment } from "../judgment/judgment.entity";
import { ProviderCallSlot } from "../llm/call-slot.entity";
import { ProviderRateBucket } from "../llm/rate-bucket.entity";
import { ResponseCacheEntry } from "../llm/response-cache.entity";
import { InstanceVerdictCount } from "../results/instance-verdict-count.entity";
import { Metric, MetricState } from "../results/metric.entity";
import { RunVerdictCount } from "../results/run-verdict-count.entity";
import { Run } from "../run/run.entity";
import { Sample } from "../sample/sample.entity";
import { SampledInstance } from "../sample/sampled-instance.entity";
import { PromptTemplate } from "../template/prompt-template.entity";
import { Worker } from "../worker/worker.entity";

export const ENTITIES = [
  Dataset,
  DatasetSource,
  Instance,
  Sample,
  SampledInstance,
  Demonstration,
  PromptTemplate,
  Experiment,
  Run,
  Completion,
  Judgment,
  Metric,
  MetricState,
  ResponseCacheEntry,
  ProviderRateBucket,
  ProviderCallSlot,
  RunVerdictCount,
  InstanceVerdictCount,
  Worker,
  ApiKey,
];
