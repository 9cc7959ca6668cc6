import { Field, ID, InputType, Int, ObjectType } from "type-graphql";

@InputType()
export class DeleteInput {
  @Field(() => ID)
  id: string;

  @Field({ defaultValue: false, description: "Say what would go, and delete nothing." })
  dryRun: boolean;
}

@ObjectType({ description: "What a delete removed (or, with dryRun, would remove)." })
export class DeletionCounts {
  @Field(() => Int)
  datasets: number;

  @Field(() => Int)
  instances: number;

  @Field(() => Int)
  samples: number;

  @Field(() => Int)
  experiments: number;

  @Field(() => Int)
  runs: number;

  @Field(() => Int)
  completions: number;

  @Field(() => Int)
  judgments: number;

  @Field(() => Int, { description: "Queue jobs still waiting for those completions." })
  queuedJobs: number;
}

@ObjectType()
export class DeletePayload {
  @Field()
  dryRun: boolean;

  @Field({ description: "False for a dry run." })
  deleted: boolean;

  @Field(() => DeletionCounts)
  counts: DeletionCounts;

  @Field(() => String, {
    nullable: true,
    description: "A dry run only: why the delete would be refused now (active runs, a sample still in use).",
  })
  blockedBy: string | null;
}
