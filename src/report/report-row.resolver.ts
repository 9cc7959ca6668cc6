import { Arg, Args, Ctx, Query, Resolver } from "type-graphql";
import { Context } from "../graphql/context";
import { PageArgs } from "../graphql/page-args";
import { MetricConnection, MetricFilter } from "./report-row.types";

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
}
