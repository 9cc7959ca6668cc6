import { databaseRefusal, refusalBackoffSeconds } from "../../../src/db/refusal";

describe("a database that refuses connections for now", () => {
  it("is read from PostgreSQL's codes and messages, through wrapped errors", () => {
    const full = Object.assign(new Error('too many connections for role "memicl"'), { code: "53300" });
    expect(databaseRefusal(full)).toBe('too many connections for role "memicl"');
    expect(databaseRefusal(new Error("sorry, too many clients already"))).toBe(
      "sorry, too many clients already",
    );
    expect(databaseRefusal({ code: "57P03", message: "the database system is starting up" })).toMatch(
      /starting up/,
    );
    // pg-boss and drivers wrap: a cause, an AggregateError.
    expect(databaseRefusal(new Error("start failed", { cause: full }))).toMatch(/too many connections/);
    expect(databaseRefusal(new AggregateError([new Error("x"), full], "all failed"))).toMatch(/too many/);
  });

  it("counts an unreachable server only where asked", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    expect(databaseRefusal(refused)).toMatch(/ECONNREFUSED/);
    expect(databaseRefusal(refused, false)).toBeNull();
  });

  it("does not wait out what waiting cannot fix", () => {
    expect(
      databaseRefusal({ code: "28P01", message: 'password authentication failed for user "x"' }),
    ).toBeNull();
    expect(databaseRefusal({ code: "3D000", message: 'database "nope" does not exist' })).toBeNull();
    expect(databaseRefusal(new Error("syntax error at or near"))).toBeNull();
    expect(databaseRefusal(null)).toBeNull();
    expect(databaseRefusal("too many clients")).toBeNull();
  });

  it("backs off from half a second to at most 30 s, doubling", () => {
    expect(refusalBackoffSeconds(0, () => 1)).toBe(1);
    expect(refusalBackoffSeconds(3, () => 1)).toBe(8);
    expect(refusalBackoffSeconds(20, () => 1)).toBe(30);
    expect(refusalBackoffSeconds(0, () => 0)).toBe(0.5);
    expect(refusalBackoffSeconds(20, () => 0)).toBe(15);
  });
});
