import { createHash } from "node:crypto";
import { contentClass, tagTokens } from "../judge/meaning";
import { tokenize } from "../judge/tokens";

// TS-Guessing (Deng et al., NAACL 2024): one content word of an instance masked, the model asked for it. Pure.

/** What replaces the masked word in the prompt. */
export const MASK = "[MASK]";

/** The parts of speech a masked word may have (the authors': a noun, an adjective or a verb). */
const MASKABLE = new Set(["noun", "adjective", "verb"]);
/** Shorter words are too easy to guess without memory ("is", "go"), and rarely what a text is about. */
const MIN_LETTERS = 3;

export interface MaskedSlot {
  /** The text with the word replaced by [MASK]. */
  masked: string;
  /** The word masked, as the text spells it. */
  word: string;
  /** Its position among the text's words (0: the first). */
  position: number;
}

/**
 * The instance's text with one word masked, or null when no word qualifies. A word qualifies when wink-nlp tags it
 * a noun, adjective or verb, it is letters only, at least three of them, not a stop word, and neither it nor
 * another form of it (the same stem) appears elsewhere in the text: a word the text shows again could be copied
 * rather than remembered. Among the qualifying words, one is picked by a hash of the text, so an instance is
 * masked the same way for every model and run.
 */
export function maskedSlot(text: string): MaskedSlot | null {
  const source = text.normalize("NFKC");
  const tokens = tokenize(source);
  if (tokens.length === 0) return null;
  tagTokens(source, tokens);
  const stems = new Map<string, number>();
  const forms = new Map<string, number>();
  for (const token of tokens) {
    stems.set(token.stem, (stems.get(token.stem) ?? 0) + 1);
    forms.set(token.norm, (forms.get(token.norm) ?? 0) + 1);
  }
  const candidates = tokens.flatMap((token, position) => {
    const kind = contentClass(token);
    return kind !== null &&
      MASKABLE.has(kind) &&
      /^\p{L}+$/u.test(token.text) &&
      token.text.length >= MIN_LETTERS &&
      stems.get(token.stem) === 1 &&
      forms.get(token.norm) === 1
      ? [position]
      : [];
  });
  if (candidates.length === 0) return null;
  const digest = createHash("sha256").update(source).digest();
  const position = candidates[digest.readUInt32BE(0) % candidates.length];
  // The words are the tokenizer's, in order: the same pattern finds where the chosen one stands.
  let index = 0;
  for (const match of source.matchAll(/[^\s\p{P}\p{S}]+/gu)) {
    if (index++ !== position) continue;
    return {
      masked: source.slice(0, match.index) + MASK + source.slice(match.index + match[0].length),
      word: match[0],
      position,
    };
  }
  return null;
}

/**
 * The word an answer gives: its first word after an "Answer:" the model may repeat, lowercased, without quotes or
 * punctuation; "" when it has none.
 */
export function guessOf(output: string): string {
  const text = output.normalize("NFKC").replace(/^\s*(answer|the answer is|\[mask\])\s*[:=-]?\s*/iu, "");
  const word = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/u.exec(text);
  return word ? word[0].toLowerCase() : "";
}

/** The authors' exact match: the answer's word is the masked word, case aside. */
export function guessMatches(output: string, word: string): boolean {
  return guessOf(output) === word.normalize("NFKC").toLowerCase();
}

/** An instance's slot: its text as the prompt shows it (an NLI pair on two lines), one word masked. */
export function instanceSlot(instance: { text: string; secondText: string | null }): MaskedSlot | null {
  return maskedSlot(
    instance.secondText === null ? instance.text : `${instance.text}\n${instance.secondText}`,
  );
}
