import {
  AnswerLayout,
  answerLayout,
  EXTRACTION_RULE,
  extractAnswer,
} from "../../../src/judge/answer-extraction";
import { DEFAULT_TEMPLATES, GUIDED_TEMPLATES, templateKey } from "../../../src/prompt/template-body";
import { MemorizationSetting, RunKind } from "../../../src/study/settings";
import { TaskKind } from "../../../src/study/task";

const ANSWER = "the cat was too cautious to come out.";
const INITIAL = "The mouse stayed in its hole because";

interface Fields {
  /** The first field (holding the initial segment), the answer field, and the label field when shown. */
  first: string;
  answer: string;
  label: string | null;
  /** Whether the label line comes first in a demonstration (classification) or after the first field (NLI). */
  labelFirst: boolean;
}

/** 34 real-looking outputs for a layout, written with its own field labels, and the answer each should give. */
function cases(f: Fields): [string, string, string][] {
  const demo = (initial: string, answer: string) => {
    const lines = [`${f.first} ${initial}`, `${f.answer} ${answer}`];
    if (f.label) lines.splice(f.labelFirst ? 0 : 1, 0, `${f.label} entailment`);
    return lines.join("\n");
  };
  const query = demo(INITIAL, "").trimEnd();
  const lower = (label: string) => label.toLowerCase();
  const list: [string, string, string][] = [
    ["plain answer", ANSWER, ANSWER],
    ["surrounding whitespace", `\n  ${ANSWER}  \n`, ANSWER],
    ["the answer's label echoed", `${f.answer} ${ANSWER}`, ANSWER],
    ["the answer's label echoed in another case", `${lower(f.answer)} ${ANSWER}`, ANSWER],
    ["the answer's label alone on its line", `${f.answer}\n${ANSWER}`, ANSWER],
    [
      "the pattern continued after a blank line",
      `${ANSWER}\n\n${demo("Another premise.", "another answer.")}`,
      ANSWER,
    ],
    [
      "the pattern continued on the next line",
      `${ANSWER}\n${demo("Another premise.", "another answer.")}`,
      ANSWER,
    ],
    [
      "the pattern continued three times",
      `${ANSWER}\n\n${demo("A.", "b.")}\n\n${demo("C.", "d.")}\n\n${demo("E.", "f.")}`,
      ANSWER,
    ],
    ["the next field on the same line", `${ANSWER} ${f.first} Another premise.`, ANSWER],
    ["the answer field again on the next line", `${ANSWER}\n${f.answer} something else`, ANSWER],
    ["a tab before the next field", `${ANSWER}\n\t${f.first} next`, ANSWER],
    ["double quotes", `"${ANSWER}"`, ANSWER],
    ["curly double quotes", `\u201c${ANSWER}\u201d`, ANSWER],
    ["single quotes", `'${ANSWER}'`, ANSWER],
    ["backticks", `\`${ANSWER}\``, ANSWER],
    ["quotes inside kept", `"the cat" was too "cautious"`, `"the cat" was too "cautious"`],
    [
      "an explanation after a blank line",
      `${ANSWER}\n\nThis sentence comes from the training split.`,
      ANSWER,
    ],
    [
      "an explanation on the same line (kept: no marker)",
      `${ANSWER} (from the training split)`,
      `${ANSWER} (from the training split)`,
    ],
    ["empty", "", ""],
    ["whitespace only", "  \n\t ", ""],
    ["a new demonstration instead of an answer", demo("Something else entirely.", "x."), ""],
    ["the answer's label and nothing else", f.answer, ""],
    ["the query echoed, then the answer", `${query} ${ANSWER}`, ANSWER],
    [
      "the query echoed, the answer, the pattern continued",
      `${query} ${ANSWER}\n\n${demo("Next.", "next.")}`,
      ANSWER,
    ],
    ["windows line endings", `${ANSWER}\r\n${f.first} next`, ANSWER],
    ["trailing blank lines", `${ANSWER}\n\n\n`, ANSWER],
    ["a colon that is not a field", `Note: ${ANSWER}`, `Note: ${ANSWER}`],
    [
      "the field's words without a colon",
      `${f.answer.replace(/:$/, "")} was too cautious.`,
      `${f.answer.replace(/:$/, "")} was too cautious.`,
    ],
    ["a two-line answer with no marker", "the cat was\ntoo cautious.", "the cat was\ntoo cautious."],
    ["a one-token answer", "?", "?"],
    // What chat models add around a verbatim answer (rule layout-2).
    [
      "a chat preamble on its own line",
      `Sure! Here is the ${lower(f.answer).replace(/:$/, "")}:\n${ANSWER}`,
      ANSWER,
    ],
    ["an exclamation on its own line", `Certainly!\n${ANSWER}`, ANSWER],
    ["a chat preamble before the answer on its line", `Here is the completion: ${ANSWER}`, ANSWER],
    ["the answer's label echoed after a preamble", `Sure! Here it is:\n${f.answer} ${ANSWER}`, ANSWER],
    ["an explanation on the next line", `${ANSWER}\nExplanation: it is from the training split.`, ANSWER],
    [
      "a preamble, the answer, an explanation",
      `Sure! Here is the ${lower(f.answer).replace(/:$/, "")}:\n${ANSWER}\nNote: I reproduced it from memory.`,
      ANSWER,
    ],
    [
      "an answer that starts with Sure (kept)",
      "Sure enough, the cat came out.",
      "Sure enough, the cat came out.",
    ],
    [
      "an answer that starts with Here (kept)",
      "Here the cat was too cautious.",
      "Here the cat was too cautious.",
    ],
    ["a one-token answer then the pattern", `?\n\n${demo("Next.", "next.")}`, "?"],
    ["a quoted answer then the pattern", `"${ANSWER}"\n${f.first} next`, ANSWER],
    ["the label echoed, quoted answer", `${f.answer} "${ANSWER}"`, ANSWER],
    [
      "a lower-case field word mid-sentence (kept)",
      `${ANSWER} and the ${lower(f.first)} part`,
      `${ANSWER} and the ${lower(f.first)} part`,
    ],
  ];
  if (f.label) {
    list.push(
      ["a label line after the answer", `${ANSWER}\n${f.label} entailment`, ANSWER],
      ["a label on the same line", `${ANSWER} ${f.label} entailment`, ANSWER],
    );
  }
  return list;
}

const LAYOUTS: [
  string,
  Record<string, { demonstration: string; query: string; separator: string; instruction: string | null }>,
  TaskKind,
  MemorizationSetting,
  Fields,
][] = [];
for (const [version, templates, upper] of [
  ["v1", DEFAULT_TEMPLATES, false],
  ["v2", GUIDED_TEMPLATES, true],
] as const) {
  const label = (text: string) => (upper ? text.toUpperCase() : text);
  for (const setting of Object.values(MemorizationSetting)) {
    const labelled = setting !== MemorizationSetting.ONLY_SEGMENT_PAIRS;
    LAYOUTS.push([
      `${version} NLI ${setting}`,
      templates,
      TaskKind.NLI,
      setting,
      {
        first: label("Sentence 1:"),
        answer: label("Sentence 2:"),
        label: labelled ? label("Label:") : null,
        labelFirst: false,
      },
    ]);
    LAYOUTS.push([
      `${version} classification ${setting}`,
      templates,
      TaskKind.CLASSIFICATION,
      setting,
      {
        first: label("First piece:"),
        answer: label("Second piece:"),
        label: labelled ? label("Label:") : null,
        labelFirst: true,
      },
    ]);
  }
}

describe.each(LAYOUTS)("answer extraction, %s", (_name, templates, taskKind, setting, fields) => {
  const layout: AnswerLayout = answerLayout(templates[templateKey(RunKind.MEMORIZATION, taskKind, setting)]);

  it("reads the layout's labels from the template", () => {
    expect(layout.answerLabel).toBe(fields.answer);
    expect(layout.labels).toEqual(
      expect.arrayContaining([fields.first, fields.answer, ...(fields.label ? [fields.label] : [])]),
    );
    expect(layout.blankLineSeparates).toBe(true);
  });

  it.each(cases(fields))("%s", (_case, output, expected) => {
    const extracted = extractAnswer(output, layout, INITIAL);
    expect(extracted.answer).toBe(expected);
    expect(extracted.rule).toBe(EXTRACTION_RULE);
  });
});

describe("answer extraction without the initial segment", () => {
  it("does not take a new demonstration for an echo of the query", () => {
    const layout = answerLayout(
      DEFAULT_TEMPLATES[
        templateKey(RunKind.MEMORIZATION, TaskKind.NLI, MemorizationSetting.ONLY_SEGMENT_PAIRS)
      ],
    );
    expect(extractAnswer("Sentence 1: Other.\nSentence 2: other answer.", layout).answer).toBe("");
    expect(
      extractAnswer("Sentence 1: The mouse stayed in its hole because\nSentence 2: x.", layout, INITIAL)
        .answer,
    ).toBe("x.");
  });

  it("says whether anything besides whitespace was removed", () => {
    const layout = answerLayout(
      DEFAULT_TEMPLATES[
        templateKey(RunKind.MEMORIZATION, TaskKind.NLI, MemorizationSetting.ONLY_SEGMENT_PAIRS)
      ],
    );
    expect(extractAnswer("  same  ", layout).changed).toBe(false);
    expect(extractAnswer("same\nSentence 1: x", layout).changed).toBe(true);
  });
});

describe("answer extraction by an earlier rule", () => {
  it("keeps layout-1 selectable: a chat preamble stays in its answer", () => {
    const layout = answerLayout(
      DEFAULT_TEMPLATES[
        templateKey(RunKind.MEMORIZATION, TaskKind.NLI, MemorizationSetting.ONLY_SEGMENT_PAIRS)
      ],
    );
    const output = `Sure! Here is sentence 2:\n${ANSWER}\nExplanation: from memory.`;
    expect(extractAnswer(output, layout, INITIAL)).toMatchObject({ answer: ANSWER, rule: "layout-2" });
    expect(extractAnswer(output, layout, INITIAL, "layout-1")).toMatchObject({
      answer: `Sure! Here is sentence 2:\n${ANSWER}\nExplanation: from memory.`,
      rule: "layout-1",
    });
  });
});
