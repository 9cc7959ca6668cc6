import { encodeChat } from "gpt-tokenizer/model/gpt-4o";
import { countChatTokens, countTextTokens, countTextTokensByLine } from "../../../src/llm/tokenizer";

/** A seeded generator of awkward text: line breaks next to letters, digits, spaces, slashes and punctuation. */
function awkwardTexts(count: number, seed: number): string[] {
  const parts = [
    "\n",
    "\n\n",
    "\r\n",
    " \n",
    "\n ",
    "/",
    "//",
    "?",
    "'s",
    "'",
    " ",
    "  ",
    "\t",
    "a",
    "Word",
    "word",
    "WORD",
    "12",
    "1234567",
    "٣",
    "é",
    "ß",
    "日本語",
    "🙂",
    "-",
    ".",
    ",",
    ":",
    "LABEL:",
    "FIRST PIECE:",
    "SECOND PIECE:",
    "http://x.org/a",
    "e-mail",
    "’",
    '"',
    "(",
    ")",
    "_",
    "#",
    "\n/",
    "/\n",
    "?\n",
    "!\n\n",
    "x\ny",
  ];
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 5 + (next() % 60) }, () => parts[next() % parts.length]).join(""),
  );
}

describe("counting tokens line by line", () => {
  it("gives the tokenizer's own count on awkward texts", () => {
    for (const text of awkwardTexts(2_000, 7))
      expect([text, countTextTokensByLine(text)]).toEqual([text, countTextTokens(text)]);
  });

  it("gives the tokenizer's own count on prompts that share their demonstrations", () => {
    const demonstrations = Array.from(
      { length: 50 },
      (_, i) =>
        `LABEL: ${i % 3 ? "ENTY" : "LOC"}\nFIRST PIECE: What is the ${i}th city / town\nSECOND PIECE: ?`,
    ).join("\n\n");
    for (const query of ["What country 's capital", 'Who wrote "Hamlet" ?', "1984 was", "  spaced", ""]) {
      const prompt = `INSTRUCTION:\nFinish the SECOND PIECE.\n\n${demonstrations}\n\nFIRST PIECE: ${query}\nSECOND PIECE:`;
      expect(countTextTokensByLine(prompt)).toBe(countTextTokens(prompt));
    }
  });

  it("gives encodeChat's count for chats of one or several messages", () => {
    const texts = awkwardTexts(200, 11);
    for (let i = 0; i + 2 < texts.length; i += 3) {
      const chats = [
        [{ role: "user" as const, content: texts[i] }],
        [
          { role: "system" as const, content: texts[i] },
          { role: "user" as const, content: texts[i + 1] },
          { role: "assistant" as const, content: texts[i + 2] },
        ],
      ];
      for (const chat of chats) expect(countChatTokens(chat)).toBe(encodeChat(chat, "gpt-4o").length);
    }
  });
});
