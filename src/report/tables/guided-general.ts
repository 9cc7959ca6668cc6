import { Field, Float, Int, ObjectType } from "type-graphql";
import { MemorizationSetting } from "../../study/settings";
import { SampleScoped } from "./scope";
import { defineTable, markdownTable, pValue, sampleLabel } from "./table";

declare module "./table" {
  interface ReportTables {
    guidedVsGeneral: GuidedGeneralRow[];
  }
}

@ObjectType({
  description:
    "Time Travel's Algorithm 1 per sample and k: each instance's ROUGE-L F (rouge_score's tokenisation, no " +
    "stemmer, rounded to 2 decimals) under the guided instruction (FULL_INFORMATION) and the general one " +
    "(GENERAL_INSTRUCTION), and one-sided bootstrap p-values that the guided mean is higher: paired (the default) " +
    "and unpaired (as the authors' helper). BLEURT is not computed (it needs a TensorFlow checkpoint).",
  implements: SampleScoped,
})
export class GuidedGeneralRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => String, { nullable: true, description: "The split of the instances under test." })
  split: string | null;

  @Field(() => Int)
  shots: number;

  @Field(() => Int, { description: "Instances scored under both instructions." })
  instances: number;

  @Field(() => Float)
  guidedMean: number;

  @Field(() => Float)
  generalMean: number;

  @Field(() => Float, { nullable: true, description: "Mean per-instance guided - general." })
  difference: number | null;

  @Field(() => Float, {
    nullable: true,
    description: "Paired bootstrap: share of resampled mean differences <= 0.",
  })
  pValuePaired: number | null;

  @Field(() => Float, {
    nullable: true,
    description:
      "Unpaired bootstrap (bootstrap_helper.py's): 1 - share of resamples with the guided mean higher.",
  })
  pValueUnpaired: number | null;

  @Field({ description: "pValuePaired <= 0.05: Time Travel's contamination signal." })
  significant: boolean;

  @Field(() => Int)
  resamples: number;

  @Field(() => Int, { description: "The bootstrap's seed." })
  seed: number;
}

export const guidedVsGeneralTable = defineTable<"guidedVsGeneral">({
  field: "guidedVsGeneral",
  type: () => [GuidedGeneralRow],
  description:
    "Time Travel's Algorithm 1 (guided vs general instruction, ROUGE-L, bootstrapped) per sample and k; empty " +
    "without both settings.",
  compute: (inputs) => inputs.read("guidedVsGeneral"),
  markdown: {
    title:
      "Time Travel's Algorithm 1: guided against general instruction (ROUGE-L, one-sided bootstrap, 10,000 resamples)",
    body: (rows) =>
      markdownTable(
        [
          "dataset",
          "sample",
          "split",
          "k",
          "instances",
          "guided",
          "general",
          "difference",
          "p (paired)",
          "p (unpaired)",
          "significant",
        ],
        rows.map((row) => [
          row.dataset,
          sampleLabel(row),
          row.split ?? "",
          row.shots,
          row.instances,
          row.guidedMean.toFixed(3),
          row.generalMean.toFixed(3),
          row.difference === null ? "" : row.difference.toFixed(3),
          pValue(row.pValuePaired),
          pValue(row.pValueUnpaired),
          row.significant ? "yes" : "no",
        ]),
      ),
  },
  statistics: ["guided_rouge_l", "general_rouge_l", "difference", "p_paired", "p_unpaired", "significant"],
  flat: (rows, emit) => {
    for (const row of rows) {
      const scope = {
        ...row,
        setting: MemorizationSetting.FULL_INFORMATION,
        otherSetting: MemorizationSetting.GENERAL_INSTRUCTION,
      };
      const n = { denominator: row.instances };
      emit("guided_rouge_l", scope, row.guidedMean, n);
      emit("general_rouge_l", scope, row.generalMean, n);
      emit("difference", scope, row.difference, n);
      emit("p_paired", scope, row.pValuePaired, n);
      emit("p_unpaired", scope, row.pValueUnpaired, n);
      emit("significant", scope, row.significant, n);
    }
  },
});
