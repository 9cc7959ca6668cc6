import { Field, Float, Int, ObjectType } from "type-graphql";
import { MemorizationSetting } from "../../study/settings";
import { iclThresholds } from "../analyses";
import { performanceVsZeroShotTable } from "./performance-vs-zero-shot";
import { SampleScoped } from "./scope";
import { defineTable, EFFECTIVE_JUDGE, markdownTable, pct, pValue, sampleLabel } from "./table";

declare module "./table" {
  interface ReportTables {
    iclThresholds: IclThresholdRow[];
  }
}

@ObjectType({ description: "One k of a threshold analysis: memorization there, and the performance gain." })
export class IclThresholdPoint {
  @Field(() => Int)
  shots: number;

  @Field(() => Float, { description: "Memorized share of the instances at this k (each once)." })
  memorizationRate: number;

  @Field(() => Float, { description: "Accuracy at k minus at k = 0, on the same instances." })
  gain: number;

  @Field(() => Float, { nullable: true, description: "McNemar's exact test of the gain, raw." })
  pValue: number | null;

  @Field({ description: "The gain is positive and p < 0.05." })
  significantGain: boolean;
}

@ObjectType({
  description:
    "The paper's threshold per sample and memorization setting: at each k > 0 the memorization rate beside the " +
    "performance gain over zero-shot; the lowest memorization rate with a significant gain (raw p < 0.05), and " +
    "the highest without one. Null where no k shows (or every k shows) a significant gain.",
  implements: SampleScoped,
})
export class IclThresholdRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => [IclThresholdPoint])
  points: IclThresholdPoint[];

  @Field(() => Float, { nullable: true })
  threshold: number | null;

  @Field(() => Float, { nullable: true })
  highestWithoutGain: number | null;
}

const STATISTICS = ["threshold", "highest_without_gain", "memorization_rate", "gain", "gain_p"] as const;

export const iclThresholdsTable = defineTable<"iclThresholds">({
  field: "iclThresholds",
  type: () => [IclThresholdRow],
  description: "Does ICL beat zero-shot once memorization reaches some level? Per sample and setting.",
  compute: async (inputs) =>
    iclThresholds(
      await inputs.instances(),
      await inputs.table(performanceVsZeroShotTable),
      await inputs.samples(),
    ),
  markdown: {
    title:
      "Does ICL beat zero-shot once memorization reaches some level? (the paper's threshold; McNemar, raw p)",
    body: (rows) =>
      markdownTable(
        ["dataset", "sample", "setting", "k: memorized / gain (p)", "threshold", "highest without gain"],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.setting,
          row.points
            .map(
              (point) =>
                `k=${point.shots}: ${pct(point.memorizationRate)} / ${pct(point.gain)} (${pValue(point.pValue)})${point.significantGain ? "*" : ""}`,
            )
            .join("; "),
          pct(row.threshold),
          pct(row.highestWithoutGain),
        ]),
      ),
  },
  statistics: STATISTICS,
  flat: (rows, emit) => {
    for (const row of rows) {
      const scope = { ...row, judge: EFFECTIVE_JUDGE };
      emit("threshold", scope, row.threshold, { denominator: row.points.length });
      emit("highest_without_gain", scope, row.highestWithoutGain, { denominator: row.points.length });
      for (const point of row.points) {
        const at = { ...scope, shots: point.shots, otherShots: 0 };
        emit("memorization_rate", at, point.memorizationRate);
        emit("gain", at, point.gain);
        emit("gain_p", at, point.pValue);
      }
    }
  },
  formerNames: Object.fromEntries(STATISTICS.map((statistic) => [`icl_threshold.${statistic}`, statistic])),
});
