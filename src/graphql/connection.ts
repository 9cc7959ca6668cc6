import type { ClassType } from "type-graphql";
import { BadInputError } from "../common/errors";
import { Field, ObjectType } from "./deferred-types";

@ObjectType()
export class PageInfo {
  @Field()
  hasNextPage: boolean;

  @Field(() => String, { nullable: true })
  endCursor: string | null;
}

export interface Page<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: PageInfo;
}

/** A Relay connection type for `Node`, named `${name}Connection` with `${name}Edge` edges. */
export function ConnectionType<T extends object>(name: string, Node: ClassType<T>) {
  @ObjectType(`${name}Edge`)
  class Edge {
    @Field()
    cursor: string;

    @Field(() => Node)
    node: T;
  }

  @ObjectType(`${name}Connection`)
  class Connection {
    @Field(() => [Edge])
    edges: Edge[];

    @Field(() => PageInfo)
    pageInfo: PageInfo;
  }
  return Connection;
}

/** Builds a page from `first + 1` rows fetched in key order. */
export function toPage<T>(rows: T[], first: number, cursorOf: (row: T) => string): Page<T> {
  const visible = rows.slice(0, first);
  const edges = visible.map((node) => ({ cursor: cursorOf(node), node }));
  return { edges, pageInfo: { hasNextPage: rows.length > first, endCursor: edges.at(-1)?.cursor ?? null } };
}

export const MAX_PAGE_SIZE = 500;

/** Every connection's `first`: 0 to MAX_PAGE_SIZE, else BAD_USER_INPUT. */
export function checkPageSize(first: number): void {
  if (!Number.isInteger(first) || first < 0 || first > MAX_PAGE_SIZE) {
    throw new BadInputError(`"first" must be between 0 and ${MAX_PAGE_SIZE}`, { field: "first" });
  }
}
