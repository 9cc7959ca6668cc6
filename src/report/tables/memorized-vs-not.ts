import { Field, Float, Int, ObjectType } from "type-graphql";
import { MemorizationSetting } from "../../study/settings";
import { memorizedVsNot } from "../analyses";
import { HOLM, SampleScoped } from "./scope";
import {
  defineTable,
  EFFECTIVE_JUDGE,
  holmSlot,
  interval,
  markdownTable,
  pct,
  pValue,
  sampleLabel,
} from "./table";

declare module "./table" {
  interface ReportTables {
    memorizedVsNotMemorized: MemorizedVsNotRow[];
  }
}

@ObjectType()
export class AccuracyGroup {
  @Field(() => Int, { description: "Instances in the group." })
  instances: number;

  @Field(() => Int, { description: "Performance completions of those instances (all repeats)." })
  n: number;

  @Field(() => Int, { description: "Of those completions, the correct ones." })
  correct: number;

  @Field(() => Float, { nullable: true, description: "correct / n: accuracy over every repeat." })
  accuracy: number | null;

  @Field(() => Int, {
    description:
      "Instances correct on the majority of their repeats (a tie counts as not correct): the unit of the " +
      "difference, its interval and the test.",
  })
  correctInstances: number;
}

@ObjectType({
  description:
    "Performance accuracy (same sample, same k, all repeats) on the instances that are memorized (exact or " +
    "near-exact) in this setting and k vs those that are not, with the difference, its 95% Newcombe interval and " +
    "Fisher's exact test, all three over instances (each counted once: correct on the majority of its repeats), " +
    "not completions: at temperature 0 the repeats agree, and counting them as independent made the test reject " +
    "a true null 24% of the time at alpha 0.05. An instance with several judged completions in the cell is " +
    "memorized when at least half of them are. Unjudged instances are in neither group.",
  implements: SampleScoped,
})
export class MemorizedVsNotRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field(() => AccuracyGroup)
  memorized: AccuracyGroup;

  @Field(() => AccuracyGroup)
  notMemorized: AccuracyGroup;

  @Field(() => Float, {
    nullable: true,
    description: "Share of instances correct, memorized minus not memorized (see correctInstances).",
  })
  difference: number | null;

  @Field(() => Float, { nullable: true })
  differenceCiLow: number | null;

  @Field(() => Float, { nullable: true })
  differenceCiHigh: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "Fisher's exact test (two-sided) of correct/wrong x memorized/not, over instances.",
  })
  pValue: number | null;

  @Field(() => Float, { nullable: true, description: HOLM })
  pValueHolm: number | null;
}

const FORMER = [
  "accuracy_memorized",
  "accuracy_not_memorized",
  "memorized_instances",
  "difference",
  "instance_accuracy_memorized",
  "instance_accuracy_not_memorized",
  "fisher_p",
  "fisher_p_holm",
] as const;

export const memorizedVsNotMemorizedTable = defineTable<"memorizedVsNotMemorized">({
  field: "memorizedVsNotMemorized",
  type: () => [MemorizedVsNotRow],
  compute: async (inputs) =>
    memorizedVsNot(await inputs.instances(), await inputs.instancePerformance(), await inputs.samples()),
  tests: {
    family: "memorized vs not: Fisher",
    slots: (rows) => rows.map((row) => holmSlot(row, "pValue", "pValueHolm")),
  },
  markdown: {
    title: "Accuracy on memorized vs non-memorized instances",
    body: (rows) =>
      markdownTable(
        [
          "dataset",
          "sample",
          "setting",
          "k",
          "memorized (instances)",
          "correct / n",
          "accuracy",
          "not memorized (instances)",
          "correct / n",
          "accuracy",
          "difference",
          "95% CI (Newcombe)",
          "Fisher p",
          "Holm p",
        ],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.setting,
          row.shots,
          row.memorized.instances,
          `${row.memorized.correct} / ${row.memorized.n}`,
          pct(row.memorized.accuracy),
          row.notMemorized.instances,
          `${row.notMemorized.correct} / ${row.notMemorized.n}`,
          pct(row.notMemorized.accuracy),
          pct(row.difference),
          interval(row.differenceCiLow, row.differenceCiHigh),
          pValue(row.pValue),
          pValue(row.pValueHolm),
        ]),
      ),
  },
  statistics: FORMER,
  flat: (rows, emit) => {
    for (const row of rows) {
      const scope = { ...row, judge: EFFECTIVE_JUDGE };
      for (const [statistic, group] of [
        ["accuracy_memorized", row.memorized],
        ["accuracy_not_memorized", row.notMemorized],
      ] as const)
        emit(statistic, scope, group.accuracy, { numerator: group.correct, denominator: group.n });
      emit("memorized_instances", scope, row.memorized.instances, {
        numerator: row.memorized.instances,
        denominator: row.memorized.instances + row.notMemorized.instances,
      });
      emit("difference", scope, row.difference, { ciLow: row.differenceCiLow, ciHigh: row.differenceCiHigh });
      for (const [statistic, group] of [
        ["instance_accuracy_memorized", row.memorized],
        ["instance_accuracy_not_memorized", row.notMemorized],
      ] as const)
        emit(statistic, scope, group.instances ? group.correctInstances / group.instances : null, {
          numerator: group.correctInstances,
          denominator: group.instances,
        });
      emit("fisher_p", scope, row.pValue);
      emit("fisher_p_holm", scope, row.pValueHolm);
    }
  },
  formerNames: Object.fromEntries(FORMER.map((statistic) => [`memorized_vs_not.${statistic}`, statistic])),
});
