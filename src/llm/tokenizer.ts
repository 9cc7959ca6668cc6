// The gpt-4o tokenizer, loaded on first use: its tables take about 70 MB and 0.2 s to load, which a command
// that never counts tokens (import, report, migrate) should not pay.
type Tokenizer = typeof import("gpt-tokenizer/model/gpt-4o");
type ChatMessages = Parameters<Tokenizer["encodeChat"]>[0];

let loaded: Tokenizer | undefined;

function tokenizer(): Tokenizer {
  // A synchronous, deferred load: `import()` would make every count async.
  loaded ??= require("gpt-tokenizer/model/gpt-4o") as Tokenizer;
  return loaded;
}

/** The token ids of a plain text (the gpt-4o tokenizer's). */
export function encodeText(text: string): number[] {
  return tokenizer().encode(text);
}

/** Tokens of a plain text. */
export function countTextTokens(text: string): number {
  return tokenizer().countTokens(text);
}

/**
 * Where a text can be cut without changing its token count: right after a line break that a letter or digit
 * follows. The tokenizer splits text into pieces by a regular expression before merging bytes, and merges
 * never cross pieces; every piece that can hold a line break ends with the run of line breaks (or with `/`,
 * hence letters and digits only after it), and no piece starts with one, so a piece always ends there.
 */
const CUT = /[\r\n](?=[\p{L}\p{N}])/gu;

/** Counts of lines already seen: a run's prompts repeat the same demonstrations for every instance. */
const lineCounts = new Map<string, number>();
const LINE_CACHE_LIMIT = 100_000;

function countLine(line: string): number {
  let count = lineCounts.get(line);
  if (count === undefined) {
    count = countTextTokens(line);
    if (lineCounts.size >= LINE_CACHE_LIMIT) lineCounts.clear();
    lineCounts.set(line, count);
  }
  return count;
}

/**
 * Tokens of a text, counted line by line at the cuts above: exactly `countTextTokens(text)` (a unit test holds
 * the two equal), but a prompt whose 200 demonstrations were counted for the previous instance costs map
 * lookups instead of byte-pair merges.
 */
export function countTextTokensByLine(text: string): number {
  let total = 0;
  let start = 0;
  for (const match of text.matchAll(CUT)) {
    const end = match.index + match[0].length;
    total += countLine(text.slice(start, end));
    start = end;
  }
  return total + countLine(text.slice(start));
}

/** The chat format's own tokens (message starts and ends, roles, the assistant's priming), per role sequence. */
const overheads = new Map<string, number>();

/** Tokens of a chat, with the per-message overhead of gpt-4o's chat format. */
export function countChatTokens(messages: ChatMessages): number {
  const roles = messages.map((message) => `${message.role ?? ""}/${message.name ?? ""}`).join(",");
  let overhead = overheads.get(roles);
  if (overhead === undefined) {
    overhead = tokenizer().encodeChat(
      messages.map((message) => ({ ...message, content: "" })),
      "gpt-4o",
    ).length;
    if (overheads.size < 1_000) overheads.set(roles, overhead);
  }
  let total = overhead;
  for (const message of messages) total += countTextTokensByLine(message.content ?? "");
  return total;
}
