import { Field, Float, Int, ObjectType } from "type-graphql";
import { IntervalMethod } from "../../study/measures";
import { SampleScoped } from "./scope";
import { defineTable, interval, intervalMethod, markdownTable, num, pct, sampleLabel } from "./table";

declare module "./table" {
  interface ReportTables {
    performance: PerformanceRow[];
  }
}

@ObjectType({
  description:
    "Accuracy of the performance runs per dataset (and sample) x k: pooled accuracy with a 95% interval, the mean " +
    "and spread over repeats, and the failed and unparseable counts beside it.",
  implements: SampleScoped,
})
export class PerformanceRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => Int)
  shots: number;

  @Field(() => Int)
  repeats: number;

  @Field(() => Int, { description: "Completions over all repeats." })
  n: number;

  @Field(() => Int)
  correct: number;

  @Field(() => Int, { description: "Answers no label could be read from (counted wrong)." })
  unparseable: number;

  @Field(() => Int, { description: "Calls that failed for good (no answer; not in n)." })
  failed: number;

  @Field(() => Float, { nullable: true, description: "correct / n over all repeats." })
  accuracy: number | null;

  @Field(() => Float, { nullable: true })
  ciLow: number | null;

  @Field(() => Float, { nullable: true })
  ciHigh: number | null;

  @Field(() => IntervalMethod, { nullable: true })
  intervalMethod: IntervalMethod | null;

  @Field(() => Int, { description: "Samples the row pools." })
  samples: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "Sample standard deviation of the accuracy between the pooled samples (null for one sample).",
  })
  betweenSampleStandardDeviation: number | null;

  @Field(() => Float, { nullable: true, description: "Mean over repeats of each repeat's accuracy." })
  meanAccuracy: number | null;

  @Field(() => Float, { nullable: true, description: "Sample standard deviation over repeats." })
  accuracyStandardDeviation: number | null;
}

export const performanceTable = defineTable<"performance">({
  field: "performance",
  type: () => [PerformanceRow],
  compute: (inputs) => inputs.read("performance"),
  markdown: {
    title: "Performance",
    body: (rows) =>
      markdownTable(
        [
          "dataset",
          "sample",
          "k",
          "repeats",
          "n",
          "correct",
          "unparseable",
          "failed",
          "accuracy",
          "95% CI",
          "interval",
          "mean over repeats",
          "sd over repeats",
        ],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.shots,
          row.repeats,
          row.n,
          row.correct,
          row.unparseable,
          row.failed,
          pct(row.accuracy),
          interval(row.ciLow, row.ciHigh),
          intervalMethod(row.intervalMethod),
          pct(row.meanAccuracy),
          num(row.accuracyStandardDeviation),
        ]),
      ),
  },
  statistics: [
    "accuracy",
    "mean_accuracy",
    "accuracy_sd",
    "between_sample_sd",
    "unparseable_share",
    "failed",
  ],
  flat: (rows, emit) => {
    for (const row of rows) {
      emit("accuracy", row, row.accuracy, {
        numerator: row.correct,
        denominator: row.n,
        ciLow: row.ciLow,
        ciHigh: row.ciHigh,
      });
      emit("mean_accuracy", row, row.meanAccuracy, { denominator: row.repeats });
      emit("accuracy_sd", row, row.accuracyStandardDeviation, { denominator: row.repeats });
      if (row.betweenSampleStandardDeviation !== null)
        emit("between_sample_sd", row, row.betweenSampleStandardDeviation, { denominator: row.samples });
      emit("unparseable_share", row, row.n > 0 ? row.unparseable / row.n : null, {
        numerator: row.unparseable,
        denominator: row.n,
      });
      emit("failed", row, row.failed);
    }
  },
  formerNames: { "performance.accuracy.between_sample_sd": "between_sample_sd" },
});
