import net from "node:net";
import { freeLastingPort, lastingPortRange, portIsFree } from "../../../src/common/free-port";

describe("ports a server keeps", () => {
  it("lie below the system's ephemeral range", () => {
    expect(lastingPortRange("32768\t60999\n")).toEqual({ low: 10_000, high: 32_767 });
    expect(lastingPortRange("20000 60999")).toEqual({ low: 10_000, high: 19_999 });
    // A range starting too low to leave room below it, or none known: the default (below 49152 elsewhere).
    expect(lastingPortRange("1024 65000")).toEqual({ low: 10_000, high: 32_767 });
    expect(lastingPortRange(undefined)).toEqual({ low: 10_000, high: 32_767 });
    expect(lastingPortRange("nonsense")).toEqual({ low: 10_000, high: 32_767 });
  });

  it("are drawn from that range and skipped when taken", async () => {
    const taken = net.createServer();
    const draws = [0.25, 0.5];
    const first = await freeLastingPort(() => draws[0]);
    await new Promise<void>((resolve) => taken.listen(first, "127.0.0.1", resolve));
    try {
      expect(await portIsFree(first)).toBe(false);
      let draw = 0;
      const next = await freeLastingPort(() => draws[Math.min(draw++, 1)]);
      expect(next).not.toBe(first);
      expect(next).toBeGreaterThanOrEqual(10_000);
      expect(next).toBeLessThanOrEqual(32_767);
      expect(await portIsFree(next)).toBe(true);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
