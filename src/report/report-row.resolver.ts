import { Arg, Args, Ctx, Query, Resolver } from "type-graphql";
import { Context } from "../graphql/context";
import { PageArgs } from "../graphql/page-args";
import {
  MetricFilter,
  MetricsAcrossFilter,
  ReportRowConnection,
  ReportRowFilter,
  ReportRowsAcrossFilter,
} from "./report-row.types";

const RENAMED =
  "Use reportRows: the same rows, under the report's name (metrics are Prometheus's, at /metrics).";

@Resolver()
export class ReportRowResolver {
  @Query(() => ReportRowConnection, {
    description:
      "Every number of an experiment's study report as flat rows (value, counts, interval, scope), in a stable " +
      "order; brought up to date first if the experiment's results changed since they were written. The report " +
      "CSV is these rows.",
  })
  reportRows(
    @Arg("filter") filter: ReportRowFilter,
    @Args() { first, after }: PageArgs,
    @Ctx() { services }: Context,
  ) {
    return services.reportRows.list(filter, first, after ?? null);
  }

  @Query(() => ReportRowConnection, {
    description:
      "The report rows of several experiments at once, chosen by provider, model or id: one model against another " +
      "across the experiments that ran them. Each row's scope names its experiment, provider and model.",
  })
  reportRowsAcross(
    @Arg("filter") filter: ReportRowsAcrossFilter,
    @Args() { first, after }: PageArgs,
    @Ctx() { services }: Context,
  ) {
    return services.reportRows.listAcross(filter, first, after ?? null);
  }

  @Query(() => ReportRowConnection, { deprecationReason: RENAMED })
  metrics(
    @Arg("filter") filter: MetricFilter,
    @Args() { first, after }: PageArgs,
    @Ctx() { services }: Context,
  ) {
    return services.reportRows.list(filter, first, after ?? null);
  }

  @Query(() => ReportRowConnection, { deprecationReason: "Use reportRowsAcross (see metrics)." })
  metricsAcross(
    @Arg("filter") filter: MetricsAcrossFilter,
    @Args() { first, after }: PageArgs,
    @Ctx() { services }: Context,
  ) {
    return services.reportRows.listAcross(filter, first, after ?? null);
  }
}
