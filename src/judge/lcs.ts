// The length of the longest common subsequence of two token sequences: ROUGE-L's core, computed for every judged
// answer. Pure.

/**
 * Bit-parallel (Crochemore, Iliopoulos, Pinzon and Reid, 2001): the shorter sequence's positions are bits in
 * 32-bit words, and each token of the longer one updates all of them with a few word operations, where the
 * textbook table fills one cell at a time. The same result as the table for any input (test/unit/judge/lcs.test.ts
 * checks them against each other).
 */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  const [rows, columns] = a.length >= b.length ? [a, b] : [b, a];
  const m = columns.length;
  if (m === 0) return 0;
  const words = (m + 31) >>> 5;
  // Per distinct token of `columns`, the bits of the positions holding it.
  const matches = new Map<string, Uint32Array>();
  for (let j = 0; j < m; j += 1) {
    let mask = matches.get(columns[j]);
    if (!mask) {
      mask = new Uint32Array(words);
      matches.set(columns[j], mask);
    }
    mask[j >>> 5] |= 1 << (j & 31);
  }
  // V starts all ones; a zero bit per position on some longest common subsequence so far. Bits above m stay one.
  const v = new Uint32Array(words).fill(0xffffffff);
  for (const token of rows) {
    const mask = matches.get(token);
    if (!mask) continue; // V & M = 0: V + 0 | V = V
    let carry = 0;
    for (let w = 0; w < words; w += 1) {
      const vw = v[w];
      const u = (vw & mask[w]) >>> 0;
      const sum = vw + u + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      v[w] = (sum >>> 0) | (vw & ~mask[w]);
    }
  }
  let zeros = 0;
  for (let w = 0; w < words; w += 1) zeros += 32 - popcount(v[w]);
  return zeros;
}

function popcount(x: number): number {
  let n = x - ((x >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
