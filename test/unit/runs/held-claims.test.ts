import { HeldClaims } from "../../../src/worker/held-claims";

/** A promise the test settles when it likes. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("a worker's beat and its claims", () => {
  it("a beat waits for a claim under way and renews what it claimed", async () => {
    const held = new HeldClaims();
    const statement = gate();
    const claim = held.claiming(async () => {
      await statement.opened;
      held.add("7");
    });
    let renewed: string[] | null = null;
    const beat = held.renewing(async (ids) => {
      renewed = ids;
    });
    await tick();
    expect(renewed).toBeNull();
    statement.open();
    await Promise.all([claim, beat]);
    expect(renewed).toEqual(["7"]);
  });

  it("a claim waits for a beat under way, so the beat cannot pass over what it claims", async () => {
    const held = new HeldClaims();
    const statement = gate();
    const order: string[] = [];
    const beat = held.renewing(async () => {
      order.push("beat sent");
      await statement.opened;
      order.push("beat answered");
    });
    await tick();
    const claim = held.claiming(async () => {
      order.push("claim");
      held.add("8");
    });
    await tick();
    statement.open();
    await Promise.all([beat, claim]);
    expect(order).toEqual(["beat sent", "beat answered", "claim"]);
    expect(held.ids()).toEqual(["8"]);
  });

  it("claims run together, and a failed one leaves the next beat free", async () => {
    const held = new HeldClaims();
    const both = gate();
    let running = 0;
    let most = 0;
    const claim = (fail: boolean) =>
      held.claiming(async () => {
        running += 1;
        most = Math.max(most, running);
        await both.opened;
        running -= 1;
        if (fail) throw new Error("the database went away");
      });
    const claims = [claim(false), claim(true).catch(() => "failed")];
    await tick();
    both.open();
    expect(await Promise.all(claims)).toEqual([undefined, "failed"]);
    expect(most).toBe(2);
    let beaten = false;
    await held.renewing(async () => {
      beaten = true;
    });
    expect(beaten).toBe(true);
  });

  it("a failed beat leaves the next claim free", async () => {
    const held = new HeldClaims();
    await expect(
      held.renewing(async () => {
        throw new Error("heartbeat failed");
      }),
    ).rejects.toThrow("heartbeat failed");
    await held.claiming(async () => held.add("9"));
    expect(held.ids()).toEqual(["9"]);
  });
});
