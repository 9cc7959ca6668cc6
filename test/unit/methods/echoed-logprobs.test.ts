import fc from "fast-check";
import { CLAMPED_LOGPROB_FLOOR, echoedLogprobsProblem } from "../../../src/logprob/scores";

const PROMPT = "The cat sat on the mat";
const echoed = (logprobs: (number | null)[]) => ({
  tokenLogprobs: [...logprobs, -0.5],
  tokens: [...["The", " cat", " sat", " on", " the", " mat"].slice(0, logprobs.length), "."],
  textOffsets: [0, 3, 7, 11, 14, 18].slice(0, logprobs.length).concat([PROMPT.length]),
});

describe("a server's echoed prompt log-probabilities, checked before scoring", () => {
  it("accepts an answer that echoes the prompt whole, the first token without a value", () => {
    expect(echoedLogprobsProblem(echoed([null, -1.2, -0.3, -2, -0.1, -4]), PROMPT)).toBeNull();
  });

  it("refuses a server that scores the generated token only (no echo)", () => {
    expect(
      echoedLogprobsProblem({ tokenLogprobs: [-0.7], tokens: ["."], textOffsets: [PROMPT.length] }, PROMPT),
    ).toMatch(/does not echo prompt log-probabilities/);
    expect(echoedLogprobsProblem({ tokenLogprobs: [-0.7] }, PROMPT)).toMatch(/does not echo/);
  });

  it("refuses a clamped infinity, a null past the first token, unequal arrays and empty arrays", () => {
    expect(echoedLogprobsProblem(echoed([null, -1.2, -9999, -2, -0.1, -4]), PROMPT)).toMatch(
      /-9999 at prompt position 2: a clamped -infinity/,
    );
    expect(echoedLogprobsProblem(echoed([null, -1.2, null, -2, -0.1, -4]), PROMPT)).toMatch(
      /no log-probability at prompt position 2/,
    );
    expect(
      echoedLogprobsProblem({ ...echoed([null, -1, -1, -1, -1, -1]), tokens: ["The", " cat"] }, PROMPT),
    ).toMatch(/differ in length \(2 tokens, 7 token_logprobs\)/);
    expect(echoedLogprobsProblem({ tokenLogprobs: [], tokens: [], textOffsets: [] }, PROMPT)).toMatch(
      /empty/,
    );
  });

  it("finds a bad value at any prompt position, and accepts any finite value above the floor", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: CLAMPED_LOGPROB_FLOOR + 1e-6, max: 0, noNaN: true }), {
          minLength: 5,
          maxLength: 5,
        }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom(-9999, Number.NEGATIVE_INFINITY, Number.NaN, null),
        (values, at, bad) => {
          const good = [null, ...values];
          if (echoedLogprobsProblem(echoed(good), PROMPT) !== null) return false;
          const broken = [...good];
          broken[at] = bad;
          return echoedLogprobsProblem(echoed(broken), PROMPT) !== null;
        },
      ),
    );
  });
});
