import { GraphQLSchema, isObjectType, parse } from "graphql";
import { createSchema } from "../../../src/api/schema";
import { allows, FIELD_ROLES, MUTATION_ROLES, REVEALING_FIELD, requiredRole } from "../../../src/auth/roles";

describe("access rules", () => {
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = await createSchema();
  });

  it("has a role rule for every mutation of the schema, and none for a mutation that does not exist", () => {
    const mutations = Object.keys(schema.getMutationType()!.getFields()).sort();
    expect(mutations.filter((name) => !MUTATION_ROLES[name])).toEqual([]);
    expect(Object.keys(MUTATION_ROLES).filter((name) => !mutations.includes(name))).toEqual([]);
  });

  it("has a rule for every field that reveals prompts or outputs, and every rule names a real field", () => {
    const revealing: string[] = [];
    const all = new Set<string>();
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith("__")) continue;
      for (const field of Object.keys(type.getFields())) {
        all.add(`${type.name}.${field}`);
        if (REVEALING_FIELD.test(field) && type !== schema.getMutationType())
          revealing.push(`${type.name}.${field}`);
      }
    }
    expect(revealing.length).toBeGreaterThan(5);
    expect(revealing.filter((name) => !FIELD_ROLES[name])).toEqual([]);
    expect(Object.keys(FIELD_ROLES).filter((name) => !all.has(name))).toEqual([]);
  });

  it("orders the roles: viewer < reviewer < runner < admin", () => {
    expect(allows("admin", "runner")).toBe(true);
    expect(allows("runner", "reviewer")).toBe(true);
    expect(allows("reviewer", "runner")).toBe(false);
    expect(allows("viewer", "viewer")).toBe(true);
  });

  it("asks for the strictest rule over every field an operation selects, fragments included", () => {
    const role = (text: string, name?: string) => requiredRole(schema, parse(text), name).role;
    expect(role("{ datasets(first: 1) { edges { node { id } } } }")).toBe("viewer");
    expect(role(`mutation { cancelRun(input: { runId: "x" }) { run { id } } }`)).toBe("runner");
    expect(
      role(
        `query Q { ...F } fragment F on Query { completionsToReview(scope: { runId: "x" }) { edges { node { id } } } }`,
      ),
    ).toBe("reviewer");
    expect(
      role(`mutation { createJudgePromptVersion(input: { instruction: "x", examples: [] }) { version } }`),
    ).toBe("admin");
    // Only the operation that runs counts.
    const two = `query A { datasets(first: 1) { edges { node { id } } } } mutation B { cancelRun(input: { runId: "x" }) { run { id } } }`;
    expect(role(two, "A")).toBe("viewer");
    expect(role(two, "B")).toBe("runner");
    // A fragment written after an operation that does not run still counts for the one that spreads it.
    const spread = `query A { ...F } mutation B { cancelRun(input: { runId: "x" }) { run { id } } } fragment F on Query { completionsToReview(scope: { runId: "x" }) { edges { node { id } } } }`;
    expect(role(spread, "A")).toBe("reviewer");
  });
});
