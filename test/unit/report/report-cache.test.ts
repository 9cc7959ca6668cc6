import { ReportCache, ResultsVersion, spacingOf } from "../../../src/report/report-cache";

const at = (fingerprint: string, seconds: number): ResultsVersion => ({
  fingerprint,
  readAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)),
});

/** A computation the test finishes by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/**
 * A cache on a clock the test moves (values spaced by nine times their cost), and computations that take the time
 * they are told and say what they made.
 */
function clocked(limit: number) {
  let clock = 0;
  const computed: string[] = [];
  return {
    cache: new ReportCache({ limit, now: () => clock, spacingFactor: 9 }),
    computed,
    costing: (ms: number, value: string) => async () => {
      computed.push(value);
      clock += ms;
      return value;
    },
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe("the results cache", () => {
  it("computes once per fingerprint, however many read, and freezes what it shares", async () => {
    const cache = new ReportCache();
    let calls = 0;
    const compute = async () => ({ rows: [{ n: ++calls }] });
    const reads = await Promise.all([1, 2, 3].map(() => cache.read("report", at("a", 1), compute)));
    expect(calls).toBe(1);
    expect(reads.map((read) => read.value.rows[0].n)).toEqual([1, 1, 1]);
    expect(Object.isFrozen(reads[0].value.rows[0])).toBe(true);
    expect((await cache.read("report", at("a", 2), compute)).computedAt).toEqual(at("a", 1).readAt);
    expect(calls).toBe(1);
    // Changed results: computed again (fresh; a reader that may lag is the next test's).
    const changed = await cache.read("report", at("b", 3), compute, { fresh: true });
    expect({ calls, n: changed.value.rows[0].n, fingerprint: changed.fingerprint }).toEqual({
      calls: 2,
      n: 2,
      fingerprint: "b",
    });
    // Another key is another value.
    await cache.read("breakdown", at("b", 3), compute);
    expect(calls).toBe(3);
    // Never asked for, a value is computed whatever the reader may accept.
    await cache.read("other", at("b", 3), compute);
    expect(calls).toBe(4);
  });

  it("returns the last value while a newer one computes, unless asked for a fresh one", async () => {
    let clock = 0;
    const cache = new ReportCache({ limit: 10, now: () => clock });
    await cache.read("report", at("a", 1), async () => "A");
    clock += 60_000; // long past the spacing: a reader that may lag starts the next computation
    const slow = deferred<string>();
    // It gets the last value at once; the newer one computes.
    expect((await cache.read("report", at("b", 2), () => slow.promise)).value).toBe("A");
    // A reader of the state being computed is not made to wait for it either: the last value, at once.
    expect((await cache.read("report", at("b", 2), async () => "B?")).value).toBe("A");
    // Nor is a reader of a third state that arrives while the second computes.
    expect((await cache.read("report", at("c", 3), async () => "C?")).value).toBe("A");
    // A fresh reader of the state being computed waits for that computation (it does not start another).
    const second = cache.read("report", at("b", 2), async () => "B?", { fresh: true });
    // A fresh reader of the newest state gets that state.
    const fresh = await cache.read("report", at("c", 3), async () => "C", { fresh: true });
    expect(fresh).toMatchObject({ value: "C", fingerprint: "c" });
    slow.resolve("B");
    expect((await second).value).toBe("B");
    // The older computation finished last; it does not replace the newer value.
    expect((await cache.read("report", at("c", 4), async () => "again")).value).toBe("C");
  });

  it("makes the first readers of changing results wait for the one computation under way", async () => {
    const cache = new ReportCache();
    const first = deferred<string>();
    let started = 0;
    const compute = (value: Promise<string>) => () => {
      started += 1;
      return value;
    };
    const reading = cache.read("report", at("a", 1), compute(first.promise));
    // The results changed before the first value was done: a reader that may lag waits for it...
    const lagging = cache.read("report", at("b", 2), compute(Promise.resolve("B?")));
    // ...and a fresh reader computes the state it read.
    const fresh = cache.read("report", at("c", 3), compute(Promise.resolve("C")), { fresh: true });
    first.resolve("A");
    expect((await reading).value).toBe("A");
    expect(await lagging).toMatchObject({ value: "A", fingerprint: "a" });
    expect(await fresh).toMatchObject({ value: "C", fingerprint: "c" });
    expect(started).toBe(2);
  });

  it("spaces the computations of readers that may lag by a factor of their cost, at least a second", async () => {
    let clock = 0;
    const cache = new ReportCache({ limit: 10, now: () => clock, spacingFactor: 9 });
    let calls = 0;
    const slow = async () => {
      calls += 1;
      clock += 500; // the computation takes 500 ms
      return calls;
    };
    await cache.read("report", at("a", 1), slow);
    clock += 1_000;
    // 1 s after a 500 ms computation: the spacing is 4.5 s, the last value is returned.
    expect((await cache.read("report", at("b", 2), slow)).value).toBe(1);
    // A fresh reader is not made to lag.
    expect((await cache.read("report", at("b", 2), slow, { fresh: true })).value).toBe(2);
    clock += 4_499;
    // Not yet past the spacing: the last value, and nothing computed.
    expect((await cache.read("report", at("c", 3), slow)).value).toBe(2);
    expect(calls).toBe(2);
    clock += 2;
    // Past the spacing: the reader gets the last value at once and the next one computes in the background.
    expect((await cache.read("report", at("c", 3), slow)).value).toBe(2);
    expect(calls).toBe(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect((await cache.read("report", at("c", 3), slow)).value).toBe(3);
    expect(calls).toBe(3);
  });

  it("spaces a group's values by what the whole group costs", async () => {
    const { cache, computed, costing, advance } = clocked(10);
    // One experiment's report (400 ms) and a breakdown (100 ms): the group costs 500 ms, so 4.5 s apart.
    await cache.read("report", at("a", 1), costing(400, "R1"), { group: "e" });
    await cache.read("breakdown", at("a", 1), costing(100, "B1"), { group: "e" });
    advance(2_000);
    // Alone, the breakdown would be computed again 1 s after its last computation; in its group, not yet.
    expect((await cache.read("breakdown", at("b", 2), costing(100, "B2"), { group: "e" })).value).toBe("B1");
    expect(computed).toEqual(["R1", "B1"]);
    // A value of another group, of the same cost, is spaced by its own cost: 1 s.
    await cache.read("breakdown-f", at("a", 1), costing(100, "F1"), { group: "f" });
    advance(1_000);
    expect((await cache.read("breakdown-f", at("b", 2), costing(100, "F2"), { group: "f" })).value).toBe(
      "F1",
    );
    expect(computed).toEqual(["R1", "B1", "F1", "F2"]);
    advance(1_500); // 4.6 s after the group's breakdown last finished
    expect((await cache.read("breakdown", at("b", 2), costing(100, "B2"), { group: "e" })).value).toBe("B1");
    expect(computed).toEqual(["R1", "B1", "F1", "F2", "B2"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect((await cache.read("breakdown", at("b", 2), costing(100, "B3"), { group: "e" })).value).toBe("B2");
  });

  it("forgets an evicted value's cost with it", async () => {
    const { cache, computed, costing, advance } = clocked(1);
    await cache.read("report", at("a", 1), costing(10_000, "R"), { group: "e" });
    await cache.read("breakdown", at("a", 1), costing(100, "B1"), { group: "e" }); // the report goes
    advance(1_000);
    // The group now costs 100 ms: 1 s apart (the floor), not 91 s.
    expect((await cache.read("breakdown", at("b", 2), costing(100, "B2"), { group: "e" })).value).toBe("B1");
    expect(computed).toEqual(["R", "B1", "B2"]);
  });

  it("spaces by 24 times the cost by default, and says what each computation took", async () => {
    let clock = 0;
    const told: [number, boolean][] = [];
    const cache = new ReportCache({ now: () => clock, computed: (ms, failed) => told.push([ms, failed]) });
    const costing = (ms: number, value: string) => async () => {
      clock += ms;
      return value;
    };
    await cache.read("report", at("a", 1), costing(200, "A"));
    clock += 4_799; // 4.8 s is 24 x 200 ms; nine times would have been 1.8 s
    expect((await cache.read("report", at("b", 2), costing(200, "B"))).value).toBe("A");
    expect(told).toEqual([[200, false]]);
    clock += 2;
    await cache.read("report", at("b", 2), costing(300, "B"));
    await new Promise((resolve) => setImmediate(resolve));
    expect((await cache.read("report", at("b", 2), costing(1, "?"))).value).toBe("B");
    await expect(
      cache.read("other", at("b", 2), async () => {
        clock += 50;
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(told).toEqual([
      [200, false],
      [300, false],
      [50, true],
    ]);
    expect(spacingOf(10)).toBe(1_000);
    expect(spacingOf(1_000)).toBe(24_000);
    expect(spacingOf(1_000, 4)).toBe(4_000);
  });

  it("keeps nothing of a failed computation", async () => {
    const cache = new ReportCache();
    const failing = deferred<string>();
    const read = cache.read("report", at("a", 1), () => failing.promise);
    failing.reject(new Error("database went away"));
    await expect(read).rejects.toThrow("database went away");
    expect((await cache.read("report", at("a", 1), async () => "A")).value).toBe("A");
  });

  it("forgets the least recently read key beyond its limit", async () => {
    const cache = new ReportCache({ limit: 2 });
    let calls = 0;
    const compute = async () => ++calls;
    await cache.read("x", at("a", 1), compute);
    await cache.read("y", at("a", 1), compute);
    await cache.read("x", at("a", 1), compute); // x is now the most recent
    await cache.read("z", at("a", 1), compute); // y goes
    expect(cache.size).toBe(2);
    await cache.read("x", at("a", 1), compute);
    expect(calls).toBe(3);
    await cache.read("y", at("a", 1), compute);
    expect(calls).toBe(4);
  });
});
