import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildSchema, parse, validate } from "graphql";

const ROOT = path.resolve(__dirname, "../../..");

/** The dashboard speaks only the operations of web/src/operations.graphql, typed from the committed schema. */
describe("the dashboard's GraphQL operations", () => {
  it("validate against schema/schema.graphql", () => {
    const schema = buildSchema(fs.readFileSync(path.join(ROOT, "schema/schema.graphql"), "utf8"));
    const document = parse(fs.readFileSync(path.join(ROOT, "web/src/operations.graphql"), "utf8"));
    expect(validate(schema, document).map((error) => error.message)).toEqual([]);
  });

  it("have their generated types and documents up to date (npm run codegen)", () => {
    const result = spawnSync(process.execPath, [path.join(ROOT, "scripts/codegen.js"), "--check"], {
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("are written nowhere else: no page holds a query string of its own", () => {
    const strays: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== "generated") walk(full);
        } else if (/\.tsx?$/.test(entry.name)) {
          const text = fs.readFileSync(full, "utf8");
          if (/[`"'](query|mutation|subscription)\s+[A-Z]\w*\s*[({]/.test(text)) strays.push(full);
        }
      }
    };
    walk(path.join(ROOT, "web/src"));
    expect(strays).toEqual([]);
  });
});
