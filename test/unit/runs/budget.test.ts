import fc from "fast-check";
import {
  chargeOf,
  decideCall,
  KEPT_CALLS_COUNTED,
  MAX_CALL_USD,
  usd,
  worstCaseCallUsd,
} from "../../../src/budget/budget";

describe("a call's worst case", () => {
  it("prices every prompt token (with the margin) at the input price and every allowed output token", () => {
    // 1,000 counted tokens -> 1,100 + 16 = 1,116 billed at worst; 100 output tokens.
    expect(worstCaseCallUsd({ inputPerMillion: 2, outputPerMillion: 8 }, 1000, 100)).toBeCloseTo(
      (1116 * 2 + 100 * 8) / 1e6,
      12,
    );
  });

  it("ignores a cheaper cached-input price (the worst case is no cache hit)", () => {
    const price = { inputPerMillion: 2, outputPerMillion: 8 };
    expect(worstCaseCallUsd({ ...price, cachedInputPerMillion: 0.5 }, 500, 10)).toBe(
      worstCaseCallUsd(price, 500, 10),
    );
  });
});

describe("whether a budgeted call may start", () => {
  const budget = (over: Partial<Parameters<typeof decideCall>[0][number]> = {}) => ({
    scope: "experiment" as const,
    limitUsd: 1,
    spentUsd: 0.5,
    inFlightUsd: 0,
    inFlightCalls: 0,
    keptCalls: KEPT_CALLS_COUNTED,
    ...over,
  });

  it("starts a call that fits with what was spent and what is in flight", () => {
    expect(decideCall([budget({ inFlightUsd: 0.2, inFlightCalls: 2 })], 0.3)).toEqual({ kind: "fits" });
  });

  it("starts with no budget at all", () => {
    expect(decideCall([], 1e9)).toEqual({ kind: "fits" });
  });

  it("waits when only the calls in flight keep it from fitting", () => {
    const decision = decideCall([budget({ inFlightUsd: 0.3, inFlightCalls: 3 })], 0.3);
    expect(decision).toMatchObject({ kind: "wait" });
    expect(decision.kind === "wait" && decision.reason).toMatch(/waiting for 3 call\(s\) in flight/);
  });

  it("pauses the budget whose spending plus the call could exceed it, naming it", () => {
    const decision = decideCall(
      [budget({ limitUsd: 10, spentUsd: 1 }), budget({ scope: "run", limitUsd: 0.6, spentUsd: 0.5 })],
      0.2,
    );
    expect(decision).toMatchObject({ kind: "pause", scope: "run" });
    expect(decision.kind === "pause" && decision.reason).toMatch(
      /^budget: the run's budget of \$0\.60 is reached: \$0\.50 spent, and the next call could cost up to \$0\.20/,
    );
  });

  it("pauses before waiting: a call that cannot fit at all does not wait for calls in flight", () => {
    expect(decideCall([budget({ inFlightUsd: 0.4, inFlightCalls: 4 })], 0.6)).toMatchObject({
      kind: "pause",
    });
  });

  it("admits one call more in flight than it has seen keep to max_tokens (slow start)", () => {
    expect(decideCall([budget({ keptCalls: 0 })], 0.01)).toEqual({ kind: "fits" });
    const second = decideCall([budget({ keptCalls: 0, inFlightCalls: 1, inFlightUsd: 0.01 })], 0.01);
    expect(second).toMatchObject({ kind: "wait" });
    expect(second.kind === "wait" && second.reason).toMatch(/one call more in flight than it has seen keep/);
    expect(decideCall([budget({ keptCalls: 3, inFlightCalls: 3, inFlightUsd: 0.03 })], 0.01)).toEqual({
      kind: "fits",
    });
  });

  it("holds a cap within one call's overrun when every call overruns max_tokens", () => {
    // A simulated pool: W workers ask to start calls; each call, stored, costs `overrun` however small its worst
    // case, and the budget pauses (as BudgetGate.pauseOverrun does) at the first overrun stored.
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0.01, max: 50, noNaN: true }),
        fc.double({ min: 0.1, max: 100, noNaN: true }),
        (workers, overrun, limit) => {
          let spent = 0;
          let inFlight = 0;
          let paused = false;
          while (!paused) {
            let started = 0;
            for (let w = 0; w < workers; w++) {
              const decision = decideCall(
                [
                  {
                    scope: "run",
                    limitUsd: limit,
                    spentUsd: spent,
                    inFlightUsd: inFlight * 0.001,
                    inFlightCalls: inFlight,
                    keptCalls: 0,
                  },
                ],
                0.001,
              );
              if (decision.kind === "pause") paused = true;
              if (decision.kind !== "fits") break;
              inFlight += 1;
              started += 1;
            }
            if (started === 0 && inFlight === 0) break;
            // Every call in flight is stored: each overran.
            spent += inFlight * overrun;
            inFlight = 0;
            paused = true;
          }
          return spent <= overrun + 1e-9;
        },
      ),
    );
  });

  it("lets a call that takes the budget exactly to its limit start (rounding aside)", () => {
    expect(decideCall([budget()], 0.5)).toEqual({ kind: "fits" });
    expect(decideCall([budget()], 0.5 + 1e-6)).toMatchObject({ kind: "pause" });
  });

  it("shows small amounts with their digits", () => {
    expect(usd(0.0042)).toBe("$0.0042");
    expect(usd(0.05012)).toBe("$0.0501");
    expect(usd(0.25)).toBe("$0.25");
    expect(usd(0.2)).toBe("$0.20");
    expect(usd(12.5)).toBe("$12.50");
    expect(usd(0)).toBe("$0.00");
    expect(usd(0.0000042)).toBe("$0.0000042");
  });
});

describe("what an answered call is charged", () => {
  const price = { inputPerMillion: 100, outputPerMillion: 200, cachedInputPerMillion: 10 };
  const call = { countedPromptTokens: () => 80, maxOutputTokens: 100 };
  // The worst case: 80 counted -> 88 + 16 = 104 prompt tokens at $100/M, 100 output tokens at $200/M.
  const worst = (104 * 100 + 100 * 200) / 1e6;

  it("charges the reported usage when it is plausible, cached tokens at their price", () => {
    const charge = chargeOf(price, { promptTokens: 90, completionTokens: 20, cachedTokens: 40 }, call);
    expect(charge).toEqual({ usd: (50 * 100 + 40 * 10 + 20 * 200) / 1e6, notes: [], overran: false });
  });

  it.each([
    ["no usage at all", { promptTokens: null, completionTokens: null, cachedTokens: null }],
    ["cached tokens above the prompt's", { promptTokens: null, completionTokens: null, cachedTokens: 1e9 }],
  ])("charges %s at the call's worst case", (_, usage) => {
    const charge = chargeOf(price, usage, call);
    expect(charge.usd).toBeCloseTo(worst, 12);
    expect(charge.notes.length).toBeGreaterThan(0);
  });

  it("never charges less than the prompt's worst case when the reported prompt is implausible", () => {
    const cachedAbove = chargeOf(
      price,
      { promptTokens: 10, completionTokens: 1, cachedTokens: 1_000_000 },
      call,
    );
    expect(cachedAbove.usd).toBeCloseTo((104 * 100 + 1 * 200) / 1e6, 12);
    const tooFew = chargeOf(price, { promptTokens: 10, completionTokens: 1, cachedTokens: 0 }, call);
    expect(tooFew.usd).toBeCloseTo((104 * 100 + 1 * 200) / 1e6, 12);
    expect(tooFew.notes[0]).toMatch(/less than half/);
  });

  it("charges output beyond max_tokens as reported, and says the provider overran", () => {
    const charge = chargeOf(price, { promptTokens: 80, completionTokens: 100_000, cachedTokens: 0 }, call);
    expect(charge.usd).toBeCloseTo((80 * 100 + 100_000 * 200) / 1e6, 12);
    expect(charge.overran).toBe(true);
  });

  it("caps a charge that one call cannot store, and never goes below zero", () => {
    const huge = chargeOf(
      price,
      { promptTokens: 2_147_483_647, completionTokens: 2_147_483_647, cachedTokens: 0 },
      call,
    );
    expect(huge.usd).toBe(MAX_CALL_USD);
    expect(huge.overran).toBe(true);
    const free = chargeOf(
      { inputPerMillion: 0, outputPerMillion: 0 },
      { promptTokens: 80, completionTokens: 5, cachedTokens: 0 },
      call,
    );
    expect(free.usd).toBe(0);
  });
});
