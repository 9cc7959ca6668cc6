// The row types of the report table in ../tables/non-trivial.ts: what its analysis returns and GraphQL serves.

import { Field, Float, Int, ObjectType } from "../../graphql/deferred-types";
import { MemorizationSetting } from "../../study/settings";
import { SampleScoped } from "../tables/scope";

@ObjectType({
  description:
    "Memorization over the instances whose reference is not trivial (at least 3 words after lower-casing and " +
    "dropping punctuation), per sample, setting and k: each instance counts once (the majority of its judged " +
    "completions), with a Wilson interval; the trivial ones left out are counted.",
  implements: SampleScoped,
})
export class NonTrivialMemorizationRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field(() => Int, { description: "Judged instances with a non-trivial reference." })
  instances: number;

  @Field(() => Int, { description: "Of those, memorized (exact or near-exact)." })
  memorized: number;

  @Field(() => Int, { description: "Judged instances left out because their reference is trivial." })
  trivialInstances: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Float, { nullable: true })
  ciLow: number | null;

  @Field(() => Float, { nullable: true })
  ciHigh: number | null;
}
