import { createHash } from "node:crypto";
import { PromptHasher } from "../../src/run/prompt-hash";
import { ChatMessage, PromptFrame } from "../../src/template/prompt-rendering";

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
    }
  });

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
