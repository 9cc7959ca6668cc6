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
  [RunKind.QUIZ_OPTIONS]: { instruction: ["dataset", "split"], item: ["original"] },
  [RunKind.QUIZ]: { instruction: ["dataset", "split"], item: ["optionA", "optionB", "optionC", "optionD"] },
  [RunKind.LOGPROB]: { instruction: [], item: ["text", "secondText"] },
  [RunKind.CONTINUATION]: { instruction: [], item: ["initial"] },
  [RunKind.GUESSING]: { instruction: ["dataset", "split"], item: ["masked"] },
};

/** What a template of each kind must show of its item. */
const REQUIRED_ITEM_PLACEHOLDERS: Record<RunKind, string[]> = {
  [RunKind.MEMORIZATION]: ["initial"],
  [RunKind.PERFORMANCE]: ["text"],
  [RunKind.QUIZ_OPTIONS]: ["original"],
  [RunKind.QUIZ]: ["optionA", "optionB", "optionC", "optionD"],
  [RunKind.LOGPROB]: ["text"],
  [RunKind.CONTINUATION]: ["initial"],
  [RunKind.GUESSING]: ["masked"],
};

const KEY_PREFIX: Record<RunKind, string> = {
  [RunKind.MEMORIZATION]: "memorization/",
  [RunKind.PERFORMANCE]: "performance/",
  [RunKind.QUIZ_OPTIONS]: "quiz-options/",
  [RunKind.QUIZ]: "quiz/",
  [RunKind.LOGPROB]: "logprob/",
  [RunKind.CONTINUATION]: "continuation/",
  [RunKind.GUESSING]: "guessing/",
};

/**
 * A run's template key. A continuation run with a setting (CDD's guided prompt) uses that memorization setting's
 * template, so its prompt is the replication's own; without one, the raw first piece (`continuation/...`).
 */
export function templateKey(kind: RunKind, taskKind: TaskKind, setting: MemorizationSetting | null): string {
  return kind === RunKind.MEMORIZATION || (kind === RunKind.CONTINUATION && setting)
    ? `memorization/${setting}/${taskKind}`
    : `${KEY_PREFIX[kind]}${taskKind}`;
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

/**
 * The Data Contamination Quiz's prompts (Golchin & Surdeanu, DCQ: `option_generation.py`, `quiz_question.py`),
 * word for word, each in one user message: the instruction, then the instance's part after a single newline.
 */
const OPTION_GENERATION: TemplateBody = {
  instruction:
    "Your task is to create a four-choice quiz by replacing the words in the provided INPUT TEXT with their contextually relevant synonyms.\n" +
    "The meaning and sentence structure of the four options MUST EXACTLY match every detail in the INPUT TEXT.\n" +
    "You MUST NOT include the provided INPUT TEXT as an option.\n\n" +
    "You MUST make sure that:\n" +
    "(1) You generate DISTINCT options based on the provided INPUT TEXT;\n" +
    "(2) The ONLY difference between options is WORD-LEVEL PERTURBATIONS.\n" +
    "(3) Options are ORDERED;\n" +
    "(4) There is NOT any extra explanation;\n" +
    "(5) You follow the following FORMAT to generate options;\n" +
    "(6) You comply with every specific symbol and letter detail in the given INPUT TEXT; and\n" +
    "(7) All options retain the EXACT LABEL from the INPUT TEXT, if there is one.",
  instructionPlacement: "user",
  demonstration: "",
  separator: "\n",
  query:
    "---\nINPUT TEXT:\n{{original}}\n---\nFORMAT:\n\n" +
    "A)\nFirst word-level perturbation goes here\n\nB)\nSecond word-level perturbation goes here\n\n" +
    "C)\nThird word-level perturbation goes here\n\nD)\nFourth word-level perturbation goes here\n---\n",
};

const QUIZ_QUESTION: TemplateBody = {
  instruction:
    "You are provided with a five-choice quiz. Your task is to CORRECTLY select the option that EXACTLY corresponds to an instance from the {{split}} split of the {{dataset}} dataset.\n\n" +
    "When selecting the option, you MUST ensure that you follow the following rules:\n" +
    "(1) You MUST ensure that you ONLY generate a single option letter as your answer.\n" +
    '(2) If you do not know the dataset or the correct answer, you MUST select option "E) None of the provided options."\n\n' +
    "Hint: While all the following options seem similar in terms of meaning, there is ONLY one option that reflects the EXACT WORDING with respect to the original instance.",
  instructionPlacement: "user",
  demonstration: "",
  separator: "\n",
  query:
    "---\nA)\n{{optionA}}\n\nB)\n{{optionB}}\n\nC)\n{{optionC}}\n\nD)\n{{optionD}}\n\n" +
    "E)\nNone of the provided options.\n---\nANSWER:\n",
};

for (const taskKind of Object.values(TaskKind)) {
  DEFAULT_TEMPLATES[templateKey(RunKind.QUIZ_OPTIONS, taskKind, null)] = OPTION_GENERATION;
  DEFAULT_TEMPLATES[templateKey(RunKind.QUIZ, taskKind, null)] = QUIZ_QUESTION;
  // The LOGPROB method scores the instance's text as the dataset holds it: no instruction, no demonstrations;
  // an NLI pair's two sentences on two lines.
  DEFAULT_TEMPLATES[templateKey(RunKind.LOGPROB, taskKind, null)] = {
    instruction: null,
    demonstration: "",
    separator: "",
    query: taskKind === TaskKind.NLI ? "{{text}}\n{{secondText}}" : "{{text}}",
  };
  // CDD's raw prefix: the instance's first piece alone, no instruction, for base models that continue text.
  DEFAULT_TEMPLATES[templateKey(RunKind.CONTINUATION, taskKind, null)] = {
    instruction: null,
    demonstration: "",
    separator: "",
    query: "{{initial}}",
  };
  // TS-Guessing (Deng et al. 2024): the instance with one word masked, asked for in one word.
  DEFAULT_TEMPLATES[templateKey(RunKind.GUESSING, taskKind, null)] = {
    instruction:
      "I will give you a text with one word replaced by [MASK]. Fill in the [MASK] with the exact word it replaced. " +
      "Reply with that one word only.",
    instructionPlacement: "user",
    demonstration: "",
    separator: "\n\n",
    query: "{{masked}}\nAnswer:",
  };
}

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
  const kind = (Object.keys(KEY_PREFIX) as RunKind[]).find((candidate) =>
    key.startsWith(KEY_PREFIX[candidate]),
  );
  return kind ?? null;
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
  const quiz =
    kind === RunKind.QUIZ ||
    kind === RunKind.QUIZ_OPTIONS ||
    kind === RunKind.LOGPROB ||
    kind === RunKind.CONTINUATION ||
    kind === RunKind.GUESSING;
  // The quiz's prompts and the scored texts have no demonstrations.
  if (!quiz && !body.demonstration.trim()) problems.push("demonstration: must not be empty");
  for (const needed of REQUIRED_ITEM_PLACEHOLDERS[kind])
    if (!body.query.includes(`{{${needed}}}`)) problems.push(`query: must contain {{${needed}}}`);
  if (body.instructionPlacement !== undefined && !["system", "user"].includes(body.instructionPlacement))
    problems.push('instructionPlacement: "system" or "user"');
  return problems;
}
