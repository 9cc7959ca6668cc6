import type { GraphQLScalarType } from "graphql";
import type {
  ClassType,
  FieldOptions,
  InterfaceTypeOptions,
  ObjectTypeOptions,
  registerEnumType as register,
} from "type-graphql";

type EnumConfig<T extends object> = Parameters<typeof register<T>>[1];
/** A field's type function, as type-graphql's `Field` takes it (`() => Int`, `() => [Run]`). */
type ReturnTypeFunc = Exclude<Parameters<typeof import("type-graphql").Field>[0], FieldOptions | undefined>;

/**
 * The GraphQL decorators of the types that commands load too (the entities, the report's rows), applied when the
 * schema is built rather than when such a type loads.
 *
 * Every process loads the entities (TypeORM needs them), and `memicl report` and `export` the report's rows, but
 * only `memicl serve` and the tests build the GraphQL schema. Importing type-graphql for their decorators loaded
 * graphql, type-graphql and graphql-scalars (about 360 modules, 0.3 s of CPU) in every command that opens the
 * database. A type's `@ObjectType`, `@InterfaceType`, `@Field` and `registerEnumType` calls are recorded here in
 * the order they run, and `applyDeferredTypes()` (called by `createSchema`, src/api/schema.ts) hands them to
 * type-graphql in that order before the schema is built; from then on, a type that loads later is handed over at
 * once. The scalars they name (`Int`, `Float`, `ID`, ...) are stand-ins here, replaced by type-graphql's and
 * graphql-scalars' own when applied. Resolvers, inputs and the types only the API uses import type-graphql itself.
 */

/** A scalar named by a field, by the name of the real one it stands for. */
class ScalarStandIn {
  constructor(readonly name: "ID" | "Int" | "Float" | "GraphQLISODateTime" | "GraphQLJSONObject") {}
}

export const ID = new ScalarStandIn("ID") as unknown as GraphQLScalarType;
export const Int = new ScalarStandIn("Int") as unknown as GraphQLScalarType;
export const Float = new ScalarStandIn("Float") as unknown as GraphQLScalarType;
export const GraphQLISODateTime = new ScalarStandIn("GraphQLISODateTime") as unknown as GraphQLScalarType;
export const GraphQLJSONObject = new ScalarStandIn("GraphQLJSONObject") as unknown as GraphQLScalarType;

type Recorded =
  | { kind: "ObjectType" | "InterfaceType"; options: unknown[]; target: ClassType }
  | {
      kind: "field";
      options: unknown[];
      target: object;
      key: string | symbol;
      descriptor?: PropertyDescriptor;
    }
  | { kind: "enum"; enumObject: object; config: EnumConfig<object> };

const recorded: Recorded[] = [];
let applied = false;

type TypeGraphQL = typeof import("type-graphql");
const typeGraphQL = () => require("type-graphql") as TypeGraphQL;

function realScalar(standIn: ScalarStandIn): GraphQLScalarType {
  if (standIn.name === "GraphQLJSONObject")
    return (require("graphql-scalars") as typeof import("graphql-scalars")).GraphQLJSONObject;
  return typeGraphQL()[standIn.name];
}

/** A field's type, with each stand-in replaced by its scalar (also inside a list type, `[Int]`). */
function resolved(value: unknown): unknown {
  if (value instanceof ScalarStandIn) return realScalar(value);
  if (Array.isArray(value)) return value.map(resolved);
  return value;
}

/** A field's arguments as type-graphql takes them: its type function returns real scalars. */
function fieldArguments(options: unknown[]): unknown[] {
  const [first, ...rest] = options;
  if (typeof first !== "function") return options;
  const returnType = first as ReturnTypeFunc;
  return [() => resolved(returnType()), ...rest];
}

function apply(entry: Recorded): void {
  const graphql = typeGraphQL();
  if (entry.kind === "field") {
    const decorator = (graphql.Field as (...options: unknown[]) => MethodDecorator & PropertyDecorator)(
      ...fieldArguments(entry.options),
    );
    if (entry.descriptor) decorator(entry.target, entry.key, entry.descriptor);
    else decorator(entry.target, entry.key);
  } else if (entry.kind === "enum") {
    graphql.registerEnumType(entry.enumObject, entry.config);
  } else {
    (graphql[entry.kind] as (...options: unknown[]) => ClassDecorator)(...entry.options)(entry.target);
  }
}

function record(entry: Recorded): void {
  if (applied) apply(entry);
  else recorded.push(entry);
}

/** Hands every recorded type to type-graphql, in order; a type loaded afterwards is handed over at once. */
export function applyDeferredTypes(): void {
  if (applied) return;
  applied = true;
  for (const entry of recorded.splice(0)) apply(entry);
}

export function ObjectType(options?: ObjectTypeOptions): ClassDecorator;
export function ObjectType(name: string, options?: ObjectTypeOptions): ClassDecorator;
export function ObjectType(...options: unknown[]): ClassDecorator {
  return (target) => record({ kind: "ObjectType", options, target: target as unknown as ClassType });
}

export function InterfaceType(options?: InterfaceTypeOptions): ClassDecorator;
export function InterfaceType(name: string, options?: InterfaceTypeOptions): ClassDecorator;
export function InterfaceType(...options: unknown[]): ClassDecorator {
  return (target) => record({ kind: "InterfaceType", options, target: target as unknown as ClassType });
}

export function Field(options?: FieldOptions): MethodDecorator & PropertyDecorator;
export function Field(
  returnTypeFunction?: ReturnTypeFunc,
  options?: FieldOptions,
): MethodDecorator & PropertyDecorator;
export function Field(...options: unknown[]): MethodDecorator & PropertyDecorator {
  return (target: object, key: string | symbol, descriptor?: PropertyDescriptor) =>
    record({ kind: "field", options, target, key, descriptor });
}

export function registerEnumType<T extends object>(enumObject: T, config: EnumConfig<T>): void {
  record({ kind: "enum", enumObject, config: config as EnumConfig<object> });
}
