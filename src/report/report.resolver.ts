import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from "type-graphql";
import { Context } from "../graphql/context";
import { BreakdownGroup, MemorizationMeasure } from "../study/measures";
import { ResultFilter } from "./report.inputs";
import { DEFAULT_BREAKDOWN_GROUPS } from "./report.service";
import { ExperimentComparison } from "./report.types";
import { StudyReport } from "./study-report";
import { memorizationByTargetTable, TargetGroupRow } from "./tables/by-target";
import { ContaminationRow, contaminationTable } from "./tables/contamination";
import { ContaminationSummaryRow } from "./tables/contamination-summary";
import { CorrelationRow, correlationsTable } from "./tables/correlations";
import { GuidedGeneralRow, guidedVsGeneralTable } from "./tables/guided-general";
import { IclThresholdRow, iclThresholdsTable } from "./tables/icl-thresholds";
import { MemorizationBreakdownRow } from "./tables/memorization";
import { MemorizedVsNotRow, memorizedVsNotMemorizedTable } from "./tables/memorized-vs-not";
import { NoMemoryFloorRow, noMemoryFloorTable } from "./tables/no-memory-floor";
import { PairedComparisonRow, settingComparisonsTable, zeroVsKTable } from "./tables/paired";
import { PerformanceRow, performanceTable } from "./tables/performance";
import { QuizRangeRow, quizTable } from "./tables/quiz";
import {
  nearExactToExactTable,
  TransitionRateRow,
  TransitionRow,
  transitionRatesTable,
} from "./tables/transitions";
import { ControlComparisonRow, versusControlTable } from "./tables/versus-control";

const FRESH =
  "Wait for a value of the results as they are now. Without it, while a run of the experiment is going, a value " +
  "computed a moment before may be returned at once (its computedAt says when; it lags by at most about 24 times, " +
  "MEMICL_RESULTS_SPACING_FACTOR, what the experiment's values cost to compute, at least 1 s, plus one " +
  "computation); once the runs are done every read shows the current state.";

@Resolver()
export class ReportResolver {
  @Query(() => [MemorizationBreakdownRow], {
    description:
      "Memorization rates with counts and 95% intervals (Wilson, or a cluster bootstrap over instances when an " +
      "instance counts more than once in a row), grouped as asked; by default per dataset, sample, setting and k.",
  })
  memorizationBreakdown(
    @Arg("filter") filter: ResultFilter,
    @Arg("groupBy", () => [BreakdownGroup], {
      defaultValue: DEFAULT_BREAKDOWN_GROUPS,
    })
    groupBy: BreakdownGroup[],
    @Arg("measure", () => MemorizationMeasure, { defaultValue: MemorizationMeasure.EXACT_OR_NEAR_EXACT })
    measure: MemorizationMeasure,
    @Arg("fresh", { defaultValue: false, description: FRESH }) fresh: boolean,
    @Ctx() { services }: Context,
  ) {
    return services.report.memorizationBreakdown(filter, groupBy, measure, { fresh });
  }

  @Query(() => [PerformanceRow])
  performance(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.table(experimentId, performanceTable);
  }

  @Query(() => [MemorizedVsNotRow])
  memorizedVsNotMemorized(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.table(experimentId, memorizedVsNotMemorizedTable);
  }

  @Query(() => [CorrelationRow])
  memorizationPerformanceCorrelation(
    @Arg("experimentId", () => ID) experimentId: string,
    @Ctx() { services }: Context,
  ) {
    return services.report.table(experimentId, correlationsTable);
  }

  @Query(() => [TransitionRow])
  nearExactToExact(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.table(experimentId, nearExactToExactTable);
  }

  @Query(() => [PairedComparisonRow], {
    description: "McNemar between each pair of settings at each k, on the same instances (raw p-values).",
  })
  settingComparisons(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.table(experimentId, settingComparisonsTable);
  }

  @Query(() => [PairedComparisonRow], {
    description:
      "McNemar between k = 0 and each k > 0 in each setting, on the same instances (raw p-values).",
  })
  zeroVsK(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.table(experimentId, zeroVsKTable);
  }

  @Query(() => [PairedComparisonRow], {
    deprecationReason: "Use zeroVsK: it compares k = 0 with every k > 0, many-shot included.",
  })
  zeroVsFewShot(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.table(experimentId, zeroVsKTable);
  }

  @Query(() => [TransitionRateRow], { description: "Near-exact -> exact rates for every pair of k." })
  transitionRates(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.table(experimentId, transitionRatesTable);
  }

  @Query(() => [NoMemoryFloorRow], {
    description:
      "The no-memory floor beside each memorization rate (a control computed without a model), per sample, " +
      "setting and k.",
  })
  noMemoryFloor(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.table(experimentId, noMemoryFloorTable);
  }

  @Query(() => [GuidedGeneralRow], {
    description: "Time Travel's Algorithm 1: guided against general instruction by ROUGE-L, bootstrapped.",
  })
  guidedVsGeneral(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.table(experimentId, guidedVsGeneralTable);
  }

  @Query(() => [IclThresholdRow], {
    description: "Does ICL beat zero-shot once memorization reaches some level? Per sample and setting.",
  })
  iclThresholds(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.table(experimentId, iclThresholdsTable);
  }

  @Query(() => [TargetGroupRow], {
    description: "Memorization by label and by reference length, per sample, setting and k.",
  })
  memorizationByTarget(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.table(experimentId, memorizationByTargetTable);
  }

  @Query(() => [ControlComparisonRow], {
    description: "Each memorization rate against its control dataset's, per dataset, setting and k.",
  })
  versusControl(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.table(experimentId, versusControlTable);
  }

  @Query(() => [ContaminationRow])
  contamination(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.table(experimentId, contaminationTable);
  }

  @Query(() => [QuizRangeRow], {
    description: "The Data Contamination Quiz per sample of an experiment run with methods: [QUIZ].",
  })
  quizResults(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.table(experimentId, quizTable);
  }

  @Query(() => [ContaminationSummaryRow], {
    description:
      "Every method's evidence of contamination per sample (dataset and split) of an experiment, side by side: " +
      "Time Travel's rule, replication above its no-memory floor, Algorithm 1 (guided vs general) and the quiz's " +
      "range, each with its counts, runs and what it cannot tell. Evidence, not a single score.",
  })
  contaminationSummary(
    @Arg("experimentId", () => ID) experimentId: string,
    @Arg("fresh", { defaultValue: false, description: FRESH }) fresh: boolean,
    @Ctx() { services }: Context,
  ) {
    return services.report.contaminationSummary(experimentId, { fresh });
  }

  @Query(() => ExperimentComparison, {
    description:
      "Two to ten experiments that share datasets (models on the same samples), compared pair by pair, cell by " +
      "cell, on the instances both ran (McNemar, Holm over the comparison).",
  })
  compareExperiments(
    @Arg("experimentIds", () => [ID]) experimentIds: string[],
    @Arg("fresh", { defaultValue: false, description: FRESH }) fresh: boolean,
    @Ctx() { services }: Context,
  ) {
    return services.report.compare(experimentIds, { fresh });
  }

  @Query(() => StudyReport, { description: "Every table of the study for one experiment." })
  studyReport(
    @Arg("experimentId", () => ID) experimentId: string,
    @Arg("fresh", { defaultValue: false, description: FRESH }) fresh: boolean,
    @Ctx() { services }: Context,
  ) {
    return services.report.studyReport(experimentId, { fresh });
  }
}

/** The report's deprecated spellings, kept for the clients that use them. */
@Resolver(() => StudyReport)
export class StudyReportResolver {
  @FieldResolver(() => [PairedComparisonRow], {
    deprecationReason: "Use zeroVsK: it compares k = 0 with every k > 0, many-shot included.",
  })
  zeroVsFewShot(@Root() report: StudyReport): PairedComparisonRow[] {
    return report.zeroVsK;
  }
}

/** A comparison's per-experiment reports, computed only when asked for. */
@Resolver(() => ExperimentComparison)
export class ExperimentComparisonResolver {
  @FieldResolver(() => [StudyReport], { description: "Each experiment's whole study report, in order." })
  reports(@Root() comparison: ExperimentComparison, @Ctx() { services }: Context): Promise<StudyReport[]> {
    return Promise.all(comparison.experiments.map((e) => services.report.studyReport(e.experimentId)));
  }
}
