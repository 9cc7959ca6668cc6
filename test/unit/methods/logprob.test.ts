import fc from "fast-check";
import { deflate } from "pako";
import { RandomStream } from "../../../src/common/random";
import {
  distributionMoments,
  meanOfLowest,
  membershipScores,
  readTokenLogprobs,
  zlibLength,
} from "../../../src/logprob/scores";
import { logprobEvidence } from "../../../src/report/analyses/logprob";
import { aucInterval, mannWhitneyGreater, rocAuc, tprAtFpr } from "../../../src/statistics/membership";
import reference from "../../reference/logprob.json";

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

  it("measures each text's zlib length as a fresh pako.deflate does, whatever came before it on the reused stream", () => {
    // Texts of every kind in any order: short and empty, repetitive (long matches), random over all of Unicode
    // (multi-byte, and long enough that the compressed bytes overflow the 16 KB output buffer several times).
    const text = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 200 }),
      fc.string({ unit: "binary", minLength: 6_000, maxLength: 20_000 }),
      fc
        .tuple(fc.string({ minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 3_000 }))
        .map(([piece, times]) => piece.repeat(times)),
    );
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 6 }), (texts) => {
        for (const t of texts) expect(zlibLength(t)).toBe(deflate(Buffer.from(t, "utf8")).length);
      }),
      // A failure is reported as drawn: shrinking texts this long would take minutes.
      { numRuns: 60, endOnFailure: true },
    );
    expect(zlibLength("")).toBe(8);
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

describe("the LOGPROB method on simulated models (analyses/logprob.ts)", () => {
  // A seeded generator and normal draws, so the repetitions are the same on every run.
  const stream = new RandomStream(12345);
  const uniform = () => (stream.integer(0, 2 ** 30 - 1) + 0.5) / 2 ** 30;
  const normal = () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  const payload = (mean: number, tokens = 30) =>
    JSON.stringify({
      version: 1,
      tokens: tokens + 1,
      logprobs: Array.from({ length: tokens }, () => Math.min(0, mean + normal())),
      means: Array(tokens).fill(-2),
      deviations: Array(tokens).fill(1),
      top: 5,
    });
  const samples = new Map([
    ["s", { sampleId: "s", sampleName: null, sampleSeed: "1", dataset: "seen" }],
    ["c", { sampleId: "c", sampleName: null, sampleSeed: "1", dataset: "fresh", controlOf: "seen" }],
  ]);
  const items = (memberMean: number, controlMean: number, n: number) =>
    ["s", "c"].flatMap((sampleId) =>
      Array.from({ length: n }, (_, i) => ({
        runId: `run-${sampleId}`,
        sampleId,
        provider: "p",
        model: "m",
        item: String(i),
        text: `text ${sampleId} ${i} of some words`,
        output: payload(sampleId === "s" ? memberMean : controlMean),
      })),
    );
  const examined = { provider: "p", model: "m" };

  it("flags a model with no memory (the same distributions) no more often than alpha", () => {
    let flagged = 0;
    const repetitions = 400;
    for (let r = 0; r < repetitions; r += 1) {
      const evidence = logprobEvidence(items(-1.5, -1.5, 30), examined, null, [], samples);
      if (evidence.get("s")!.verdict === "CONTAMINATED") flagged += 1;
    }
    // alpha = 0.05; 400 repetitions: the 99.9% upper binomial bound of a 5% rate is under 9%.
    expect(flagged / repetitions).toBeLessThan(0.09);
  });

  it("finds a configured effect, and its AUC falls inside the reported interval", () => {
    // The effect's true Min-K% AUC, from a large draw.
    const large = logprobEvidence(
      items(-1.2, -1.8, 1500),
      examined,
      null,
      [
        { sampleId: "s", member: true },
        { sampleId: "c", member: false },
      ],
      samples,
    );
    const truth = large.get("s")!.calibration.find((row) => row.score === "minK")!.auc!;
    expect(truth).toBeGreaterThan(0.7);
    let found = 0;
    let covered = 0;
    const repetitions = 200;
    for (let r = 0; r < repetitions; r += 1) {
      const evidence = logprobEvidence(
        items(-1.2, -1.8, 40),
        examined,
        null,
        [
          { sampleId: "s", member: true },
          { sampleId: "c", member: false },
        ],
        samples,
      ).get("s")!;
      if (evidence.verdict === "CONTAMINATED") found += 1;
      const row = evidence.calibration.find((c) => c.score === "minK")!;
      if (row.aucLow! <= truth && truth <= row.aucHigh!) covered += 1;
    }
    expect(found / repetitions).toBeGreaterThan(0.8);
    expect(covered / repetitions).toBeGreaterThan(0.9);
  });
});
