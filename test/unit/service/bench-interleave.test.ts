import {
  geometricMeanInterval,
  ProgressPoint,
  pairedRatios,
  readersOn,
  timeAtDone,
  tQuantile,
  windowRates,
} from "../../../bench/interleave";
import reference from "../../reference/statistics.json";

/** A seeded uniform source (mulberry32), so that the bootstrap and the simulated noise repeat. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOTAL = 28_000;
const WINDOW = 1_000;

/**
 * One run of a grid of TOTAL calls whose rate depends on where it is (stretches of 270 to 650 calls a second, as
 * the grid's prompt sizes move), times a speed of the run as a whole (another moment on a shared machine), with
 * noise, and `effect` times that while the readers are on; progress read every 100 ms.
 */
function simulateRun(effect: number, startOn: boolean, speed: number, random: () => number): ProgressPoint[] {
  const points: ProgressPoint[] = [{ atMs: 0, done: 0 }];
  let done = 0;
  for (let t = 20; done < TOTAL; t += 20) {
    const stretch = 460 + 190 * Math.sin((done / TOTAL) * 17);
    const on = readersOn(Math.floor(done / WINDOW), startOn);
    done = Math.min(
      TOTAL,
      done + (stretch * speed * (on ? effect : 1) * (1 + 0.4 * (random() - 0.5)) * 20) / 1000,
    );
    if (t % 100 === 0 || done === TOTAL) points.push({ atMs: t, done });
  }
  return points;
}

/** Two runs in opposite phase, the second on a machine `drift` times as fast; the on / off ratios. */
function simulatePair(effect: number, seed: number, drift: number): number[] {
  const random = seeded(seed);
  const rates = (startOn: boolean, speed: number) =>
    windowRates(
      simulateRun(effect, startOn, speed, random),
      WINDOW,
      (k) => (readersOn(k, startOn) ? 0 : 300),
      0.95 * TOTAL,
    );
  return pairedRatios(rates(false, 1), rates(true, drift), false);
}

describe("interleaved readers: the windows' arithmetic", () => {
  it("finds when the progress reached a level, between reads", () => {
    const points = [
      { atMs: 0, done: 0 },
      { atMs: 1_000, done: 100 },
      { atMs: 3_000, done: 500 },
    ];
    expect(timeAtDone(points, 50)).toBe(500);
    expect(timeAtDone(points, 300)).toBe(2_000);
    expect(timeAtDone(points, 0)).toBe(0);
    expect(timeAtDone(points, 501)).toBeNaN();
  });

  it("rates each window after its guard, not the first one nor the run's tail", () => {
    const points = [
      { atMs: 0, done: 0 },
      { atMs: 2_000, done: 200 },
      { atMs: 4_000, done: 400 },
      { atMs: 5_000, done: 600 },
    ];
    // Window 1 (calls 200-400) from call 250: 150 calls in 1.5 s; window 2 (400-600) from 450: 150 in 0.75 s.
    expect(windowRates(points, 200, () => 50, 600)).toEqual([Number.NaN, 100, 200]);
    expect(windowRates(points, 200, () => 50, 599)).toHaveLength(2);
    // Window 2 unguarded: 200 calls in 1 s.
    expect(windowRates(points, 200, (k) => (k === 2 ? 0 : 50), 600)[2]).toBe(200);
  });

  it("puts the readers on in opposite windows of the two runs, and divides on by off", () => {
    expect([0, 1, 2, 3].map((k) => readersOn(k, false))).toEqual([false, true, false, true]);
    expect([0, 1, 2, 3].map((k) => readersOn(k, true))).toEqual([true, false, true, false]);
    // Windows 1 (on in the first run) and 2 (on in the second); window 0 and a window rated once are left out.
    expect(pairedRatios([Number.NaN, 90, 100, 5], [Number.NaN, 100, 80], false)).toEqual([0.9, 0.8]);
  });

  it("gives Student's t quantiles and a geometric mean's interval as scipy does", () => {
    for (const { p, df, q } of reference.t_quantile) expect(tQuantile(p, df)).toBeCloseTo(q, 6);
    for (const { ratios, mean_low_high } of reference.geometric_mean_interval) {
      const { mean, low, high } = geometricMeanInterval(ratios);
      for (const [i, value] of [mean, low, high].entries()) expect(value).toBeCloseTo(mean_low_high[i], 9);
    }
  });

  it("recovers a configured slowdown inside its interval, though the second run is a fifth faster", () => {
    const ratios = simulatePair(0.85, 7, 1.2);
    expect(ratios.length).toBeGreaterThanOrEqual(20);
    const interval = geometricMeanInterval(ratios);
    expect(interval.low).toBeLessThanOrEqual(0.85);
    expect(interval.high).toBeGreaterThanOrEqual(0.85);
    expect(interval.high).toBeLessThan(0.95);
  });

  it("does not exclude 1 more often than about 5% of pairs when the readers change nothing", () => {
    let excluded = 0;
    const pairs = 200;
    for (let seed = 0; seed < pairs; seed += 1) {
      const interval = geometricMeanInterval(simulatePair(1, 1_000 + seed, 0.8 + (seed % 5) * 0.1));
      if (interval.low > 1 || interval.high < 1) excluded += 1;
    }
    // 5% expected; 200 pairs put a fair level above 9% less than once in a thousand.
    expect(excluded / pairs).toBeLessThan(0.09);
  });
});
