import { Arg, Ctx, ID, Query, Resolver } from "type-graphql";
import { Context } from "../api/context";
import {
  BreakdownGroup,
  ContaminationRow,
  CorrelationRow,
  MemorizationBreakdownRow,
  MemorizationMeasure,
  MemorizedVsNotRow,
  PerformanceRow,
  ResultFilter,
  StudyReport,
  TransitionRow,
} from "./result.types";

@Resolver()
export class ResultResolver {
  @Query(() => [MemorizationBreakdownRow], {
    description: "Memorization rates with counts and 95% Wilson intervals, grouped as asked.",
  })
  memorizationBreakdown(
    @Arg("filter") filter: ResultFilter,
    @Arg("groupBy", () => [BreakdownGroup], {
      defaultValue: [BreakdownGroup.DATASET, BreakdownGroup.SETTING, BreakdownGroup.SHOTS],
    })
    groupBy: BreakdownGroup[],
    @Arg("measure", () => MemorizationMeasure, { defaultValue: MemorizationMeasure.EXACT_OR_NEAR_EXACT })
    measure: MemorizationMeasure,
    @Ctx() { services }: Context,
  ) {
    return services.results.memorizationBreakdown(filter, groupBy, measure);
  }

  @Query(() => [PerformanceRow])
  performance(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.results.performance(experimentId);
  }

  @Query(() => [MemorizedVsNotRow])
  memorizedVsNotMemorized(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.results.memorizedVsNot(experimentId);
  }

  @Query(() => [CorrelationRow])
  memorizationPerformanceCorrelation(
    @Arg("experimentId", () => ID) experimentId: string,
    @Ctx() { services }: Context,
  ) {
    return services.results.correlations(experimentId);
  }

  @Query(() => [TransitionRow])
  nearExactToExact(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.results.transitions(experimentId);
  }

  @Query(() => [ContaminationRow])
  contamination(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.results.contamination(experimentId);
  }

  @Query(() => StudyReport, { description: "Every table of the study for one experiment." })
  studyReport(@Arg("experimentId", () => ID) experimentId: string, @Ctx() { services }: Context) {
    return services.results.studyReport(experimentId);
  }
}
