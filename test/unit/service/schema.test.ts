import fs from "node:fs";
import path from "node:path";
import { printSchema } from "graphql";
import { createSchema } from "../../../src/api/schema";

describe("schema/schema.graphql", () => {
  it("matches the schema the resolvers build (run `npm run schema` after changing the API)", async () => {
    const committed = fs.readFileSync(path.resolve(__dirname, "../../../schema/schema.graphql"), "utf8");
    expect(committed).toBe(`${printSchema(await createSchema())}\n`);
  });
});
