import { requestBucket } from "../../../src/llm/shared-rate-limiter";

describe("the requests bucket", () => {
  it("never admits more than the limit in a rolling minute, and at least 98% of it", () => {
    for (const rpm of [60, 100, 500, 600, 3_000, 6_000, 10_000, 100_000]) {
      const { capacity, refillPerSecond } = requestBucket(rpm);
      // The most a minute can hold: a full bucket at its start, then sixty seconds of refill.
      expect({ rpm, most: capacity + 60 * refillPerSecond }).toEqual({ rpm, most: rpm });
      expect((60 * refillPerSecond) / rpm).toBeGreaterThanOrEqual(0.98);
      expect(capacity).toBeCloseTo(rpm / 60, 10);
    }
  });

  it("keeps a burst of one request and a positive rate under 60 a minute", () => {
    for (const rpm of [1, 2, 30, 59]) {
      const { capacity, refillPerSecond } = requestBucket(rpm);
      expect(capacity).toBe(1);
      expect(refillPerSecond).toBeGreaterThan(0);
      // Within the limit from two a minute on; a limit of one a minute cannot be kept by a bucket that refills.
      expect(capacity + 60 * refillPerSecond).toBeCloseTo(rpm >= 2 ? rpm : 1.5, 10);
    }
  });
});
