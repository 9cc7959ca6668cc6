import { createHash } from "node:crypto";
import { GraphQLResolveInfo, printSchema } from "graphql";
import { Field, Info, ObjectType, Query, Resolver } from "type-graphql";
import { CODE_VERSION } from "../config/code-version";

@ObjectType({ description: "What is serving: the package, the code version runs record, and the schema." })
export class ServiceVersion {
  @Field({ description: "memicl@<version> from package.json: the code version every run records." })
  codeVersion: string;

  @Field({ description: "SHA-256 of the GraphQL schema this server answers (as in schema/schema.graphql)." })
  schemaHash: string;

  @Field()
  node: string;
}

let schemaHash: string | null = null;

@Resolver()
export class VersionResolver {
  @Query(() => ServiceVersion, { description: "The serving version (also `memicl --version`)." })
  version(@Info() info: GraphQLResolveInfo): ServiceVersion {
    schemaHash ??= createHash("sha256").update(printSchema(info.schema)).digest("hex");
    return { codeVersion: CODE_VERSION, schemaHash, node: process.version };
  }
}
