import { createHash } from "node:crypto";
import { PromptHasher } from "../../../src/completion/prompt-hash";
import {
  PromptContext,
  PromptFrame,
  promptFrame,
  renderDemonstrations,
  renderInFrameParts,
  renderPrompt,
} from "../../../src/prompt/rendering";
import { DEFAULT_TEMPLATES, GUIDED_TEMPLATES, kindOfTemplateKey } from "../../../src/prompt/template-body";
import { ChatMessage } from "../../../src/study/chat";
import { RunKind } from "../../../src/study/settings";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("hashing prompts with the shared prefix hashed once", () => {
  const demonstrations =
    'Sentence 1: "Quoted" \\ back\\slash\tand tab\nLabel: entailment\n\nSentence 1: café 😀 naïve\n\n';
  const frames: [string, PromptFrame][] = [
    ["demonstrations in the user message", { fixedMessages: [], fixedParts: [], userPrefix: demonstrations }],
    [
      "a system instruction",
      {
        fixedMessages: [{ role: "system", content: 'INSTRUCTION: "finish" it\n' }],
        fixedParts: [],
        userPrefix: `INSTRUCTION\n\n${demonstrations}`,
      },
    ],
    ["no shared part (k = 0)", { fixedMessages: [], fixedParts: [], userPrefix: "" }],
  ];
  const queries = [
    "Sentence 1: plain",
    'with "quotes" and \\ and \n newline',
    "emoji 😀 and \u2028 separator",
    "",
  ];

  it.each(frames)("gives the whole text's SHA-256 (%s)", (_name, frame) => {
    const hasher = new PromptHasher(frame, { provider: "openai", model: "gpt-4o" });
    for (const query of queries) {
      const messages: ChatMessage[] = [
        ...frame.fixedMessages.map((message) => ({ ...message })),
        { role: "user", content: frame.userPrefix + query },
      ];
      expect(hasher.promptHash(messages)).toBe(sha256(JSON.stringify(messages)));
      expect(hasher.cacheKey(messages, 0.7, 100, 2)).toBe(
        sha256(JSON.stringify(["openai", "gpt-4o", messages, 0.7, 100, 2])),
      );
      // The renderer's word for the query (no comparison of the prefix) gives the same values.
      if (query) {
        expect(hasher.promptHash(messages, query)).toBe(sha256(JSON.stringify(messages)));
        expect(hasher.cacheKey(messages, 0.7, 100, 2, query)).toBe(
          sha256(JSON.stringify(["openai", "gpt-4o", messages, 0.7, 100, 2])),
        );
      }
    }
  });

  it.each(Object.keys({ ...DEFAULT_TEMPLATES, ...GUIDED_TEMPLATES }))(
    "gives the whole text's SHA-256 for every prompt the %s template renders, from its parts",
    (key) => {
      const template = { ...DEFAULT_TEMPLATES, ...GUIDED_TEMPLATES }[key];
      const item = (i: number, text: string) => ({
        initialSegment: `${text} ${i} "begins"`,
        subsequentSegment: `and ends ${i} 😀`,
        text: `${text} ${i} "begins" and ends ${i} 😀`,
        secondText: key.endsWith("/NLI") ? `second\\text ${i}` : null,
        label: i % 2 ? "yes" : "no",
      });
      for (const shots of [0, 3]) {
        const context: PromptContext = {
          kind: kindOfTemplateKey(key) as RunKind,
          template,
          datasetName: "D",
          split: "train",
          labels: ["yes", "no"],
          demonstrations: [1, 2, 3].slice(0, shots).map((i) => item(i, "demo\ttab")),
        };
        const frame = promptFrame(context, renderDemonstrations(context));
        const hasher = new PromptHasher(frame, { provider: "p", model: "m" });
        for (const i of [10, 11]) {
          const { messages, query } = renderInFrameParts(frame, context, item(i, "query\nline"));
          expect(messages).toEqual(renderPrompt(context, item(i, "query\nline")));
          expect(hasher.promptHash(messages, query)).toBe(sha256(JSON.stringify(messages)));
          expect(hasher.cacheKey(messages, 0, 10, 1, query)).toBe(
            sha256(JSON.stringify(["p", "m", messages, 0, 10, 1])),
          );
        }
      }
    },
  );

  it("hashes a prompt outside the frame whole, with the same result", () => {
    const frame = frames[1][1];
    const hasher = new PromptHasher(frame, { provider: "p", model: "m" });
    const others: ChatMessage[][] = [
      [{ role: "user", content: "no system message" }],
      [
        { role: "system", content: "another instruction" },
        { role: "user", content: `${frame.userPrefix}query` },
      ],
      [
        { role: "system", content: frame.fixedMessages[0].content },
        { role: "user", content: "a different start" },
      ],
    ];
    for (const messages of others) {
      expect(hasher.promptHash(messages)).toBe(sha256(JSON.stringify(messages)));
      expect(hasher.cacheKey(messages, 0, 10, 0)).toBe(
        sha256(JSON.stringify(["p", "m", messages, 0, 10, 0])),
      );
    }
  });
});
