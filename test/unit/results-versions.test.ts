import { ActiveVersion, ResultsVersions } from "../../src/report/results-versions";

/** States read from a "database" the test controls, on a clock it moves. */
function reading() {
  let clock = 0;
  let state: Omit<ActiveVersion, "readAt"> = { fingerprint: "a", active: true };
  const reads: string[] = [];
  const pending: (() => void)[] = [];
  let hold = false;
  const versions = new ResultsVersions({
    now: () => clock,
    reuseMs: 500,
    read: async (id) => {
      if (id === "missing") throw new Error("Experiment missing not found");
      reads.push(id);
      if (hold) await new Promise<void>((resolve) => pending.push(resolve));
      return { ...state, readAt: new Date(clock) };
    },
  });
  return {
    versions,
    reads,
    set: (next: Omit<ActiveVersion, "readAt">) => {
      state = next;
    },
    advance: (ms: number) => {
      clock += ms;
    },
    holding: (on: boolean) => {
      hold = on;
    },
    release: () => {
      for (const resolve of pending.splice(0)) resolve();
    },
  };
}

describe("the results' states", () => {
  it("are shared by reads that may lag while a run is going, for reuseMs", async () => {
    const r = reading();
    expect((await r.versions.of("e")).fingerprint).toBe("a");
    r.set({ fingerprint: "b", active: true });
    r.advance(499);
    expect((await r.versions.of("e")).fingerprint).toBe("a");
    expect(r.reads).toHaveLength(1);
    r.advance(1);
    expect((await r.versions.of("e")).fingerprint).toBe("b");
    expect(r.reads).toHaveLength(2);
  });

  it("are read anew for a fresh read, and by every read once the runs are done", async () => {
    const r = reading();
    await r.versions.of("e");
    r.set({ fingerprint: "b", active: false });
    expect((await r.versions.of("e", { fresh: true })).fingerprint).toBe("b");
    // The run has ended: no read reuses that state, however recent.
    expect((await r.versions.of("e")).fingerprint).toBe("b");
    expect((await r.versions.of("e")).fingerprint).toBe("b");
    expect(r.reads).toHaveLength(4);
  });

  it("are kept apart by experiment", async () => {
    const r = reading();
    await r.versions.of("e");
    await r.versions.of("f");
    await r.versions.of("e");
    expect(r.reads).toEqual(["e", "f"]);
  });

  it("being read serve the reads that come meanwhile", async () => {
    const r = reading();
    r.holding(true);
    const first = r.versions.of("e");
    const second = r.versions.of("e");
    await Promise.resolve();
    r.release();
    expect(await first).toBe(await second);
    expect(r.reads).toEqual(["e"]);
  });

  it("fail as the read fails, and a failure is not kept", async () => {
    const r = reading();
    await expect(r.versions.of("missing")).rejects.toThrow("not found");
    await expect(r.versions.of("missing")).rejects.toThrow("not found");
    expect((await r.versions.of("e")).active).toBe(true);
  });
});
