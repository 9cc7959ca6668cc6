import { ConnectionFacts, connectionBudget } from "../../../src/db/connection-budget";

const facts = (overrides: Partial<ConnectionFacts> = {}): ConnectionFacts => ({
  maxConnections: 100,
  superuserReserved: 3,
  roleLimit: -1,
  superuser: false,
  inUse: 10,
  roleInUse: 10,
  behindPooler: false,
  ...overrides,
});

describe("a process's connections against the server's limits", () => {
  it("names the numbers and the room left for more processes like this one", () => {
    const budget = connectionBudget(facts(), 15);
    expect(budget.fatal).toBeNull();
    expect(budget.tight).toBe(false);
    // 97 allowed, 10 in use (this one's first among them): 88 free, 15 for this one, 73 for 4 more.
    expect(budget.note).toBe(
      "this process opens up to 15 connections; 10 of 97 in use (max_connections 100 less 3 reserved for superusers): room for 4 more processes like this one",
    );
  });

  it("refuses to start a process whose pools alone exceed what the server allows", () => {
    const budget = connectionBudget(facts(), 105);
    expect(budget.fatal).toMatch(
      /opens up to 105 connections .* but the server allows 97 in all \(max_connections 100 less 3 reserved/,
    );
    expect(connectionBudget(facts({ roleLimit: 12 }), 15).fatal).toMatch(
      /allows 12 in all \(the role's connection limit 12\)/,
    );
    // A superuser may use the reserve.
    expect(connectionBudget(facts({ superuser: true }), 99).fatal).toBeNull();
  });

  it("warns where fewer are free now than the process may open", () => {
    const budget = connectionBudget(facts({ inUse: 90 }), 15);
    expect(budget.tight).toBe(true);
    expect(budget.note).toMatch(/90 of 97 in use .*: only 8 free, so this process will wait on refusals/);
  });

  it("decides nothing behind a pooler, whose own limits apply", () => {
    const budget = connectionBudget(facts({ behindPooler: true, maxConnections: 20 }), 105);
    expect(budget.fatal).toBeNull();
    expect(budget.note).toMatch(/a pooler in between/);
  });
});
