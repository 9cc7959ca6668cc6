import { HEURISTIC_5_THRESHOLDS, judgeHeuristically } from "../../../src/judge/heuristic-judge";
import { SimulationSettings } from "../../../src/llm/provider-config";
import {
  nearlyThe,
  SimulatedProvider,
  SimulatedSetting,
  SimulationKnowledge,
} from "../../../src/llm/simulated-provider";
import { memorizedVsNot } from "../../../src/report/analyses";
import { newcombeDifference, wilsonInterval } from "../../../src/statistics/intervals";
import { ChatMessage } from "../../../src/study/chat";
import { MemorizationSetting } from "../../../src/study/settings";

/**
 * The simulated model is what the study's methods are tested against, so it must have the effects it is configured
 * with and no others: a study of it recovers a configured setting and k effect inside the reported intervals, and
 * a configuration where memorization does not help accuracy gives no significant memorized-vs-not difference more
 * often than alpha allows. Prompts are built here in the default templates' layout; no database.
 */
const INSTANCES = 300;
const LABELS = ["entailment", "not_entailment"];

const initialOf = (i: number) => `Instance ${i} opens with a sentence about the harbour of town ${i * 7 + 3}`;
const continuationOf = (i: number) =>
  `and then goes on to say that the ferry number ${i} leaves twice every morning before nine`;
const labelOf = (i: number) => LABELS[i % 2];
const textOf = (i: number) => `${initialOf(i)} ${continuationOf(i)}`;

const knowledge: SimulationKnowledge = {
  async continuationOf(initialSegment) {
    const i = Number(/^Instance (\d+) /.exec(initialSegment)?.[1]);
    return Number.isInteger(i) ? continuationOf(i) : null;
  },
  async labelOf(text) {
    const i = Number(/^Instance (\d+) /.exec(text)?.[1]);
    return Number.isInteger(i) ? { label: labelOf(i), labels: LABELS, initialSegment: initialOf(i) } : null;
  },
};

function settings(overrides: Partial<SimulationSettings>): SimulationSettings {
  return {
    memorizedAtZeroShot: 0.1,
    memorizedAtManyShots: 0.7,
    halfRiseShots: 25,
    nearExactShare: 0.5,
    accuracyWhenMemorized: 0.9,
    accuracyOtherwise: 0.5,
    settingShift: {
      FULL_INFORMATION: 0,
      SEGMENT_PAIRS_AND_LABELS: 0,
      ONLY_SEGMENT_PAIRS: 0,
      GENERAL_INSTRUCTION: 0,
    },
    behaviour: "recall",
    constantAnswer: "?",
    unseenDatasets: [],
    quizContamination: 0.3,
    quizBias: { A: 0.06, B: 0.04, C: 0.04, D: 0.04, E: 0.82 },
    optionDefectRate: 0,
    memberLogprob: -1.5,
    nonMemberLogprob: -1.5,
    logprobSpread: 1,
    contextGain: 0.3,
    memberContextGain: 0.3,
    contextSpread: 0.5,
    sampleFidelity: 0.9,
    seed: 1,
    latencyMs: 0,
    ...overrides,
  };
}

/** The memorization prompt of instance `i` with `shots` demonstrations (other instances), as templates v1 write it. */
function memorizationPrompt(i: number, shots: number, setting: SimulatedSetting): ChatMessage[] {
  const labelled = setting !== "ONLY_SEGMENT_PAIRS";
  const item = (j: number, last: boolean) =>
    [
      `Sentence 1: ${initialOf(j)}`,
      ...(labelled ? [`Label: ${labelOf(j)}`] : []),
      last ? "Sentence 2:" : `Sentence 2: ${continuationOf(j)}`,
    ].join("\n");
  const demonstrations = Array.from({ length: shots }, (_, d) => item(INSTANCES + d, false));
  const messages: ChatMessage[] = [];
  if (setting === "FULL_INFORMATION")
    messages.push({
      role: "system",
      content: "You are given Sentence 1 from the train split of the RTE dataset. Finish Sentence 2.",
    });
  if (setting === "GENERAL_INSTRUCTION")
    messages.push({
      role: "system",
      content:
        "Finish Sentence 2 based on Sentence 1, such that the following label shows their relationship.",
    });
  messages.push({ role: "user", content: [...demonstrations, item(i, true)].join("\n\n") });
  return messages;
}

function performancePrompt(i: number, shots: number): ChatMessage[] {
  const item = (j: number, last: boolean) => `Text: ${textOf(j)}\nLabel:${last ? "" : ` ${labelOf(j)}`}`;
  const demonstrations = Array.from({ length: shots }, (_, d) => item(INSTANCES + d, false));
  return [
    { role: "system", content: `Classify the text into one of these labels: ${LABELS.join(", ")}.` },
    { role: "user", content: [...demonstrations, item(i, true)].join("\n\n") },
  ];
}

async function ask(provider: SimulatedProvider, messages: ChatMessage[], maxOutputTokens = 100) {
  const result = await provider.complete(
    { model: "m", messages, temperature: 0, maxOutputTokens },
    new AbortController().signal,
  );
  return result.text;
}

/**
 * The judge these tests read the simulated answers with. They test the statistics (a configured effect recovered,
 * the null rejected at alpha), not the judge, and the simulated model's near-exact answers are word-level edits
 * both versions agree on; heuristic-5 is about eight times cheaper on 30,000 answers (docs/JUDGING.md).
 */
const judge = (reference: string, answer: string) =>
  judgeHeuristically(reference, answer, HEURISTIC_5_THRESHOLDS, [], { version: "heuristic-5" }).verdict;

/** Memorized (exact or near-exact) share of the instances in one cell. */
async function memorizedIn(provider: SimulatedProvider, shots: number, setting: SimulatedSetting) {
  let memorized = 0;
  for (let i = 0; i < INSTANCES; i += 1) {
    const answer = await ask(provider, memorizationPrompt(i, shots, setting));
    const verdict = judge(continuationOf(i), answer);
    if (verdict === "EXACT" || verdict === "NEAR_EXACT") memorized += 1;
  }
  return memorized;
}

const SETTINGS: SimulatedSetting[] = [
  "FULL_INFORMATION",
  "SEGMENT_PAIRS_AND_LABELS",
  "ONLY_SEGMENT_PAIRS",
  "GENERAL_INSTRUCTION",
];
const SHOTS = [0, 25, 50];
const SHIFT = {
  FULL_INFORMATION: 0.15,
  SEGMENT_PAIRS_AND_LABELS: 0,
  ONLY_SEGMENT_PAIRS: -0.05,
  GENERAL_INSTRUCTION: -0.1,
};

describe("the simulated model", () => {
  it("counts demonstrations, not the instruction, and tells the four settings apart", async () => {
    const provider = new SimulatedProvider(
      "sim",
      settings({ memorizedAtZeroShot: 0, memorizedAtManyShots: 0 }),
      knowledge,
    );
    // With nothing remembered at k = 0 a shifted setting is the only way to remember: the shift shows at k = 0,
    // so an instruction counted as a demonstration would not change it, and each setting is recognised.
    const shifted = (setting: SimulatedSetting) =>
      new SimulatedProvider(
        "sim",
        settings({
          memorizedAtZeroShot: 0,
          memorizedAtManyShots: 0,
          settingShift: {
            FULL_INFORMATION: 0,
            SEGMENT_PAIRS_AND_LABELS: 0,
            ONLY_SEGMENT_PAIRS: 0,
            GENERAL_INSTRUCTION: 0,
            [setting]: 1,
          },
        }),
        knowledge,
      );
    for (const setting of SETTINGS) {
      expect(await memorizedIn(provider, 0, setting)).toBe(0);
      for (const other of SETTINGS)
        expect(await memorizedIn(shifted(other), 0, setting)).toBe(other === setting ? INSTANCES : 0);
    }
  });

  it("is recovered by a study of it: every cell's rate and each setting effect inside the 95% intervals", async () => {
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    let cells = 0;
    let covered = 0;
    let effects = 0;
    let effectsCovered = 0;
    const mean = new Map<string, number>();
    for (const seed of seeds) {
      const config = settings({ seed, settingShift: SHIFT });
      const provider = new SimulatedProvider("sim", config, knowledge);
      for (const shots of SHOTS) {
        const counts = new Map<SimulatedSetting, number>();
        for (const setting of SETTINGS) {
          const memorized = await memorizedIn(provider, shots, setting);
          counts.set(setting, memorized);
          const expected = SimulatedProvider.rates(config, shots, setting).memorized;
          const interval = wilsonInterval(memorized, INSTANCES)!;
          cells += 1;
          if (interval.low <= expected && expected <= interval.high) covered += 1;
          const key = `${setting}/${shots}`;
          mean.set(key, (mean.get(key) ?? 0) + memorized / INSTANCES / seeds.length);
        }
        // The setting effect: full information against segment pairs and labels, the same instances.
        const difference = newcombeDifference(
          counts.get("FULL_INFORMATION")!,
          INSTANCES,
          counts.get("SEGMENT_PAIRS_AND_LABELS")!,
          INSTANCES,
        )!;
        const expected =
          SimulatedProvider.rates(config, shots, "FULL_INFORMATION").memorized -
          SimulatedProvider.rates(config, shots, "SEGMENT_PAIRS_AND_LABELS").memorized;
        effects += 1;
        if (difference.low <= expected && expected <= difference.high) effectsCovered += 1;
      }
    }
    // 95% intervals cover at about 95%. A seed's nine cells share its instances' draws, so their coverage moves
    // together: 0.85 leaves room for that, not for a bias (one of 0.025 would bring it near 0.8).
    expect(covered / cells).toBeGreaterThanOrEqual(0.85);
    expect(effectsCovered / effects).toBeGreaterThanOrEqual(0.85);
    // And on average over the seeds each cell sits on its configured rate.
    const config = settings({ settingShift: SHIFT });
    for (const setting of SETTINGS)
      for (const shots of SHOTS)
        expect(
          Math.abs(
            mean.get(`${setting}/${shots}`)! - SimulatedProvider.rates(config, shots, setting).memorized,
          ),
        ).toBeLessThan(0.015);
  });

  it("under the null (memorization does not help accuracy) rejects memorized vs not at about alpha", async () => {
    const studies = 200;
    const sample = { sampleId: "s", sampleName: null, sampleSeed: "1", dataset: "sim" };
    let rejected = 0;
    let tested = 0;
    for (let seed = 1; seed <= studies; seed += 1) {
      const provider = new SimulatedProvider(
        "sim",
        settings({
          seed,
          memorizedAtZeroShot: 0.35,
          memorizedAtManyShots: 0.35,
          accuracyWhenMemorized: 0.6,
          accuracyOtherwise: 0.6,
        }),
        knowledge,
      );
      const outcomes = [];
      const performance = [];
      for (let i = 0; i < 150; i += 1) {
        const answer = await ask(provider, memorizationPrompt(i, 0, "FULL_INFORMATION"));
        const verdict = judge(continuationOf(i), answer);
        outcomes.push({
          sampleId: "s",
          setting: MemorizationSetting.FULL_INFORMATION,
          shots: 0,
          sampledInstanceId: String(i),
          judged: 1,
          exact: verdict === "EXACT" ? 1 : 0,
          nearExact: verdict === "NEAR_EXACT" ? 1 : 0,
        });
        // Three repeats, identical at temperature 0: the test must count the instance once.
        const label = (await ask(provider, performancePrompt(i, 0), 10)).trim();
        performance.push({
          sampleId: "s",
          shots: 0,
          sampledInstanceId: String(i),
          n: 3,
          correct: label === labelOf(i) ? 3 : 0,
        });
      }
      const [row] = memorizedVsNot(outcomes, performance, new Map([["s", sample]]));
      if (row?.pValue == null) continue;
      tested += 1;
      if (row.pValue < 0.05) rejected += 1;
    }
    expect(tested).toBe(studies);
    // Binomial(200, 0.05) stays under 0.08 with probability > 0.97; Fisher's test is somewhat conservative.
    expect(rejected / tested).toBeLessThanOrEqual(0.08);
  });
});

describe("the simulated model's samples (CDD)", () => {
  const raw = (i: number, temperature: number) => ({
    model: "m",
    messages: [{ role: "user" as const, content: initialOf(i) }],
    temperature,
    maxOutputTokens: 100,
    raw: true,
  });

  it("keeps a remembered continuation in sampleFidelity of its samples, and varies the rest", async () => {
    const provider = new SimulatedProvider(
      "sim",
      settings({ memorizedAtZeroShot: 1, sampleFidelity: 0.7 }),
      knowledge,
    );
    const signal = new AbortController().signal;
    let kept = 0;
    let samples = 0;
    const others = new Set<string>();
    for (let i = 0; i < 20; i++) {
      expect([continuationOf(i), nearlyThe(continuationOf(i))]).toContain(
        (await provider.complete(raw(i, 0), signal)).text,
      );
      for (let s = 0; s < 20; s++) {
        const text = (await provider.complete(raw(i, 0.8), signal)).text;
        samples++;
        if (text === continuationOf(i) || text === nearlyThe(continuationOf(i))) kept++;
        else others.add(text);
      }
    }
    expect(kept / samples).toBeGreaterThan(0.6);
    expect(kept / samples).toBeLessThan(0.8);
    expect(others.size).toBeGreaterThan(0.8 * (samples - kept));
  });

  it("samples fluent unrelated text anew for an instance it does not remember, and answers greedily the same", async () => {
    const provider = new SimulatedProvider("sim", settings({ memorizedAtZeroShot: 0 }), knowledge);
    const signal = new AbortController().signal;
    const greedy = await Promise.all([0, 1].map(() => provider.complete(raw(3, 0), signal)));
    expect(greedy[0].text).toBe(greedy[1].text);
    const sampled = new Set<string>();
    for (let s = 0; s < 30; s++) sampled.add((await provider.complete(raw(3, 0.8), signal)).text);
    expect(sampled.size).toBeGreaterThan(25);
    expect(sampled.has(continuationOf(3))).toBe(false);
  });
});
