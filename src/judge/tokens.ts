import { eng as ENGLISH_STOP_WORDS } from "stopword";
import stem from "wink-porter2-stemmer";

/**
 * The judge's words: a text's runs of characters that are neither space, punctuation nor symbol, each with its
 * casing, lower-case form, stem and place. Every reading of a pair (spans.ts, meaning.ts, positions.ts) starts here.
 * Pure.
 */

/** One word of a text: as written, lower case, stemmed, and whether a sentence starts with it. */
export interface Token {
  readonly text: string;
  readonly norm: string;
  readonly stem: string;
  readonly sentenceStart: boolean;
  readonly content: boolean;
}

const STOP_WORDS = new Set(ENGLISH_STOP_WORDS);
/** Longest token the stemmer is given: Porter2 is quadratic in a word's length, and no English word is longer. */
const MAX_STEMMED_LENGTH = 64;

const stems = new Map<string, string>();

/** The Porter2 stem of a lower-case word, remembered (stemming is most of what judging a pair costs). */
export function stemOf(word: string): string {
  let found = stems.get(word);
  if (found === undefined) {
    found = stem(word.length > MAX_STEMMED_LENGTH ? word.slice(0, MAX_STEMMED_LENGTH) : word);
    if (stems.size > 100_000) stems.clear();
    stems.set(word, found);
  }
  return found;
}

/** Marks after which a sentence starts (a line break included). */
const SENTENCE_END = new Set([".", "!", "?", "\n", ":", '"', "\u201c"]);

/** Texts tokenized lately: a pair's reference and first piece are tokenized again for every answer judged against them. */
const recent = new Map<string, readonly Token[]>();
const RECENT_TEXTS = 256;

/**
 * The judge's tokens (those of `normalizeForJudging`, in the same order), keeping their casing and position. The
 * same array for the same text while it is among the last few hundred tokenized: callers only read it.
 */
export function tokenize(text: string): readonly Token[] {
  let tokens = recent.get(text);
  if (tokens === undefined) {
    tokens = tokenizeNow(text);
    if (recent.size >= RECENT_TEXTS) recent.delete(recent.keys().next().value!);
    recent.set(text, tokens);
  }
  return tokens;
}

function tokenizeNow(text: string): readonly Token[] {
  const source = text.normalize("NFKC");
  const tokens: Token[] = [];
  for (const match of source.matchAll(/[^\s\p{P}\p{S}]+/gu)) {
    // The last character before the word that is not a space or a tab (a line break counts).
    let at = match.index - 1;
    while (at >= 0 && (source[at] === " " || source[at] === "\t" || source[at] === "\r")) at -= 1;
    const norm = match[0].toLowerCase();
    tokens.push({
      text: match[0],
      norm,
      stem: stemOf(norm),
      sentenceStart: at < 0 || SENTENCE_END.has(source[at]),
      content: !STOP_WORDS.has(norm),
    });
  }
  return tokens;
}

const NEGATIONS = new Set([
  "not",
  "no",
  "never",
  "cannot",
  "nor",
  "neither",
  "nobody",
  "nothing",
  "none",
  "nowhere",
]);

/** Negations among normalized tokens; "didn't" normalizes to "didn t", so a lone "t" after a word counts. */
export function negationCount(tokens: readonly string[]): number {
  let count = 0;
  for (const [index, token] of tokens.entries())
    if (NEGATIONS.has(token) || (token === "t" && index > 0 && tokens[index - 1].endsWith("n"))) count += 1;
  return count;
}
