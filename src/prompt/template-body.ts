import { MemorizationSetting, RunKind } from "../study/settings";
import { TaskKind } from "../study/task";

/**
 * A prompt template. Rendered as: a system message with `instruction` (when there is one), then one user
 * message with the k demonstrations, each rendered from `demonstration`, joined by `separator`, and the
 * instance's slot (`query`) last, so every prompt of a run starts with the same demonstrations block.
 */
export interface TemplateBody {
  instruction: string | null;
  /**
   * Where the instruction goes: a system message (`system`, the default, as in version 1), or the start of the
   * user message, before the demonstrations (`user`, as the guided instruction of the method does).
   */
  instructionPlacement?: "system" | "user";
  demonstration: string;
  separator: string;
  query: string;
}

/** Placeholders each kind of template may use. */
export const PLACEHOLDERS: Record<RunKind, { instruction: string[]; item: string[] }> = {
  [RunKind.MEMORIZATION]: {
    instruction: ["dataset", "split", "labels"],
    item: ["initial", "subsequent", "label"],
  },
  [RunKind.PERFORMANCE]: {
    instruction: ["dataset", "split", "labels"],
    item: ["text", "secondText", "label"],
  },
};

export function templateKey(kind: RunKind, taskKind: TaskKind, setting: MemorizationSetting | null): string {
  return kind === RunKind.MEMORIZATION ? `memorization/${setting}/${taskKind}` : `performance/${taskKind}`;
}

const NLI_WITH_LABELS = {
  demonstration: "Sentence 1: {{initial}}\nLabel: {{label}}\nSentence 2: {{subsequent}}",
  query: "Sentence 1: {{initial}}\nLabel: {{label}}\nSentence 2:",
};
const NLI_PAIRS_ONLY = {
  demonstration: "Sentence 1: {{initial}}\nSentence 2: {{subsequent}}",
  query: "Sentence 1: {{initial}}\nSentence 2:",
};
const TEXT_WITH_LABELS = {
  demonstration: "Label: {{label}}\nFirst piece: {{initial}}\nSecond piece: {{subsequent}}",
  query: "Label: {{label}}\nFirst piece: {{initial}}\nSecond piece:",
};
const TEXT_PAIRS_ONLY = {
  demonstration: "First piece: {{initial}}\nSecond piece: {{subsequent}}",
  query: "First piece: {{initial}}\nSecond piece:",
};
const SEPARATOR = "\n\n";

/**
 * Version 1 of every template. The full-information instructions follow the "guided instruction" of
 * Golchin & Surdeanu (dataset and split named, exact continuation asked for); the other two settings
 * drop the instruction, and the last drops the labels too.
 */
export const DEFAULT_TEMPLATES: Record<string, TemplateBody> = {
  [templateKey(RunKind.MEMORIZATION, TaskKind.NLI, MemorizationSetting.FULL_INFORMATION)]: {
    instruction:
      "You are provided with Sentence 1 from the {{split}} split of the {{dataset}} dataset, and its label. " +
      "Finish Sentence 2 as it appeared in the dataset. Sentence 2 must exactly match the instance in the dataset. " +
      "Answer with Sentence 2 only.",
    ...NLI_WITH_LABELS,
    separator: SEPARATOR,
  },
  [templateKey(RunKind.MEMORIZATION, TaskKind.NLI, MemorizationSetting.SEGMENT_PAIRS_AND_LABELS)]: {
    instruction: null,
    ...NLI_WITH_LABELS,
    separator: SEPARATOR,
  },
  [templateKey(RunKind.MEMORIZATION, TaskKind.NLI, MemorizationSetting.ONLY_SEGMENT_PAIRS)]: {
    instruction: null,
    ...NLI_PAIRS_ONLY,
    separator: SEPARATOR,
  },
  [templateKey(RunKind.MEMORIZATION, TaskKind.CLASSIFICATION, MemorizationSetting.FULL_INFORMATION)]: {
    instruction:
      "You are provided with the first piece of an instance from the {{split}} split of the {{dataset}} dataset, and its label. " +
      "Finish the second piece of the instance as it appeared in the dataset. " +
      "Only rely on the original form of the instance in the dataset to finish the second piece. " +
      "Answer with the second piece only.",
    ...TEXT_WITH_LABELS,
    separator: SEPARATOR,
  },
  [templateKey(RunKind.MEMORIZATION, TaskKind.CLASSIFICATION, MemorizationSetting.SEGMENT_PAIRS_AND_LABELS)]:
    {
      instruction: null,
      ...TEXT_WITH_LABELS,
      separator: SEPARATOR,
    },
  [templateKey(RunKind.MEMORIZATION, TaskKind.CLASSIFICATION, MemorizationSetting.ONLY_SEGMENT_PAIRS)]: {
    instruction: null,
    ...TEXT_PAIRS_ONLY,
    separator: SEPARATOR,
  },
  [templateKey(RunKind.MEMORIZATION, TaskKind.NLI, MemorizationSetting.GENERAL_INSTRUCTION)]: {
    instruction:
      "Finish Sentence 2 based on Sentence 1, such that the following label shows the logical relationship " +
      "between Sentence 1 and Sentence 2. Answer with Sentence 2 only.",
    ...NLI_WITH_LABELS,
    separator: SEPARATOR,
  },
  [templateKey(RunKind.MEMORIZATION, TaskKind.CLASSIFICATION, MemorizationSetting.GENERAL_INSTRUCTION)]: {
    instruction:
      "Finish the second piece based on the first piece, such that these two pieces become a single instance " +
      "with the following label. Answer with the second piece only.",
    ...TEXT_WITH_LABELS,
    separator: SEPARATOR,
  },
  [templateKey(RunKind.PERFORMANCE, TaskKind.NLI, null)]: {
    instruction: "Decide whether Sentence 1 entails Sentence 2. Answer with exactly one label: {{labels}}.",
    demonstration: "Sentence 1: {{text}}\nSentence 2: {{secondText}}\nLabel: {{label}}",
    separator: SEPARATOR,
    query: "Sentence 1: {{text}}\nSentence 2: {{secondText}}\nLabel:",
  },
  [templateKey(RunKind.PERFORMANCE, TaskKind.CLASSIFICATION, null)]: {
    instruction: "Classify the text into one of these labels: {{labels}}. Answer with the label only.",
    demonstration: "Text: {{text}}\nLabel: {{label}}",
    separator: SEPARATOR,
    query: "Text: {{text}}\nLabel:",
  },
};

const NLI_FIELDS_WITH_LABELS = {
  demonstration: "SENTENCE 1: {{initial}}\nLABEL: {{label}}\nSENTENCE 2: {{subsequent}}",
  query: "SENTENCE 1: {{initial}}\nLABEL: {{label}}\nSENTENCE 2:",
};
const NLI_FIELDS = {
  demonstration: "SENTENCE 1: {{initial}}\nSENTENCE 2: {{subsequent}}",
  query: "SENTENCE 1: {{initial}}\nSENTENCE 2:",
};
const TEXT_FIELDS_WITH_LABELS = {
  demonstration: "LABEL: {{label}}\nFIRST PIECE: {{initial}}\nSECOND PIECE: {{subsequent}}",
  query: "LABEL: {{label}}\nFIRST PIECE: {{initial}}\nSECOND PIECE:",
};
const TEXT_FIELDS = {
  demonstration: "FIRST PIECE: {{initial}}\nSECOND PIECE: {{subsequent}}",
  query: "FIRST PIECE: {{initial}}\nSECOND PIECE:",
};

/**
 * Version 2 of the memorization templates: the guided instruction of Golchin & Surdeanu ("Time Travel in
 * LLMs") as the study used it, in the user message under an `INSTRUCTION:` header, with its emphasis (EXACTLY,
 * ONLY) kept. The three settings differ only in what the paper says: setting 2 drops the instruction, setting 3
 * the labels too. No setting gets an output-format cue ("Answer with ... only") the others lack. The general
 * instruction (the control) is Time Travel's own (`general_instructions.py`), word for word, in the same place
 * and with the same fields as full information: only the naming of dataset and split differs.
 */
export const GUIDED_TEMPLATES: Record<string, TemplateBody> = {
  [templateKey(RunKind.MEMORIZATION, TaskKind.NLI, MemorizationSetting.FULL_INFORMATION)]: {
    instruction:
      "INSTRUCTION:\nYou are provided with SENTENCE 1 from the {{split}} split of the {{dataset}} dataset, and its LABEL. " +
      "Finish SENTENCE 2 as appeared in the dataset. SENTENCE 2 MUST EXACTLY match the instance in the dataset.",
    instructionPlacement: "user",
    ...NLI_FIELDS_WITH_LABELS,
    separator: SEPARATOR,
  },
  [templateKey(RunKind.MEMORIZATION, TaskKind.NLI, MemorizationSetting.SEGMENT_PAIRS_AND_LABELS)]: {
    instruction: null,
    ...NLI_FIELDS_WITH_LABELS,
    separator: SEPARATOR,
  },
  [templateKey(RunKind.MEMORIZATION, TaskKind.NLI, MemorizationSetting.ONLY_SEGMENT_PAIRS)]: {
    instruction: null,
    ...NLI_FIELDS,
    separator: SEPARATOR,
  },
  [templateKey(RunKind.MEMORIZATION, TaskKind.CLASSIFICATION, MemorizationSetting.FULL_INFORMATION)]: {
    instruction:
      "INSTRUCTION:\nYou are provided with the FIRST PIECE of an instance from the {{split}} split of the {{dataset}} dataset, and its LABEL. " +
      "Finish the SECOND PIECE of the instance as EXACTLY appeared in the dataset. " +
      "ONLY rely on the original form of the instance in the dataset to finish the SECOND PIECE.",
    instructionPlacement: "user",
    ...TEXT_FIELDS_WITH_LABELS,
    separator: SEPARATOR,
  },
  [templateKey(RunKind.MEMORIZATION, TaskKind.CLASSIFICATION, MemorizationSetting.SEGMENT_PAIRS_AND_LABELS)]:
    {
      instruction: null,
      ...TEXT_FIELDS_WITH_LABELS,
      separator: SEPARATOR,
    },
  [templateKey(RunKind.MEMORIZATION, TaskKind.CLASSIFICATION, MemorizationSetting.ONLY_SEGMENT_PAIRS)]: {
    instruction: null,
    ...TEXT_FIELDS,
    separator: SEPARATOR,
  },
  [templateKey(RunKind.MEMORIZATION, TaskKind.NLI, MemorizationSetting.GENERAL_INSTRUCTION)]: {
    instruction:
      "INSTRUCTION:\nFinish SENTENCE 2 based on SENTENCE 1, such that the following LABEL shows the logical " +
      "relationship between SENTENCE 1 and SENTENCE 2.",
    instructionPlacement: "user",
    ...NLI_FIELDS_WITH_LABELS,
    separator: SEPARATOR,
  },
  [templateKey(RunKind.MEMORIZATION, TaskKind.CLASSIFICATION, MemorizationSetting.GENERAL_INSTRUCTION)]: {
    instruction:
      "INSTRUCTION:\nFinish the SECOND PIECE based on the FIRST PIECE, such that these two pieces become a " +
      "single instance with the following LABEL.",
    instructionPlacement: "user",
    ...TEXT_FIELDS_WITH_LABELS,
    separator: SEPARATOR,
  },
};

/** The built-in versions of each key, in order: version 1 for every key, version 2 for the memorization ones. */
export const BUILT_IN_VERSIONS: { key: string; version: number; body: TemplateBody; note: string }[] = [
  ...Object.entries(DEFAULT_TEMPLATES).map(([key, body]) => ({
    key,
    version: 1,
    body,
    note: "built-in default",
  })),
  ...Object.entries(GUIDED_TEMPLATES).map(([key, body]) => ({
    key,
    version: 2,
    body,
    note: "built-in: the guided instruction in the user message, the same fields in every setting",
  })),
];

export function kindOfTemplateKey(key: string): RunKind | null {
  if (key.startsWith("memorization/")) return RunKind.MEMORIZATION;
  if (key.startsWith("performance/")) return RunKind.PERFORMANCE;
  return null;
}

/** Problems with a template body (unknown placeholders, missing parts); empty when it is usable. */
export function checkTemplateBody(key: string, body: TemplateBody): string[] {
  const kind = kindOfTemplateKey(key);
  if (!kind || !(key in DEFAULT_TEMPLATES)) return [`unknown template key "${key}"`];
  const allowed = PLACEHOLDERS[kind];
  const problems: string[] = [];
  const check = (part: string, text: string | null, names: string[]) => {
    for (const match of (text ?? "").matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)) {
      if (!names.includes(match[1]))
        problems.push(`${part}: unknown placeholder {{${match[1]}}} (allowed: ${names.join(", ")})`);
    }
  };
  check("instruction", body.instruction, allowed.instruction);
  check("demonstration", body.demonstration, allowed.item);
  check("query", body.query, allowed.item);
  if (!body.query.trim()) problems.push("query: must not be empty");
  if (!body.demonstration.trim()) problems.push("demonstration: must not be empty");
  const needed = kind === RunKind.MEMORIZATION ? "initial" : "text";
  if (!body.query.includes(`{{${needed}}}`)) problems.push(`query: must contain {{${needed}}}`);
  if (body.instructionPlacement !== undefined && !["system", "user"].includes(body.instructionPlacement))
    problems.push('instructionPlacement: "system" or "user"');
  return problems;
}
