import { ResultsCache, ResultsVersion } from "../../src/report/results-cache";

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

describe("the results cache", () => {
  it("computes once per fingerprint, however many read, and freezes what it shares", async () => {
    const cache = new ResultsCache();
    let calls = 0;
    const compute = async () => ({ rows: [{ n: ++calls }] });
    const reads = await Promise.all([1, 2, 3].map(() => cache.read("report", at("a", 1), compute)));
    expect(calls).toBe(1);
    expect(reads.map((read) => read.value.rows[0].n)).toEqual([1, 1, 1]);
    expect(Object.isFrozen(reads[0].value.rows[0])).toBe(true);
    expect((await cache.read("report", at("a", 2), compute)).computedAt).toEqual(at("a", 1).readAt);
    expect(calls).toBe(1);
    const changed = await cache.read("report", at("b", 3), compute);
    expect({ calls, n: changed.value.rows[0].n, fingerprint: changed.fingerprint }).toEqual({
      calls: 2,
      n: 2,
      fingerprint: "b",
    });
    // Another key is another value.
    await cache.read("breakdown", at("b", 3), compute);
    expect(calls).toBe(3);
  });

  it("returns the last value while a newer one computes, unless asked for a fresh one", async () => {
    const cache = new ResultsCache();
    await cache.read("report", at("a", 1), async () => "A");
    const slow = deferred<string>();
    const first = cache.read("report", at("b", 2), () => slow.promise);
    // A third state arrives while the second computes: the reader is not made to wait.
    expect((await cache.read("report", at("c", 3), async () => "C?")).value).toBe("A");
    // A reader of the state being computed waits for it.
    const second = cache.read("report", at("b", 2), async () => "B?");
    // A fresh reader of the newest state gets that state.
    const fresh = await cache.read("report", at("c", 3), async () => "C", { fresh: true });
    expect(fresh).toMatchObject({ value: "C", fingerprint: "c" });
    slow.resolve("B");
    expect((await first).value).toBe("B");
    expect((await second).value).toBe("B");
    // The older computation finished last; it does not replace the newer value.
    expect((await cache.read("report", at("c", 4), async () => "again")).value).toBe("C");
  });

  it("keeps nothing of a failed computation", async () => {
    const cache = new ResultsCache();
    const failing = deferred<string>();
    const read = cache.read("report", at("a", 1), () => failing.promise);
    failing.reject(new Error("database went away"));
    await expect(read).rejects.toThrow("database went away");
    expect((await cache.read("report", at("a", 1), async () => "A")).value).toBe("A");
  });

  it("forgets the least recently read key beyond its limit", async () => {
    const cache = new ResultsCache(2);
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
