import fs from "node:fs";
import { PromptContext, PromptItem, renderPrompt } from "../../src/prompt/rendering";
import {
  checkTemplateBody,
  DEFAULT_TEMPLATES,
  GUIDED_TEMPLATES,
  kindOfTemplateKey,
  TemplateBody,
} from "../../src/prompt/template-body";
import { RunKind } from "../../src/study/settings";
import { describeWithSharedData, sharedFile } from "../support/shared-data";

const NLI_ITEMS: PromptItem[] = [
  {
    initialSegment: "A man plays a guitar.",
    subsequentSegment: "A person makes music.",
    text: "A man plays a guitar.",
    secondText: "A person makes music.",
    label: "entailment",
  },
  {
    initialSegment: "The cat sleeps.",
    subsequentSegment: "The cat runs.",
    text: "The cat sleeps.",
    secondText: "The cat runs.",
    label: "not entailment",
  },
  {
    initialSegment: "It rained all day.",
    subsequentSegment: "The ground is wet.",
    text: "It rained all day.",
    secondText: "The ground is wet.",
    label: "entailment",
  },
];
const TEXT_ITEMS: PromptItem[] = [
  {
    initialSegment: "How far is it from Denver",
    subsequentSegment: "to Aspen ?",
    text: "How far is it from Denver to Aspen ?",
    secondText: null,
    label: "number",
  },
  {
    initialSegment: "Who wrote the",
    subsequentSegment: "Iliad ?",
    text: "Who wrote the Iliad ?",
    secondText: null,
    label: "human",
  },
  {
    initialSegment: "What is the capital of",
    subsequentSegment: "Peru ?",
    text: "What is the capital of Peru ?",
    secondText: null,
    label: "location",
  },
];

/** Each template of a set renders as pinned (snapshots), for k = 0 and k = 2. */
function pinRenders(templates: Record<string, TemplateBody>) {
  it("are all valid", () => {
    for (const [key, body] of Object.entries(templates)) expect(checkTemplateBody(key, body)).toEqual([]);
  });

  it.each(Object.keys(templates))("render %s as pinned, for k = 0 and k = 2", (key) => {
    const nli = key.endsWith("/NLI");
    const items = nli ? NLI_ITEMS : TEXT_ITEMS;
    const context = (shots: number): PromptContext => ({
      kind: kindOfTemplateKey(key) as RunKind,
      template: templates[key],
      datasetName: nli ? "RTE" : "TREC",
      split: "train",
      labels: nli ? ["entailment", "not entailment"] : ["human", "location", "number"],
      demonstrations: items.slice(0, shots),
    });
    expect(renderPrompt(context(0), items[2])).toMatchSnapshot("k=0");
    expect(renderPrompt(context(2), items[2])).toMatchSnapshot("k=2");
  });
}

describe("the default prompt templates (version 1)", () => {
  pinRenders(DEFAULT_TEMPLATES);
});

describe("the guided templates (memorization, version 2)", () => {
  pinRenders(GUIDED_TEMPLATES);

  it("put the instruction at the start of one user message, with its emphasis, and no format cue", () => {
    const messages = renderPrompt(
      {
        kind: RunKind.MEMORIZATION,
        template: GUIDED_TEMPLATES["memorization/FULL_INFORMATION/CLASSIFICATION"],
        datasetName: "TREC",
        split: "train",
        labels: ["human"],
        demonstrations: TEXT_ITEMS.slice(0, 1),
      },
      TEXT_ITEMS[2],
    );
    expect(messages).toHaveLength(1);
    expect(messages[0].role).toBe("user");
    expect(messages[0].content).toMatch(
      /^INSTRUCTION:\nYou are provided with the FIRST PIECE of an instance from the train split of the TREC dataset/,
    );
    expect(messages[0].content).toContain("as EXACTLY appeared in the dataset");
    expect(messages[0].content).toContain("ONLY rely on the original form");
    for (const body of Object.values(GUIDED_TEMPLATES))
      expect(JSON.stringify(body)).not.toMatch(/Answer with/);
  });

  it("differ between settings only in the instruction and the labels", () => {
    for (const task of ["NLI", "CLASSIFICATION"]) {
      const full = GUIDED_TEMPLATES[`memorization/FULL_INFORMATION/${task}`];
      const pairsAndLabels = GUIDED_TEMPLATES[`memorization/SEGMENT_PAIRS_AND_LABELS/${task}`];
      const pairs = GUIDED_TEMPLATES[`memorization/ONLY_SEGMENT_PAIRS/${task}`];
      expect(pairsAndLabels.demonstration).toBe(full.demonstration);
      expect(pairsAndLabels.query).toBe(full.query);
      expect(pairs.demonstration).toBe(
        full.demonstration.replace("LABEL: {{label}}\n", "").replace("\nLABEL: {{label}}", ""),
      );
      expect(pairs.query).toBe(
        full.query.replace("LABEL: {{label}}\n", "").replace("\nLABEL: {{label}}", ""),
      );
    }
  });
});

describe("the general instruction (the control)", () => {
  it("is the full-information template with the instruction alone changed, naming neither dataset nor split", () => {
    for (const templates of [DEFAULT_TEMPLATES, GUIDED_TEMPLATES])
      for (const task of ["NLI", "CLASSIFICATION"]) {
        const full = templates[`memorization/FULL_INFORMATION/${task}`];
        const general = templates[`memorization/GENERAL_INSTRUCTION/${task}`];
        expect({ ...general, instruction: null }).toEqual({ ...full, instruction: null });
        expect(general.instruction).not.toMatch(/dataset|split/i);
        expect(general.instruction).toMatch(/LABEL/i);
      }
  });
});

describeWithSharedData("the general instruction against Time Travel's own", () => {
  /** The INSTRUCTION block of one of the method's prompts (its `"nli"` or `"cls"` entry), read when a test runs. */
  const instructionOf = (kind: string) => {
    const source = fs.readFileSync(
      sharedFile("method-reference", "time-travel", "general_instructions.py"),
      "utf8",
    );
    const start = source.indexOf(`"${kind}": """`);
    const block = source.slice(start + kind.length + 7);
    return block.slice(0, block.indexOf("\n\n"));
  };

  it.each([
    ["nli", "NLI"],
    ["cls", "CLASSIFICATION"],
  ])("%s: version 2 says what general_instructions.py says, word for word", (kind, task) => {
    const ours = GUIDED_TEMPLATES[`memorization/GENERAL_INSTRUCTION/${task}`].instruction;
    expect(ours).toBe(instructionOf(kind));
  });
});

describe("template checks", () => {
  it("names unknown placeholders and missing slots", () => {
    expect(
      checkTemplateBody("performance/NLI", {
        instruction: "{{dataset}} {{task}}",
        demonstration: "{{text}}",
        separator: "\n",
        query: "{{label}}",
      }),
    ).toEqual([
      "instruction: unknown placeholder {{task}} (allowed: dataset, split, labels)",
      "query: must contain {{text}}",
    ]);
    expect(checkTemplateBody("judge", DEFAULT_TEMPLATES["performance/NLI"])).toEqual([
      'unknown template key "judge"',
    ]);
  });
});
