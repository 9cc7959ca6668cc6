import { GraphQLSchema } from "graphql";
import { buildSchema } from "type-graphql";
import { DatasetResolver } from "../dataset/dataset.resolver";
import { InstanceResolver } from "../instance/instance.resolver";

export const RESOLVERS = [DatasetResolver, InstanceResolver] as const;

export function createSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: RESOLVERS,
    validate: { forbidUnknownValues: false },
  });
}
