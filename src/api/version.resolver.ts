import { createHash } from "node:crypto";
import { GraphQLResolveInfo, printSchema } from "graphql";
import { Ctx, Field, Info, ObjectType, Query, Resolver } from "type-graphql";
import { CODE_VERSION } from "../config/code-version";
import type { Context } from "../graphql/context";

@ObjectType({ description: "What is serving: the package, the code version runs record, and the schema." })
export class ServiceVersion {
  @Field({ description: "memicl@<version> from package.json: the code version every run records." })
  codeVersion: string;

  @Field({ description: "SHA-256 of the GraphQL schema this server answers (as in schema/schema.graphql)." })
  schemaHash: string;

  @Field()
  node: string;
}

@ObjectType({
  description: "The API key a request is made with: who it reviews or runs as, and what it may read.",
})
export class CurrentKey {
  @Field({ description: "The name the key records reviews under." })
  name: string;

  @Field({ description: "viewer, reviewer, runner or admin." })
  role: string;

  @Field({
    description:
      "A blind reviewer's key: it reads its review queue and records reviews, and nothing of other judges or the model.",
  })
  blind: boolean;
}

let schemaHash: string | null = null;

@Resolver()
export class VersionResolver {
  @Query(() => ServiceVersion, { description: "The serving version (also `memicl --version`)." })
  version(@Info() info: GraphQLResolveInfo): ServiceVersion {
    schemaHash ??= createHash("sha256").update(printSchema(info.schema)).digest("hex");
    return { codeVersion: CODE_VERSION, schemaHash, node: process.version };
  }

  @Query(() => CurrentKey, {
    nullable: true,
    description:
      "The key this request is made with (null with keys off): a dashboard asks first, so that a blind reviewer's page asks for nothing it may not read.",
  })
  currentKey(@Ctx() { principal }: Context): CurrentKey | null {
    return principal ? { name: principal.name, role: principal.role, blind: principal.blind } : null;
  }
}
