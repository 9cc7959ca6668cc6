import { registerEnumType } from "type-graphql";
import { ContaminationVerdict } from "../study/contamination-verdict";
import { BreakdownGroup, IntervalMethod, MemorizationMeasure } from "../study/measures";
import { StudyMethod } from "../study/methods";
import { Regime } from "../study/regime";
import { ContinuationPrompt, MemorizationSetting, RunKind } from "../study/settings";
import { TaskKind } from "../study/task";
import { JudgeKind, Verdict } from "../study/verdicts";

/**
 * The study's vocabulary as GraphQL enums, registered once. The enums themselves are plain TypeScript in
 * src/study/, so the pure study logic loads without TypeGraphQL; any module that declares a GraphQL type using
 * them imports this one.
 */
registerEnumType(ContaminationVerdict, {
  name: "ContaminationVerdict",
  description: "A method's decision on one sample, at a stated level (see each evidence's alpha and reason).",
  valuesConfig: {
    CONTAMINATED: { description: "The test rejects a model without memory at its level." },
    NO_EVIDENCE: {
      description: "The test does not reject, and had the power to see the rates the study is about.",
    },
    CANNOT_TELL: {
      description:
        "The test does not reject, but had too few instances to see them (see its minimum detectable rate).",
    },
  },
});
registerEnumType(RunKind, {
  name: "RunKind",
  description:
    "Memorization (replicate the instance), performance (do the task), the Data Contamination Quiz's option " +
    "generation (QUIZ_OPTIONS) and quizzes (QUIZ), prompt scoring (LOGPROB), or sampled continuations of the " +
    "first piece (CONTINUATION, the CDD method's), or a masked word asked for (GUESSING, TS-Guessing's).",
});
registerEnumType(ContinuationPrompt, {
  name: "ContinuationPrompt",
  description: "What a sampling method's prompt shows of an instance.",
  valuesConfig: {
    GUIDED: { description: "The replication's full-information prompt at k = 0 (for chat models)." },
    RAW: {
      description:
        "The first piece alone, no instruction, sent to the completions endpoint (for base models, which do " +
        "not follow instructions); needs a provider that serves it.",
    },
  },
});
registerEnumType(StudyMethod, {
  name: "StudyMethod",
  description: "A method of looking for contamination; an experiment runs the ones it names.",
  valuesConfig: {
    REPLICATION: { description: "The study's memorization settings and performance, judged." },
    GUIDED_GENERAL: {
      description: "Time Travel's Algorithm 1: guided (full information) vs general instruction, by ROUGE-L.",
    },
    QUIZ: {
      description: "The Data Contamination Quiz: generated options, bias detector and compensator quizzes.",
    },
    LOGPROB: {
      description:
        "Membership scores from the prompt log-probabilities of each instance's text (open-weight models).",
    },
    CDD: {
      description:
        "Dong et al.'s CDD: one greedy and N sampled continuations of each first piece; peaked samples mean leaked.",
    },
    NGRAM_COVERAGE: {
      description:
        "Hallinan et al.'s n-gram coverage: N sampled continuations of each first piece against the true one.",
    },
    CODEC: {
      description:
        "Zawalski et al.'s CoDeC: each instance's log-likelihood with another instance in context against " +
        "without; memorized instances gain less from the context (needs prompt log-probabilities).",
    },
    TS_GUESSING: {
      description:
        "Deng et al.'s TS-Guessing: one content word of each instance masked, the model asked for it in one word.",
    },
  },
});
registerEnumType(MemorizationSetting, {
  name: "MemorizationSetting",
  description: "How much the memorization prompt contains.",
  valuesConfig: {
    FULL_INFORMATION: {
      description:
        "Instruction naming dataset and split, demonstrations with labels, the instance with its label.",
    },
    SEGMENT_PAIRS_AND_LABELS: { description: "No instruction; demonstrations with labels." },
    ONLY_SEGMENT_PAIRS: { description: "No instruction and no labels anywhere." },
    GENERAL_INSTRUCTION: {
      description:
        "A control: the general instruction of Time Travel (finish the instance so that its label holds), " +
        "without naming dataset or split; demonstrations and the instance with labels, as full information.",
    },
  },
});
registerEnumType(TaskKind, {
  name: "TaskKind",
  description: "NLI has two texts per instance, CLASSIFICATION one.",
});
registerEnumType(Verdict, { name: "Verdict" });
registerEnumType(JudgeKind, { name: "JudgeKind" });
registerEnumType(MemorizationMeasure, { name: "MemorizationMeasure" });
registerEnumType(BreakdownGroup, { name: "BreakdownGroup" });
registerEnumType(Regime, { name: "Regime", description: "k = 0; k <= 50 (25, 50); k > 50 (100, 200)." });
registerEnumType(IntervalMethod, { name: "IntervalMethod" });
