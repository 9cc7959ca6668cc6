import { type DecisionSource, methodAgreement, studyDecisions } from "../../../src/report/analyses/decisions";
import { ContaminationVerdict } from "../../../src/study/contamination-verdict";

const LEVELS = { guidedGeneralAlpha: 0.05 };

function source(overrides: Partial<DecisionSource> = {}): DecisionSource {
  return {
    dataset: "trec",
    split: "test",
    sampleId: "s1",
    sampleName: null,
    sampleSeed: "7",
    timeTravel: null,
    replication: {
      shots: 0,
      instances: 100,
      floorRate: 0.03,
      aboveFloor: 2,
      aboveFloorRate: 0.02,
      aboveFloorCiLow: 0.005,
      aboveFloorCiHigh: 0.07,
      verdict: ContaminationVerdict.NO_EVIDENCE,
      alpha: 0.05,
      allowance: 0.02,
      pValue: 0.6,
      verdictShots: 0,
      minimumDetectableRate: 0.087,
      reason: "no k shows replication",
      tests: [{ shots: 0, eligible: 89, aboveFloor: 2, controlEligible: null }],
    },
    guidedGeneral: null,
    quiz: null,
    logprob: null,
    ...overrides,
  };
}

describe("the report's decisions", () => {
  it("says what no evidence means: a rate it could have missed, not a clean bill", () => {
    const [decision] = studyDecisions([source()], LEVELS);
    expect(decision).toMatchObject({
      method: "replication",
      verdict: ContaminationVerdict.NO_EVIDENCE,
      decision: "No evidence above 8.7%",
      errorRate: 0.05,
      minimumDetectableRate: 0.087,
      floorRate: 0.03,
      rate: 0.02,
      rateLow: 0.005,
      rateHigh: 0.07,
    });
    expect(decision.meaning).toMatch(/not a finding that the data are clean/);
    expect(decision.meaning).toMatch(/lower one can go unseen/);
  });

  it("lists each method run on the sample, in the report's order, with its own error rate", () => {
    const decisions = studyDecisions(
      [
        source({
          timeTravel: {
            shots: 0,
            subsetJudged: 10,
            exact: 0,
            nearExact: 1,
            contaminated: false,
            pool: 89,
            falsePositiveRate: 0.004,
          },
          guidedGeneral: {
            shots: 0,
            instances: 100,
            guidedMean: 0.31,
            generalMean: 0.3,
            pValuePaired: 0.4,
            significant: false,
          },
          quiz: { range: { lower: 0.04, upper: 0.09, kappa: 0.04, instances: 100 } },
        }),
      ],
      LEVELS,
    );
    expect(decisions.map((decision) => [decision.method, decision.decision, decision.errorRate])).toEqual([
      ["replication", "No evidence above 8.7%", 0.05],
      ["time-travel", "Rule not met", 0.004],
      ["guided-general", "Not significant", 0.05],
      ["quiz", "Range [4.0%, 9.0%]", null],
    ]);
    expect(decisions[3].errorRateBasis).toMatch(/range, not a test/);
  });

  it("says why Time Travel's rule and the verdict disagree, either way", () => {
    const contaminated = source({
      replication: {
        ...source().replication!,
        verdict: ContaminationVerdict.CONTAMINATED,
        aboveFloor: 14,
        aboveFloorRate: 0.155,
        tests: [{ shots: 0, eligible: 90, aboveFloor: 14, controlEligible: null }],
      },
      timeTravel: {
        shots: 0,
        subsetJudged: 10,
        exact: 0,
        nearExact: 1,
        contaminated: false,
        pool: 90,
        falsePositiveRate: 0,
      },
    });
    const [verdict, rule] = studyDecisions([contaminated], LEVELS);
    expect(verdict.decision).toBe("Contaminated");
    expect(verdict.meaning).toMatch(/14 of 90 eligible instances at k=0/);
    expect(rule.note).toMatch(/reads only 10 drawn instances; the verdict reads all 90/);

    const met = source({
      timeTravel: { ...contaminated.timeTravel!, contaminated: true, nearExact: 2, falsePositiveRate: 0.12 },
    });
    const [, metRule] = studyDecisions([met], LEVELS);
    expect(metRule.note).toMatch(/without memory reaches 12% of the time here; the verdict tests all 89/);
    expect(metRule.errorRate).toBe(0.12);
    // Agreement: nothing to explain.
    expect(studyDecisions([source({ timeTravel: met.timeTravel })], LEVELS)).toHaveLength(2);
    const agreeing = source({ timeTravel: { ...met.timeTravel!, contaminated: false } });
    expect(studyDecisions([agreeing], LEVELS)[1].note).toBe("");
  });

  it("names what a sample cannot tell and why", () => {
    const [decision] = studyDecisions(
      [
        source({
          replication: {
            ...source().replication!,
            verdict: ContaminationVerdict.CANNOT_TELL,
            minimumDetectableRate: 0.247,
            reason: "the control dataset has too few non-trivial instances outside the floor (30)",
          },
        }),
      ],
      LEVELS,
    );
    expect(decision.decision).toBe("Cannot tell");
    expect(decision.meaning).toMatch(
      /needs a rate of 25% for 80% power\. The control dataset has too few .*\(30\)/,
    );
  });

  it("gives LOGPROB's decision only where it tested against a control", () => {
    const logprob = (verdict: ContaminationVerdict | null, member: boolean | null) =>
      studyDecisions(
        [
          source({
            replication: null,
            logprob: {
              verdict,
              alpha: 0.05,
              member,
              tests: verdict
                ? [
                    {
                      score: "minK",
                      controlDataset: "trec-2025",
                      instances: 80,
                      controlInstances: 40,
                      auc: 0.81,
                      pValue: 0.0001,
                    },
                  ]
                : [],
            },
          }),
        ],
        LEVELS,
      )[0];
    expect(logprob(ContaminationVerdict.CONTAMINATED, null)).toMatchObject({
      decision: "Contaminated",
      errorRate: 0.05,
      rate: 0.81,
    });
    expect(logprob(ContaminationVerdict.CONTAMINATED, null).meaning).toMatch(
      /80 texts against 40 of the control trec-2025/,
    );
    expect(logprob(null, true)).toMatchObject({ decision: "Calibration (labelled member)", errorRate: null });
    expect(logprob(null, null)).toMatchObject({ decision: "Scores only", errorRate: null });
  });

  const cdd = (verdict: ContaminationVerdict | null) => ({
    verdict,
    alpha: 0.05,
    instances: 30,
    notCompared: 2,
    leaked: 27,
    leakShare: 0.9,
    leakShareLow: 0.74,
    leakShareHigh: 0.97,
    xi: 0.01,
    test:
      verdict === null
        ? null
        : {
            controlDataset: "trec-2025",
            instances: 30,
            controlInstances: 30,
            controlLeakShare: 0.2,
            auc: 0.91,
            pValue: 0.0001,
          },
  });

  it("gives CDD's decision only against a control, with the share leaked and what it lost", () => {
    const [, tested] = studyDecisions([source({ cdd: cdd(ContaminationVerdict.CONTAMINATED) })], LEVELS);
    expect(tested).toMatchObject({
      method: "cdd",
      verdict: ContaminationVerdict.CONTAMINATED,
      decision: "Contaminated",
      errorRate: 0.05,
      rate: 0.9,
      rateLow: 0.74,
      rateHigh: 0.97,
    });
    expect(tested.meaning).toMatch(/against 30 of the control trec-2025: AUC 0\.910/);
    expect(tested.note).toMatch(/2 instance\(s\) could not be compared/);
    const [, alone] = studyDecisions([source({ cdd: cdd(null) })], LEVELS);
    expect(alone).toMatchObject({ verdict: null, decision: "Share leaked only", errorRate: null });
    expect(alone.meaning).toMatch(/no decision/);
  });

  it("says which methods agree on each sample", () => {
    const agreeing = methodAgreement(
      studyDecisions([source({ cdd: cdd(ContaminationVerdict.NO_EVIDENCE) })], LEVELS),
    );
    expect(agreeing).toEqual([
      {
        sample: "s1",
        methods: 2,
        sentence: "trec: the methods that decide agree: none found by replication, cdd.",
      },
    ]);
    const split = methodAgreement(
      studyDecisions(
        [
          source({
            cdd: cdd(ContaminationVerdict.CONTAMINATED),
            quiz: { range: { lower: 0.1, upper: 0.2, kappa: 0.1, instances: 40 } },
          }),
        ],
        LEVELS,
      ),
    );
    expect(split[0].sentence).toBe(
      "trec: the methods disagree: contamination found by cdd; none found by replication; no decision from quiz.",
    );
  });
});
