import { Field, ID, InterfaceType } from "../../graphql/deferred-types";

/** Which sample a row describes; all null on a row pooled over several samples. */
@InterfaceType({
  description: "A row about one sample of a dataset, or pooled over several (sample fields null).",
})
export abstract class SampleScoped {
  @Field(() => ID, { nullable: true, description: "The sample; null on a row pooled over several samples." })
  sampleId: string | null;

  @Field(() => String, { nullable: true })
  sampleName: string | null;

  @Field(() => String, { nullable: true, description: "The sample's seed." })
  sampleSeed: string | null;
}

/** The description of a p-value's Holm-adjusted twin. */
export const HOLM =
  "Holm-adjusted over every test of the study report (see StudyReport.multipleComparisons); null outside it.";
