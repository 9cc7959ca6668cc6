import { getMetadataStorage } from "type-graphql";
import { applyDeferredTypes, Field, Float, ObjectType } from "../../../src/graphql/deferred-types";

/** An entity's GraphQL decorators are recorded when it loads and handed to type-graphql when a schema is built. */
describe("the deferred GraphQL types (entities, report rows)", () => {
  const objectNamed = (name: string) => getMetadataStorage().objectTypes.find((type) => type.name === name);
  const fieldsOf = (target: object) =>
    getMetadataStorage()
      .fields.filter((field) => field.target === target)
      .map((field) => field.name);

  it("hands type-graphql nothing before it is applied, then every type and field in order, then at once", () => {
    @ObjectType("EarlyThing")
    class Early {
      @Field(() => Float)
      score!: number;

      @Field(() => [Float], { nullable: true })
      scores!: number[] | null;
    }
    expect(objectNamed("EarlyThing")).toBeUndefined();

    applyDeferredTypes();
    expect(objectNamed("EarlyThing")?.target).toBe(Early);
    expect(fieldsOf(Early)).toEqual(["score", "scores"]);
    const [score, scores] = getMetadataStorage().fields.filter((field) => field.target === Early);
    // The stand-in scalar is replaced by type-graphql's own, inside a list too.
    expect(score.getType()).toBe(require("type-graphql").Float);
    expect(scores.getType()).toBe(require("type-graphql").Float);
    expect(scores.typeOptions.array).toBe(true);

    @ObjectType("LateThing")
    class Late {
      @Field()
      name!: string;
    }
    expect(objectNamed("LateThing")?.target).toBe(Late);
    expect(fieldsOf(Late)).toEqual(["name"]);
  });
});
