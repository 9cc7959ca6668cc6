import fc from "fast-check";
import { appendTo } from "../../../src/common/collections";

describe("appendTo", () => {
  it("groups values by key in the order they came, as a copy on each append would", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.string())), (pairs) => {
        const inPlace = new Map<number, string[]>();
        const copied = new Map<number, string[]>();
        for (const [key, value] of pairs) {
          appendTo(inPlace, key, value);
          copied.set(key, [...(copied.get(key) ?? []), value]);
        }
        expect([...inPlace]).toEqual([...copied]);
      }),
    );
  });
});
