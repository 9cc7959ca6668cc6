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

/** Tokens of a plain text. */
export function countTextTokens(text: string): number {
  return tokenizer().countTokens(text);
}

/** Tokens of a chat, with the per-message overhead of gpt-4o's chat format. */
export function countChatTokens(messages: ChatMessages): number {
  return tokenizer().encodeChat(messages, "gpt-4o").length;
}
