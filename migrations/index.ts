import { InitialSchema1764417600000 } from "./1764417600000-InitialSchema";
import { SampleContentHashAndPromptName1764421200000 } from "./1764421200000-SampleContentHashAndPromptName";
import { RunExecution1764424800000 } from "./1764424800000-RunExecution";
import { EffectiveVerdicts1764428400000 } from "./1764428400000-EffectiveVerdicts";
import { Workers1764432000000 } from "./1764432000000-Workers";
import { HonestVerdicts1764435600000 } from "./1764435600000-HonestVerdicts";
import { AnswerExtraction1764439200000 } from "./1764439200000-AnswerExtraction";
import { InstanceVerdictCounts1764442800000 } from "./1764442800000-InstanceVerdictCounts";
import { ApiKeys1764446400000 } from "./1764446400000-ApiKeys";
import { RunLastUpdated1764450000000 } from "./1764450000000-RunLastUpdated";
import { MetricRows1764453600000 } from "./1764453600000-MetricRows";
import { RateLimitWaits1764457200000 } from "./1764457200000-RateLimitWaits";
import { ProviderCallSlots1764460800000 } from "./1764460800000-ProviderCallSlots";
import { GeneralInstruction1764464400000 } from "./1764464400000-GeneralInstruction";
import { ControlDatasets1764468000000 } from "./1764468000000-ControlDatasets";
import { SampleMinTargetWords1764471600000 } from "./1764471600000-SampleMinTargetWords";
import { ReviewerMajority1764475200000 } from "./1764475200000-ReviewerMajority";
import { Budgets1764478800000 } from "./1764478800000-Budgets";
import { ProviderBatches1764482400000 } from "./1764482400000-ProviderBatches";
import { BatchQueueTokens1764486000000 } from "./1764486000000-BatchQueueTokens";
import { QuizRuns1764489600000 } from "./1764489600000-QuizRuns";
import { CompletionRougeL1764493200000 } from "./1764493200000-CompletionRougeL";
import { LeaseRenewedAt1764496800000 } from "./1764496800000-LeaseRenewedAt";
import { NoMemoryFloor1764500400000 } from "./1764500400000-NoMemoryFloor";
import { FloorDemonstrations1764504000000 } from "./1764504000000-FloorDemonstrations";
import { MaintenanceLease1764507600000 } from "./1764507600000-MaintenanceLease";
import { FinishedRunsWaitNoMore1764511200000 } from "./1764511200000-FinishedRunsWaitNoMore";
import { BatchSubmitFailures1764514800000 } from "./1764514800000-BatchSubmitFailures";
import { PendingIndex1764518400000 } from "./1764518400000-PendingIndex";
import { BlindReviewKeys1764522000000 } from "./1764522000000-BlindReviewKeys";
import { LogprobRuns1764525600000 } from "./1764525600000-LogprobRuns";
import { EffectiveJudgment1764529200000 } from "./1764529200000-EffectiveJudgment";
import { RunExperimentKind1764532800000 } from "./1764532800000-RunExperimentKind";
import { ReviewAssignments1764536400000 } from "./1764536400000-ReviewAssignments";
import { TokenLogprobs1764540000000 } from "./1764540000000-TokenLogprobs";
import { UnsureVerdicts1764543600000 } from "./1764543600000-UnsureVerdicts";
import { ContinuationRuns1764547200000 } from "./1764547200000-ContinuationRuns";
import { GuessingRuns1764550800000 } from "./1764550800000-GuessingRuns";

// Every migration, in order. Listed explicitly so the same list serves compiled code and tests.
// biome-ignore lint/complexity/noBannedTypes: TypeORM's own type for migration classes
export const MIGRATIONS: Function[] = [
  InitialSchema1764417600000,
  SampleContentHashAndPromptName1764421200000,
  RunExecution1764424800000,
  EffectiveVerdicts1764428400000,
  Workers1764432000000,
  HonestVerdicts1764435600000,
  AnswerExtraction1764439200000,
  InstanceVerdictCounts1764442800000,
  ApiKeys1764446400000,
  RunLastUpdated1764450000000,
  MetricRows1764453600000,
  RateLimitWaits1764457200000,
  ProviderCallSlots1764460800000,
  GeneralInstruction1764464400000,
  ControlDatasets1764468000000,
  SampleMinTargetWords1764471600000,
  ReviewerMajority1764475200000,
  Budgets1764478800000,
  ProviderBatches1764482400000,
  BatchQueueTokens1764486000000,
  QuizRuns1764489600000,
  CompletionRougeL1764493200000,
  LeaseRenewedAt1764496800000,
  NoMemoryFloor1764500400000,
  FloorDemonstrations1764504000000,
  MaintenanceLease1764507600000,
  FinishedRunsWaitNoMore1764511200000,
  BatchSubmitFailures1764514800000,
  PendingIndex1764518400000,
  BlindReviewKeys1764522000000,
  LogprobRuns1764525600000,
  EffectiveJudgment1764529200000,
  RunExperimentKind1764532800000,
  ReviewAssignments1764536400000,
  TokenLogprobs1764540000000,
  UnsureVerdicts1764543600000,
  ContinuationRuns1764547200000,
  GuessingRuns1764550800000,
];
