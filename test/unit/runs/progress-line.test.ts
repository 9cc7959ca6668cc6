import { formatCost, formatDuration, pace, progressLine, snapshotOf } from "../../../src/cli/progress-line";

const run = (status: string, expectedCount: number, doneCount: number, failedCount = 0, costUsd = "0") => ({
  status,
  expectedCount,
  doneCount,
  failedCount,
  costUsd,
});

describe("the progress of memicl experiment --wait", () => {
  it("counts what the runs will make: a cancelled run's skipped items leave the denominator", () => {
    const snapshot = snapshotOf([
      run("SUCCEEDED", 100, 100, 0, "0.5"),
      run("CANCELLED", 100, 30, 2, "0.25"),
      run("RUNNING", 100, 10, 1),
    ]);
    expect(snapshot).toEqual({
      total: 100 + 32 + 100,
      finished: 100 + 32 + 11,
      failed: 3,
      costUsd: 0.75,
      runsFinished: 2,
      runs: 3,
    });
  });

  it("gives a rate and the time left from two moments, and no ETA while nothing moved", () => {
    expect(pace({ finished: 10, at: 0 }, { finished: 40, at: 10_000 }, 100)).toEqual({
      perSecond: 3,
      etaSeconds: 20,
    });
    expect(pace({ finished: 10, at: 0 }, { finished: 10, at: 10_000 }, 100)).toEqual({
      perSecond: 0,
      etaSeconds: null,
    });
  });

  it("writes one readable line for a log", () => {
    const line = progressLine(snapshotOf([run("RUNNING", 200, 50, 2, "0.004")]), {
      perSecond: 2.5,
      etaSeconds: 95,
    });
    expect(line).toBe(
      "progress: 52/200 completions (26.0%), 2 failed, 2.5/s, ETA 1m35s, <$0.01, 0/1 runs finished",
    );
    expect(formatDuration(7300)).toBe("2h01m");
    expect(formatDuration(null)).toBe("?");
    expect(formatCost(12.345)).toBe("$12.35");
    expect(formatCost(0)).toBe("$0.00");
  });
});

describe("waiting reasons said once per kind", () => {
  it("are one wait when only their times and counts differ", () => {
    const { waitingShape } =
      require("../../../src/cli/progress-line") as typeof import("../../../src/cli/progress-line");
    const at = (time: string) =>
      `waiting for the tokens-per-minute limit of provider "lab" (300000 per minute); next slot about ${time}`;
    expect(waitingShape(at("2026-12-04T10:00:01Z"))).toBe(waitingShape(at("2026-12-04T10:07:59Z")));
    expect(waitingShape('no live worker can call provider "lab"')).not.toBe(
      waitingShape(at("2026-12-04T10:00:01Z")),
    );
    expect(waitingShape("12 request(s) in 1 batch(es): 3 answered so far")).toBe(
      waitingShape("12 request(s) in 1 batch(es): 9 answered so far"),
    );
  });
});
