import { Arg, Args, Ctx, Query, Resolver } from "type-graphql";
import { Context } from "../api/context";
import { PageArgs } from "../common/page-args";
import { MetricConnection, MetricFilter } from "./metric.types";

@Resolver()
export class MetricResolver {
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
    return services.metrics.list(filter, first, after ?? null);
  }
}
