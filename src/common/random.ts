import { createHash } from "node:crypto";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

/**
 * A seeded random stream. Every random choice of the study design draws from a stream derived from
 * the sample's seed and what the choice is about (e.g. `["cut", instanceKey]`), so a choice does not
 * depend on the order other choices were made in, and any process reproduces it exactly.
 */
export class RandomStream {
  private readonly generator;

  constructor(seed: number) {
    this.generator = xoroshiro128plus(seed);
  }

  /** Derived from a base seed and a purpose; the same inputs always give the same stream. */
  static derive(seed: number | string, ...purpose: (string | number)[]): RandomStream {
    const digest = createHash("sha256")
      .update(JSON.stringify([String(seed), ...purpose]))
      .digest();
    return new RandomStream(digest.readInt32BE(0));
  }

  /** An integer in [from, to], both included. */
  integer(from: number, to: number): number {
    return uniformInt(this.generator, from, to);
  }

  /** A new array with the items in a uniformly random order (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const result = [...items];
    for (let i = result.length - 1; i > 0; i -= 1) {
      const j = this.integer(0, i);
      [result[i], result[j]] = [result[j], result[i]];
    }
    return result;
  }
}
