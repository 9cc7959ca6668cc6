import { memorizationByTargetTable } from "./by-target";
import { contaminationTable } from "./contamination";
import { contaminationSummaryTable } from "./contamination-summary";
import { correlationsTable } from "./correlations";
import { decisionsTable } from "./decisions";
import { guidedVsGeneralTable } from "./guided-general";
import { iclThresholdsTable } from "./icl-thresholds";
import { logprobCalibrationTable } from "./logprob";
import { memorizationByRegimeTable, memorizationExactOnlyTable, memorizationTable } from "./memorization";
import { memorizedVsNotMemorizedTable } from "./memorized-vs-not";
import { noMemoryFloorTable } from "./no-memory-floor";
import { memorizationNonTrivialTable } from "./non-trivial";
import { settingComparisonsTable, zeroVsKTable } from "./paired";
import { performanceTable } from "./performance";
import { performanceVsZeroShotTable } from "./performance-vs-zero-shot";
import { quizTable } from "./quiz";
import { reviewTable } from "./review";
import type { AnyReportTable } from "./table";
import { nearExactToExactTable, transitionRatesTable } from "./transitions";
import { versusControlTable } from "./versus-control";

/**
 * Every table of the study report, in the report's order: its GraphQL fields, its Markdown sections, its flat rows
 * and its CSV follow this list. A new table is a file in this folder and a line here (docs/ARCHITECTURE.md).
 */
export const REPORT_TABLES: readonly AnyReportTable[] = [
  decisionsTable,
  memorizationTable,
  memorizationExactOnlyTable,
  memorizationByRegimeTable,
  performanceTable,
  memorizedVsNotMemorizedTable,
  correlationsTable,
  settingComparisonsTable,
  zeroVsKTable,
  memorizationNonTrivialTable,
  noMemoryFloorTable,
  versusControlTable,
  guidedVsGeneralTable,
  iclThresholdsTable,
  memorizationByTargetTable,
  performanceVsZeroShotTable,
  transitionRatesTable,
  nearExactToExactTable,
  contaminationTable,
  quizTable,
  contaminationSummaryTable,
  logprobCalibrationTable,
  reviewTable,
];
