import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from "type-graphql";
import { Context } from "../graphql/context";
import { BreakdownGroup, MemorizationMeasure } from "../study/measures";
import { DEFAULT_BREAKDOWN_GROUPS } from "./report.service";
import {
  ContaminationRow,
  ContaminationSummaryRow,
  ControlComparisonRow,
  CorrelationRow,
  ExperimentComparison,
  GuidedGeneralRow,
  IclThresholdRow,
  MemorizationBreakdownRow,
  MemorizedVsNotRow,
  NoMemoryFloorRow,
  PairedComparisonRow,
  PerformanceRow,
  QuizRangeRow,
  ResultFilter,
  StudyReport,
  TargetGroupRow,
  TransitionRateRow,
  TransitionRow,
} from "./report.types";

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
    return services.report.performance(experimentId);
  }

  @Query(() => [MemorizedVsNotRow])
  memorizedVsNotMemorized(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.memorizedVsNot(experimentId);
  }

  @Query(() => [CorrelationRow])
  memorizationPerformanceCorrelation(
    @Arg("experimentId", () => ID) experimentId: string,
    @Ctx() { services }: Context,
  ) {
    return services.report.correlations(experimentId);
  }

  @Query(() => [TransitionRow])
  nearExactToExact(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.transitions(experimentId);
  }

  @Query(() => [PairedComparisonRow], {
    description: "McNemar between each pair of settings at each k, on the same instances (raw p-values).",
  })
  settingComparisons(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.settingComparisons(experimentId);
  }

  @Query(() => [PairedComparisonRow], {
    description:
      "McNemar between k = 0 and each k > 0 in each setting, on the same instances (raw p-values).",
  })
  zeroVsK(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.zeroVsK(experimentId);
  }

  @Query(() => [PairedComparisonRow], {
    deprecationReason: "Use zeroVsK: it compares k = 0 with every k > 0, many-shot included.",
  })
  zeroVsFewShot(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.zeroVsK(experimentId);
  }

  @Query(() => [TransitionRateRow], { description: "Near-exact -> exact rates for every pair of k." })
  transitionRates(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.transitionRates(experimentId);
  }

  @Query(() => [NoMemoryFloorRow], {
    description:
      "The no-memory floor beside each memorization rate (a control computed without a model), per sample, " +
      "setting and k.",
  })
  noMemoryFloor(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.noMemoryFloor(experimentId);
  }

  @Query(() => [GuidedGeneralRow], {
    description: "Time Travel's Algorithm 1: guided against general instruction by ROUGE-L, bootstrapped.",
  })
  guidedVsGeneral(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.guidedVsGeneral(experimentId);
  }

  @Query(() => [IclThresholdRow], {
    description: "Does ICL beat zero-shot once memorization reaches some level? Per sample and setting.",
  })
  iclThresholds(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.iclThresholds(experimentId);
  }

  @Query(() => [TargetGroupRow], {
    description: "Memorization by label and by reference length, per sample, setting and k.",
  })
  memorizationByTarget(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.memorizationByTarget(experimentId);
  }

  @Query(() => [ControlComparisonRow], {
    description: "Each memorization rate against its control dataset's, per dataset, setting and k.",
  })
  versusControl(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.versusControl(experimentId);
  }

  @Query(() => [ContaminationRow])
  contamination(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.contamination(experimentId);
  }

  @Query(() => [QuizRangeRow], {
    description: "The Data Contamination Quiz per sample of an experiment run with methods: [QUIZ].",
  })
  quizResults(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.report.quiz(experimentId);
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
