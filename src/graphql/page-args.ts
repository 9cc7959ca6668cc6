import { ArgsType, Field, Int } from "type-graphql";
import { MAX_PAGE_SIZE } from "./connection";

@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: 20, description: `Page size, 0-${MAX_PAGE_SIZE}.` })
  first: number;

  @Field(() => String, { nullable: true, description: "The `endCursor` of the previous page." })
  after?: string;
}
