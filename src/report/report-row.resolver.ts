import { Arg, Args, Ctx, Query, Resolver } from "type-graphql";
import { Context } from "../graphql/context";
import { PageArgs } from "../graphql/page-args";
import { MetricConnection, MetricFilter, MetricsAcrossFilter } from "./report-row.types";

@Resolver()
export class ReportRowResolver {
  @Query(() => MetricConnection, {
    description:
      "Every number of an experiment's study report as flat rows (value, counts, interval, scope), in a stable " +
      "order; brought up to date first if the experiment's results changed since they were written.",
  })
  metrics(
    @Arg("filter") filter: MetricFilter,
    @Args() { first, after }: PageArgs,
    @Ctx() { services }: Context,
  ) {
    return services.reportRows.list(filter, first, after ?? null);
  }

  @Query(() => MetricConnection, {
    description:
      "The flat rows of several experiments at once, chosen by provider, model or id: one model against another " +
      "across the experiments that ran them. Each row's scope names its experiment, provider and model.",
  })
  metricsAcross(
    @Arg("filter") filter: MetricsAcrossFilter,
    @Args() { first, after }: PageArgs,
    @Ctx() { services }: Context,
  ) {
    return services.reportRows.listAcross(filter, first, after ?? null);
  }
}
