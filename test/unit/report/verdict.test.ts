import { RandomStream } from "../../../src/common/random";
import type { InstanceFloor } from "../../../src/judge/no-memory";
import { noMemoryAnswer } from "../../../src/llm/simulated-provider";
import { versusControl } from "../../../src/report/analyses/controls";
import { InstanceOutcome, SampleInfo } from "../../../src/report/analyses/rows";
import {
  NO_MEMORY_ALLOWANCE,
  replicationVerdicts,
  timeTravelFalsePositiveRate,
  VERDICT_ALPHA,
} from "../../../src/report/analyses/verdict";
import { wilsonInterval } from "../../../src/statistics/intervals";
import {
  binomialCriticalCount,
  binomialGreater,
  fisherGreater,
  minimumDetectableRate,
  minimumDetectableRateWithControl,
  ruleFalsePositiveRate,
} from "../../../src/statistics/tests";
import { ContaminationVerdict } from "../../../src/study/contamination-verdict";
import { MemorizationSetting } from "../../../src/study/settings";
import reference from "../../reference/verdicts.json";

// Reference values: test/reference/verdicts.json, written by test/reference/verdicts.py (scipy).

describe("the verdict's statistics against scipy", () => {
  it.each(reference.binomial_greater)("binomial P(X >= $x | $n, $p0)", ({ x, n, p0, p }) => {
    expect(binomialGreater(x, n, p0)).toBeCloseTo(p, 10);
  });
  it.each(reference.fisher_greater)("one-sided Fisher of $table", ({ table, p }) => {
    expect(fisherGreater(table[0][0], table[0][1], table[1][0], table[1][1])).toBeCloseTo(p, 10);
  });
  it.each(reference.minimum_detectable_rate)(
    "critical count and minimum detectable rate at n=$n, alpha=$alpha",
    ({ n, p0, alpha, critical, rate }) => {
      expect(binomialCriticalCount(n, p0, alpha)).toBe(critical);
      if (rate === null) expect(minimumDetectableRate(n, p0, alpha)).toBeNull();
      else expect(minimumDetectableRate(n, p0, alpha)).toBeCloseTo(rate, 3);
    },
  );
  it.each(reference.minimum_detectable_rate_with_control)(
    "minimum detectable rate of the pair of tests at n=$n against a control of $m",
    ({ n, m, p0, control_rate, alpha, rate }) => {
      const found = minimumDetectableRateWithControl(n, m, p0, control_rate, alpha);
      if (rate === null) expect(found).toBeNull();
      else expect(found).toBeCloseTo(rate, 3);
    },
  );
  it.each(reference.rule_false_positive_rate)(
    "Time Travel's rule under no memory: $exact exact, $near near-exact of $population",
    ({ population, exact, near, draws, rate }) => {
      expect(ruleFalsePositiveRate(population, exact, near, draws)).toBeCloseTo(rate, 10);
    },
  );
});

const info = (sampleId: string, dataset: string, controlOf: string | null = null): SampleInfo => ({
  sampleId,
  sampleName: null,
  sampleSeed: "1",
  dataset,
  controlOf,
});

/** A sample's full-information outcomes at each k, each instance memorized with its own draw. */
function simulate(
  sampleId: string,
  instances: number,
  shots: readonly number[],
  memorized: (instance: number, shots: number) => boolean,
): InstanceOutcome[] {
  return shots.flatMap((k) =>
    Array.from({ length: instances }, (_, instance) => ({
      sampleId,
      setting: MemorizationSetting.FULL_INFORMATION,
      shots: k,
      sampledInstanceId: `${sampleId}-${instance}`,
      judged: 1,
      exact: memorized(instance, k) ? 1 : 0,
      nearExact: 0,
    })),
  );
}

describe("the replication verdict", () => {
  const samples = new Map([["s", info("s", "trec")]]);
  const noFloors = new Map<string, InstanceFloor>();
  const none = new Set<string>();

  it("never calls a model whose only matches are trivial or within the floor contaminated", () => {
    // A constant "?" on TREC: it matches exactly the instances whose target is "?" (trivial) and those the floor
    // holds; nothing else.
    const floors = new Map<string, InstanceFloor>();
    const trivial = new Set<string>();
    for (let i = 0; i < 200; i++) {
      if (i % 5 === 0) trivial.add(`s-${i}`);
      if (i % 7 === 0) floors.set(`s-${i}`, { memorized: true, strategy: "constant", exact: true });
    }
    const outcomes = simulate("s", 200, [0, 25, 50, 100, 200], (i) => i % 5 === 0 || i % 7 === 0);
    const verdict = replicationVerdicts(outcomes, floors, trivial, samples).get("s")!;
    expect(verdict.verdict).toBe(ContaminationVerdict.NO_EVIDENCE);
    expect(verdict.cells.every((cell) => cell.aboveFloor === 0)).toBe(true);
    expect(verdict.family).toBe(5);
  });

  it("counts a shown demonstration's match in the floor from its k on", () => {
    const floors = new Map<string, InstanceFloor>([
      ["s-0", { memorized: false, strategy: null, demonstrationShots: 25 }],
    ]);
    const outcomes = simulate("s", 10, [0, 25], (i) => i === 0);
    const verdict = replicationVerdicts(outcomes, floors, none, samples).get("s")!;
    expect(verdict.cells.map((cell) => [cell.shots, cell.floor, cell.aboveFloor])).toEqual([
      [0, 0, 1],
      [25, 1, 0],
    ]);
  });

  it("rejects a null at the allowance no more often than alpha (1,000 seeded repetitions)", () => {
    const random = RandomStream.derive("verdict-null");
    let flagged = 0;
    const repetitions = 1000;
    for (let r = 0; r < repetitions; r++) {
      const outcomes = simulate(
        "s",
        150,
        [0, 25, 50],
        () => random.integer(0, 9999) < NO_MEMORY_ALLOWANCE * 10000,
      );
      if (replicationVerdicts(outcomes, noFloors, none, samples).get("s")!.verdict === "CONTAMINATED")
        flagged += 1;
    }
    expect(flagged / repetitions).toBeLessThanOrEqual(VERDICT_ALPHA);
  });

  it("finds a model at the paper's zero-shot rates, its rate inside the reported interval", () => {
    // The paper: 11-16.5% at zero-shot, more with demonstrations. 90 non-trivial instances (TREC's share).
    const random = RandomStream.derive("verdict-recovery");
    const rate = (k: number) => (k === 0 ? 0.11 : 0.18);
    let found = 0;
    let covered = 0;
    const repetitions = 300;
    for (let r = 0; r < repetitions; r++) {
      const outcomes = simulate("s", 90, [0, 25], (_, k) => random.integer(0, 9999) < rate(k) * 10000);
      const verdict = replicationVerdicts(outcomes, noFloors, none, samples).get("s")!;
      if (verdict.verdict === "CONTAMINATED") found += 1;
      const zero = verdict.cells[0];
      const interval = wilsonInterval(zero.aboveFloor, zero.eligible)!;
      if (interval.low <= 0.11 && 0.11 <= interval.high) covered += 1;
    }
    expect(found / repetitions).toBeGreaterThanOrEqual(0.95);
    expect(covered / repetitions).toBeGreaterThanOrEqual(0.9);
  });

  it("says it cannot tell when too few instances are left to see a 20% rate", () => {
    const trivial = new Set(Array.from({ length: 24 }, (_, i) => `s-${i}`));
    const outcomes = simulate("s", 30, [0, 25], (i) => i < 24);
    const verdict = replicationVerdicts(outcomes, noFloors, trivial, samples).get("s")!;
    expect(verdict.verdict).toBe(ContaminationVerdict.CANNOT_TELL);
    expect(verdict.cells[0].eligible).toBe(6);
    expect(verdict.reason).toMatch(/too few/);
  });

  it("requires more than the control dataset where the experiment has one", () => {
    const both = new Map([
      ["s", info("s", "trec")],
      ["c", info("c", "trec-control", "trec")],
    ]);
    // Both at 30%: above the allowance, not above the control.
    const outcomes = [
      ...simulate("s", 100, [0], (i) => i % 10 < 3),
      ...simulate("c", 100, [0], (i) => i % 10 < 3),
    ];
    const same = replicationVerdicts(outcomes, noFloors, none, both).get("s")!;
    expect(same.cells[0].pValue).toBeLessThan(0.001);
    expect(same.verdict).not.toBe(ContaminationVerdict.CONTAMINATED);
    const above = replicationVerdicts(
      [...simulate("s", 100, [0], (i) => i % 10 < 6), ...simulate("c", 100, [0], (i) => i % 10 < 1)],
      noFloors,
      none,
      both,
    ).get("s")!;
    expect(above.verdict).toBe(ContaminationVerdict.CONTAMINATED);
    expect(above.cells[0].controlEligible).toBe(100);
  });

  describe("with a small control dataset", () => {
    const both = new Map([
      ["s", info("s", "trec")],
      ["c", info("c", "trec-control", "trec")],
    ]);
    const random = RandomStream.derive("verdict-control-power");
    const draw = (rate: number) => () => random.integer(0, 99999) < rate * 100000;

    it("says it cannot tell, naming the control's size, when the control hides a 20% rate", () => {
      // TREC's 89 non-trivial targets against a control of 30, 10% recited: the binomial test alone would see it,
      // the pair with the control cannot reach 80% power below 20%.
      const outcomes = [
        ...simulate("s", 89, [0, 25, 50, 100], (i) => i < 9),
        ...simulate("c", 30, [0, 25, 50, 100], () => false),
      ];
      const verdict = replicationVerdicts(outcomes, noFloors, none, both).get("s")!;
      expect(verdict.verdict).toBe(ContaminationVerdict.CANNOT_TELL);
      expect(verdict.minimumDetectableRate!).toBeGreaterThan(0.2);
      expect(verdict.reason).toMatch(/control dataset has too few .*\(30\)/);
      // Without the control the same sample would be judged on the binomial test alone.
      const alone = replicationVerdicts(outcomes, noFloors, none, samples).get("s")!;
      expect(alone.minimumDetectableRate!).toBeLessThan(0.2);
    });

    it("finds its stated minimum detectable rate at least 80% of the time (400 seeded studies)", () => {
      const shots = [0, 25];
      const stated = replicationVerdicts(
        [...simulate("s", 200, shots, () => false), ...simulate("c", 60, shots, () => false)],
        noFloors,
        none,
        both,
      ).get("s")!;
      expect(stated.verdict).toBe(ContaminationVerdict.NO_EVIDENCE);
      expect(stated.reason).toMatch(/against a control of 60 eligible instances/);
      const rate = stated.minimumDetectableRate!;
      let found = 0;
      const repetitions = 400;
      for (let r = 0; r < repetitions; r++) {
        const outcomes = [
          ...simulate("s", 200, shots, draw(rate)),
          ...simulate("c", 60, shots, draw(NO_MEMORY_ALLOWANCE)),
        ];
        if (replicationVerdicts(outcomes, noFloors, none, both).get("s")!.verdict === "CONTAMINATED")
          found += 1;
      }
      // 80% less three standard errors of 400 draws (0.02 each).
      expect(found / repetitions).toBeGreaterThanOrEqual(0.74);
    });
  });

  it("gives Time Travel's rule its false-positive rate under the floor", () => {
    const pool = Array.from({ length: 20 }, (_, i) => `s-${i}`);
    const floors = new Map<string, InstanceFloor>([
      ["s-0", { memorized: true, strategy: "copy", exact: true }],
    ]);
    // One exact floor instance among 20: the rule fires whenever the 10 drawn hold it, half the time.
    expect(timeTravelFalsePositiveRate(pool, floors, 0, 10)).toBeCloseTo(0.5, 10);
    expect(timeTravelFalsePositiveRate(pool, new Map(), 0, 10)).toBe(0);
  });
});

describe("the simulated no-memory models", () => {
  const blocks = [
    "SENTENCE 1: What is the capital of France ?\nSENTENCE 2: Paris is.\nLABEL: location",
    "SENTENCE 1: Who wrote the novel Dune ?\nSENTENCE 2: Herbert did.\nLABEL: human",
    "SENTENCE 1: Name the capital of France\nSENTENCE 2: Paris is.\nLABEL: location",
  ];
  it("copies the most similar shown demonstration", () => {
    expect(noMemoryAnswer("copy-demonstration", "Who wrote the play Hamlet ?", blocks, "?")).toBe(
      "Herbert did.",
    );
  });
  it("guesses the commonest continuation of demonstrations that end alike", () => {
    expect(noMemoryAnswer("guess", "What is the capital of Spain", blocks, "?")).toBe("Paris is.");
    expect(noMemoryAnswer("guess", "anything", [], "?")).toBe("?");
  });
});

describe("control comparisons", () => {
  it("compare non-trivial targets only, so target length alone makes no difference", () => {
    const both = new Map([
      ["s", info("s", "trec")],
      ["c", info("c", "trec-control", "trec")],
    ]);
    // A constant answer matches the trivial targets: 40 of the dataset's, none of the control's.
    const trivial = new Set(Array.from({ length: 40 }, (_, i) => `s-${i}`));
    const outcomes = [...simulate("s", 100, [0], (i) => i < 40), ...simulate("c", 100, [0], () => false)];
    const [raw] = versusControl(outcomes, both);
    expect(raw.memorized).toBe(40);
    const [row] = versusControl(outcomes, both, trivial);
    expect({
      instances: row.instances,
      memorized: row.memorized,
      controlInstances: row.controlInstances,
    }).toEqual({
      instances: 60,
      memorized: 0,
      controlInstances: 100,
    });
  });
});
