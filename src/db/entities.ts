import { ApiKey } from "../auth/api-key.entity";
import { ProviderBatch } from "../batch/provider-batch.entity";
import { Completion } from "../completion/completion.entity";
import { Dataset } from "../dataset/dataset.entity";
import { DatasetSource } from "../dataset/dataset-source.entity";
import { Instance } from "../dataset/instance.entity";
import { Experiment } from "../experiment/experiment.entity";
import { Judgment } from "../judgment/judgment.entity";
import { ReviewAssignment } from "../judgment/review-assignment.entity";
import { ProviderCallSlot } from "../llm/call-slot.entity";
import { ProviderRateBucket } from "../llm/rate-bucket.entity";
import { ResponseCacheEntry } from "../llm/response-cache.entity";
import { QuizOption, QuizOptionSet } from "../option-set/option-set.entity";
import { InstanceVerdictCount } from "../report/instance-verdict-count.entity";
import { ReportRow, ReportRowState } from "../report/report-row.entity";
import { RunVerdictCount } from "../report/run-verdict-count.entity";
import { Run } from "../run/run.entity";
import { Demonstration } from "../sample/demonstration.entity";
import { NoMemoryFloor } from "../sample/no-memory-floor.entity";
import { Sample } from "../sample/sample.entity";
import { SampledInstance } from "../sample/sampled-instance.entity";
import { PromptTemplate } from "../template/prompt-template.entity";
import { Worker } from "../worker/worker.entity";
import { MaintenanceLeaseRow } from "./maintenance-lease.entity";

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
  ReportRow,
  ReportRowState,
  ResponseCacheEntry,
  ProviderRateBucket,
  ProviderCallSlot,
  RunVerdictCount,
  InstanceVerdictCount,
  Worker,
  ApiKey,
  ProviderBatch,
  QuizOptionSet,
  QuizOption,
  NoMemoryFloor,
  MaintenanceLeaseRow,
  ReviewAssignment,
];
