import {
  distributionMoments,
  meanOfLowest,
  membershipScores,
  readTokenLogprobs,
} from "../../src/logprob/scores";
import { aucInterval, mannWhitneyGreater, rocAuc, tprAtFpr } from "../../src/statistics/membership";
import reference from "../reference/logprob.json";

// Reference values: test/reference/logprob.json, written by test/reference/logprob.py (numpy, scipy, zlib).

describe("membership statistics against scipy", () => {
  it.each(reference.membership.map((c, i) => [i, c] as const))("case %d", (_, c) => {
    const auc = rocAuc(c.members, c.nonMembers)!;
    expect(auc).toBeCloseTo(c.auc, 12);
    const [low, high] = aucInterval(auc, c.members.length, c.nonMembers.length);
    expect(low).toBeCloseTo(c.interval[0], 10);
    expect(high).toBeCloseTo(c.interval[1], 10);
    expect(tprAtFpr(c.members, c.nonMembers, 0.01)).toBeCloseTo(c.tpr01, 12);
    expect(tprAtFpr(c.members, c.nonMembers, 0.05)).toBeCloseTo(c.tpr05, 12);
    const test = mannWhitneyGreater(c.members, c.nonMembers)!;
    expect(test.u).toBeCloseTo(c.u, 9);
    expect(test.pValue).toBeCloseTo(c.p, 9);
  });

  it("is empty without two samples", () => {
    expect(rocAuc([], [1])).toBeNull();
    expect(tprAtFpr([1], [], 0.05)).toBeNull();
    expect(mannWhitneyGreater([1], [])).toBeNull();
  });
});

describe("the logprob scores against numpy and zlib", () => {
  it.each(reference.texts.map((t) => [t.text, t] as const))("%s", (_, t) => {
    const moments = t.alternatives.map((alternatives) => distributionMoments(alternatives)!);
    moments.forEach((m, i) => {
      expect(m.mean).toBeCloseTo(t.moments[i].mean, 12);
      expect(m.deviation).toBeCloseTo(t.moments[i].deviation, 12);
    });
    const scored = {
      version: 1 as const,
      tokens: t.logprobs.length + 1,
      logprobs: t.logprobs,
      means: moments.map((m) => m.mean),
      deviations: moments.map((m) => m.deviation),
      top: 6,
    };
    const referenceScored = { ...scored, logprobs: t.reference };
    const scores = membershipScores(t.text, scored, referenceScored);
    for (const name of ["loss", "zlib", "minK", "minKPlusPlus", "reference"] as const)
      expect({ name, value: scores[name] }).toEqual({ name, value: expect.closeTo(t.scores[name], 10) });
  });

  it("averages at least one of the lowest values, and reads only its own payload", () => {
    expect(meanOfLowest([-3, -1, -2], 0.2)).toBe(-3);
    expect(meanOfLowest([-5, -4, -3, -2, -1, 0, 0, 0, 0, 0], 0.2)).toBe(-4.5);
    expect(readTokenLogprobs("The model's answer.")).toBeNull();
    expect(
      readTokenLogprobs(
        '{"version":1,"tokens":2,"logprobs":[-1],"means":[null],"deviations":[null],"top":0}',
      ),
    ).toMatchObject({ logprobs: [-1] });
  });
});
