// The row types of the report table in ../tables/no-memory-floor.ts: what its analysis returns and GraphQL serves.

import { Field, Float, Int, ObjectType } from "../../graphql/deferred-types";
import { MemorizationSetting } from "../../study/settings";
import { SampleScoped } from "../tables/scope";

@ObjectType({
  description:
    "The no-memory floor of one memorization cell (sample x setting x k), a control computed without a model: " +
    "each judged instance counts once (the majority of its completions); it is within the floor when an answer " +
    "a model without memory could give (its input copied whole, by sentence or by clause; the sample's most " +
    "common other reference; '?' or '.') is judged exact or near-exact by the heuristic judge with its sibling " +
    "rule. Memorized above the floor: memorized, and not within the floor. Wilson intervals.",
  implements: SampleScoped,
})
export class NoMemoryFloorRow extends SampleScoped {
  @Field()
  dataset: string;

  @Field(() => MemorizationSetting)
  setting: MemorizationSetting;

  @Field(() => Int)
  shots: number;

  @Field(() => Int, { description: "Judged instances of the cell." })
  instances: number;

  @Field(() => Int, { description: "Of those, memorized (exact or near-exact)." })
  memorized: number;

  @Field(() => Float, { nullable: true })
  rate: number | null;

  @Field(() => Int, { description: "Instances a no-memory answer gets exact or near-exact: the floor." })
  floorInstances: number;

  @Field(() => Int, { description: "Of the floor, by copying the input." })
  floorByCopy: number;

  @Field(() => Int, { description: "Of the floor, by a constant answer only." })
  floorByConstant: number;

  @Field(() => Int, {
    description: "Of the floor, only by copying a demonstration the k-shot prompt shows (floor-3 and later).",
  })
  floorByDemonstration: number;

  @Field(() => Int, { description: "Judged instances whose target is trivial (too short to tell memory)." })
  trivialInstances: number;

  @Field(() => Int, { description: "Non-trivial instances outside the floor: what a verdict is tested on." })
  eligibleInstances: number;

  @Field(() => Int, { description: "Of the eligible instances, memorized." })
  eligibleMemorized: number;

  @Field(() => Float, { nullable: true, description: "eligibleMemorized / eligibleInstances." })
  eligibleRate: number | null;

  @Field(() => Float, { nullable: true, description: "floorInstances / instances." })
  floorRate: number | null;

  @Field(() => Float, { nullable: true })
  floorCiLow: number | null;

  @Field(() => Float, { nullable: true })
  floorCiHigh: number | null;

  @Field(() => Int, { description: "Memorized instances not within the floor." })
  aboveFloor: number;

  @Field(() => Float, { nullable: true, description: "aboveFloor / instances: memorized above the floor." })
  aboveFloorRate: number | null;

  @Field(() => Float, { nullable: true })
  aboveFloorCiLow: number | null;

  @Field(() => Float, { nullable: true })
  aboveFloorCiHigh: number | null;

  @Field({ description: "The floor's rule (its no-memory answers), e.g. floor-1." })
  floorVersion: string;
}
