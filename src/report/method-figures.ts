// The figures docs/METHOD.md states, generated from the code: the versions new runs record, the thresholds the
// verdicts use, the prompts' instructions word for word, and the verdict's power by sample size and rate.
// test/unit/methods/method-card.test.ts holds METHOD.md's generated block equal to this (and rewrites it on request).

import { EXTRACTION_RULE } from "../judge/answer-extraction";
import { DEFAULT_THRESHOLDS, HEURISTIC_JUDGE_VERSION } from "../judge/heuristic-judge";
import { NO_MEMORY_FLOOR_VERSION } from "../judge/no-memory";
import { TIME_TRAVEL_JUDGE_VERSION } from "../judge/time-travel-judge";
import { MIN_K_SHARE } from "../logprob/scores";
import { DEFAULT_TEMPLATES, GUIDED_TEMPLATES, templateKey } from "../prompt/template-body";
import { SAMPLE_ALGORITHM_VERSION } from "../sample/design/design-sample";
import { BOOTSTRAP_RESAMPLES, GUIDED_GENERAL_RESAMPLES } from "../statistics/bootstrap";
import { detectionPower, minimumDetectableRate, minimumDetectableRateWithControl } from "../statistics/tests";
import { MemorizationSetting, RunKind } from "../study/settings";
import { TRIVIAL_TARGET_WORDS } from "../study/targets";
import { TaskKind } from "../study/task";
import { CONTAMINATION_SUBSET_SIZE } from "./analyses/contamination";
import { GUIDED_GENERAL_ALPHA } from "./analyses/guided-general";
import { LOGPROB_ALPHA, LOGPROB_MIN_INSTANCES } from "./analyses/logprob";
import { NO_MEMORY_ALLOWANCE, RATE_OF_INTEREST, VERDICT_ALPHA, VERDICT_POWER } from "./analyses/verdict";
import { markdownTable } from "./tables/table";

/** The markers around the generated block in docs/METHOD.md. */
export const METHOD_FIGURES_BEGIN =
  "<!-- method-figures: generated from the code (src/report/method-figures.ts); " +
  "MEMICL_WRITE_METHOD_CARD=1 npx jest test/unit/methods/method-card.test.ts rewrites it -->";
export const METHOD_FIGURES_END = "<!-- /method-figures -->";

/** Eligible instances (non-trivial, outside the floor) per k, the power table's rows. */
export const POWER_SIZES = [30, 60, 90, 150, 200, 400] as const;
/** True recitation rates among them, the power table's columns. */
export const POWER_RATES = [0.025, 0.05, 0.1, 0.15, 0.2] as const;
/** The study's grid has five k values (0, 25, 50, 100, 200): the verdict's Bonferroni family. */
const STUDY_FAMILY = 5;

const pct = (value: number | null) => (value === null ? "none" : `${(value * 100).toFixed(1)}%`);

/** The generated block, markers included. */
export function methodFigures(): string {
  return [METHOD_FIGURES_BEGIN, "", ...sections(), METHOD_FIGURES_END].join("\n");
}

function sections(): string[] {
  const instruction = (
    templates: typeof GUIDED_TEMPLATES,
    kind: RunKind,
    task: TaskKind,
    setting: MemorizationSetting | null,
  ) =>
    `"${(templates[templateKey(kind, task, setting)].instruction ?? "").replace(/^INSTRUCTION:\n/, "").replace(/\n/g, " ")}"`;
  const control = (size: number) => ({ size, rate: NO_MEMORY_ALLOWANCE });
  return [
    "### Versions new runs record",
    "",
    markdownTable(
      ["what", "version"],
      [
        ["the default heuristic judge", `\`${HEURISTIC_JUDGE_VERSION}\``],
        ["Time Travel's own LLM judge (opt-in)", `\`${TIME_TRAVEL_JUDGE_VERSION}\``],
        ["the no-memory floor's rule", `\`${NO_MEMORY_FLOOR_VERSION}\``],
        ["answer extraction", `\`${EXTRACTION_RULE}\``],
        ["memorization templates (the guided instruction)", "version 2"],
        ["performance templates", "version 1"],
        ["sample design (new samples)", `version ${SAMPLE_ALGORITHM_VERSION}`],
      ],
    ),
    "",
    "### Thresholds",
    "",
    markdownTable(
      ["what", "value"],
      [
        ["the verdict's level (alpha), Bonferroni over the k values tested", `${VERDICT_ALPHA}`],
        [
          "the no-memory allowance (eligible share a model without memory may reach)",
          pct(NO_MEMORY_ALLOWANCE),
        ],
        ["the rate a verdict must see with its stated power, else CANNOT_TELL", pct(RATE_OF_INTEREST)],
        ["the power of the stated minimum detectable rate", pct(VERDICT_POWER)],
        ["Time Travel's rule", `1 exact or 2 near-exact among ${CONTAMINATION_SUBSET_SIZE} instances`],
        ["a trivial target", `fewer than ${TRIVIAL_TARGET_WORDS} words (lower-cased, punctuation dropped)`],
        [
          "Algorithm 1's level and resamples",
          `${GUIDED_GENERAL_ALPHA}, ${GUIDED_GENERAL_RESAMPLES.toLocaleString("en")}`,
        ],
        ["bootstrap resamples of an interval", BOOTSTRAP_RESAMPLES.toLocaleString("en")],
        ["LOGPROB: level; fewest instances on either side", `${LOGPROB_ALPHA}; ${LOGPROB_MIN_INSTANCES}`],
        ["LOGPROB: Min-K% and Min-K%++'s k", pct(MIN_K_SHARE)],
        [
          "the heuristic judge's thresholds",
          Object.entries(DEFAULT_THRESHOLDS)
            .map(([name, value]) => `${name} ${value}`)
            .join(", "),
        ],
      ],
    ),
    "",
    "### The instructions, word for word",
    "",
    markdownTable(
      ["prompt", "instruction"],
      [
        [
          "full information, NLI (version 2)",
          instruction(
            GUIDED_TEMPLATES,
            RunKind.MEMORIZATION,
            TaskKind.NLI,
            MemorizationSetting.FULL_INFORMATION,
          ),
        ],
        [
          "full information, classification (version 2)",
          instruction(
            GUIDED_TEMPLATES,
            RunKind.MEMORIZATION,
            TaskKind.CLASSIFICATION,
            MemorizationSetting.FULL_INFORMATION,
          ),
        ],
        [
          "general instruction, NLI (version 2)",
          instruction(
            GUIDED_TEMPLATES,
            RunKind.MEMORIZATION,
            TaskKind.NLI,
            MemorizationSetting.GENERAL_INSTRUCTION,
          ),
        ],
        [
          "general instruction, classification (version 2)",
          instruction(
            GUIDED_TEMPLATES,
            RunKind.MEMORIZATION,
            TaskKind.CLASSIFICATION,
            MemorizationSetting.GENERAL_INSTRUCTION,
          ),
        ],
        [
          "performance, NLI (version 1)",
          instruction(DEFAULT_TEMPLATES, RunKind.PERFORMANCE, TaskKind.NLI, null),
        ],
        [
          "performance, classification (version 1)",
          instruction(DEFAULT_TEMPLATES, RunKind.PERFORMANCE, TaskKind.CLASSIFICATION, null),
        ],
      ],
    ),
    "",
    "The two other memorization settings have no instruction (segment pairs and labels; only segment pairs).",
    "",
    "### The verdict's power",
    "",
    `The chance that the verdict calls a sample CONTAMINATED when a share of its eligible instances (non-trivial, ` +
      `outside the floor) is recited at one k, at alpha ${VERDICT_ALPHA} / ${STUDY_FAMILY} (the study's five k ` +
      `values), exact binomial against the ${pct(NO_MEMORY_ALLOWANCE)} allowance; the minimum detectable rate ` +
      `(${pct(VERDICT_POWER)} power) with one k tested and with five. A sample whose rate of interest ` +
      `(${pct(RATE_OF_INTEREST)}) is out of reach is CANNOT_TELL.`,
    "",
    markdownTable(
      [
        "eligible per k",
        ...POWER_RATES.map((rate) => `power at ${pct(rate)}`),
        "detectable, 1 k",
        `detectable, ${STUDY_FAMILY} k`,
      ],
      POWER_SIZES.map((n) => [
        n,
        ...POWER_RATES.map((rate) =>
          detectionPower(n, rate, NO_MEMORY_ALLOWANCE, VERDICT_ALPHA / STUDY_FAMILY).toFixed(2),
        ),
        pct(minimumDetectableRate(n, NO_MEMORY_ALLOWANCE, VERDICT_ALPHA, VERDICT_POWER)),
        pct(minimumDetectableRate(n, NO_MEMORY_ALLOWANCE, VERDICT_ALPHA / STUDY_FAMILY, VERDICT_POWER)),
      ]),
    ),
    "",
    `With a control dataset the sample must also exceed the control (one-sided Fisher), so the control's size ` +
      `bounds what can be seen; the control taken at the allowance's rate, five k values:`,
    "",
    markdownTable(
      [
        "eligible per k",
        "control's eligible",
        ...POWER_RATES.map((rate) => `power at ${pct(rate)}`),
        "detectable",
      ],
      [90, 200].flatMap((n) =>
        [30, 100, 300].map((m) => [
          n,
          m,
          ...POWER_RATES.map((rate) =>
            detectionPower(n, rate, NO_MEMORY_ALLOWANCE, VERDICT_ALPHA / STUDY_FAMILY, control(m)).toFixed(2),
          ),
          pct(
            minimumDetectableRateWithControl(
              n,
              m,
              NO_MEMORY_ALLOWANCE,
              NO_MEMORY_ALLOWANCE,
              VERDICT_ALPHA / STUDY_FAMILY,
              VERDICT_POWER,
            ),
          ),
        ]),
      ),
    ),
    "",
  ];
}
