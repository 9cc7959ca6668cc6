import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { lcsLength } from "../../../src/judge/lcs";

/** The textbook table, one cell at a time: what the bit-parallel version must equal. */
function tableLcs(a: readonly string[], b: readonly string[]): number {
  const rows = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i += 1)
    for (let j = 1; j <= b.length; j += 1)
      rows[i][j] = a[i - 1] === b[j - 1] ? rows[i - 1][j - 1] + 1 : Math.max(rows[i - 1][j], rows[i][j - 1]);
  return rows[a.length][b.length];
}

/** Seeded draws in [0, below) from pure-rand (as the bootstrap's): the same cases on every run. */
function generator(seed: number) {
  const source = xoroshiro128plus(seed);
  return (below: number) => (source.next() >>> 0) % below;
}

const words = (text: string) => (text ? text.split(" ") : []);

describe("the longest common subsequence of two token sequences", () => {
  it("counts the tokens two texts share in order", () => {
    expect(lcsLength(words("the cat sat on the mat"), words("the cat lay on a mat"))).toBe(4);
    expect(lcsLength(words("a b c d"), words("d c b a"))).toBe(1);
    expect(lcsLength(words("a b c"), words("a b c"))).toBe(3);
    expect(lcsLength(words("a b c"), words("x y z"))).toBe(0);
    expect(lcsLength([], words("a b"))).toBe(0);
    expect(lcsLength(words("a b"), [])).toBe(0);
    expect(lcsLength([], [])).toBe(0);
  });

  it("equals the table on random sequences, across the 32-token word boundaries", () => {
    const next = generator(7);
    for (let round = 0; round < 3_000; round += 1) {
      // Few distinct tokens, so that most tokens match somewhere; lengths past 32, 64 and 96.
      const alphabet = 1 + next(8);
      const a = Array.from({ length: next(130) }, () => `w${next(alphabet)}`);
      const b = Array.from({ length: next(130) }, () => `w${next(alphabet)}`);
      const expected = tableLcs(a, b);
      expect({ a, b, lcs: lcsLength(a, b) }).toEqual({ a, b, lcs: expected });
      expect(lcsLength(b, a)).toBe(expected);
    }
  });

  it("is exact at lengths of whole words: 31, 32, 33, 64 and 65 tokens", () => {
    for (const length of [31, 32, 33, 64, 65]) {
      const a = Array.from({ length }, (_, i) => `t${i}`);
      expect(lcsLength(a, a)).toBe(length);
      expect(lcsLength(a, [...a].reverse())).toBe(1);
      // Every other token kept: half of them (rounded up) in order.
      expect(
        lcsLength(
          a,
          a.filter((_, i) => i % 2 === 0),
        ),
      ).toBe(Math.ceil(length / 2));
    }
  });
});
