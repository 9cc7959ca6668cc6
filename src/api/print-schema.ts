// `npm run schema`: writes schema/schema.graphql from the resolvers.
import "reflect-metadata";
import fs from "node:fs";
import path from "node:path";
import { printSchema } from "graphql";
import { createSchema } from "./schema";

async function main() {
  const target = path.resolve(__dirname, "../../../schema/schema.graphql");
  fs.writeFileSync(target, `${printSchema(await createSchema())}\n`);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}

void main();
