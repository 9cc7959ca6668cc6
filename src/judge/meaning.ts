import { isKnownWord } from "./lexicon";
import type { Token } from "./tokens";

/**
 * heuristic-7's reading of a changed span: is it a change of form (number formatting, a number word for its digits,
 * hyphenation, a typo inside a long word) or of fact (a content word replaced by another of its kind)? Parts of
 * speech and lemmas come from wink-nlp's English model (docs/JUDGING.md says why it and not compromise). Pure: the
 * model is read from the package, once, the first time a pair needs it.
 */

/** A word's part of speech (Universal Dependencies) and lemma, by wink-nlp. */
export interface WordTag {
  pos: string;
  lemma: string;
}

type Pipeline = ReturnType<typeof import("wink-nlp").default>;
let pipeline: Pipeline | null = null;
/** The pipeline, loaded by the first pair that needs it: the English model takes some 150 ms to load. */
const nlp = (): Pipeline => {
  if (!pipeline) {
    const winkNLP = require("wink-nlp") as typeof import("wink-nlp").default;
    const model = require("wink-eng-lite-web-model") as typeof import("wink-eng-lite-web-model").default;
    pipeline = winkNLP(model, ["pos"]);
  }
  return pipeline;
};

/** The judge's words (the tokenizer of spans.ts): a run of characters that are neither space, punctuation nor symbol. */
const WORD = /[^\s\p{P}\p{S}]+/gu;

const tags = new WeakMap<Token, WordTag>();

/**
 * Tags the judge's tokens of a text by where they stand in wink-nlp's tokens (its tokenizer splits differently:
 * "didn't" is "did" + "n't" there and "didn" + "t" here). `tokens` must be `tokenize(text)`. Idempotent.
 */
export function tagTokens(text: string, tokens: readonly Token[]): void {
  if (tokens.length === 0 || tags.has(tokens[0])) return;
  const source = text.normalize("NFKC");
  const { its } = nlp();
  const document = nlp().readDoc(source);
  const values = document.tokens().out(its.value) as string[];
  const spaces = document.tokens().out(its.precedingSpaces) as string[];
  const poses = document.tokens().out(its.pos) as string[];
  // wink-nlp's typings declare `its.lemma` with a signature `out` does not accept; it works as every other.
  const lemmas = document.tokens().out(its.lemma as never) as string[];
  const ends: number[] = [];
  let offset = 0;
  for (const [index, value] of values.entries()) {
    offset += spaces[index].length + value.length;
    ends.push(offset);
  }
  // wink-nlp keeps every character; if a text ever came back otherwise, each word is tagged on its own.
  const lossless = offset === source.length;
  let at = 0;
  let index = 0;
  for (const match of source.matchAll(WORD)) {
    const token = tokens[index++];
    if (!token) break;
    if (!lossless) {
      tags.set(token, tagAlone(match[0]));
      continue;
    }
    while (at < ends.length - 1 && ends[at] <= match.index) at += 1;
    tags.set(token, { pos: poses[at] ?? "X", lemma: (lemmas[at] ?? token.norm).toLowerCase() });
  }
}

function tagAlone(word: string): WordTag {
  const { its } = nlp();
  const document = nlp().readDoc(word);
  return {
    pos: (document.tokens().out(its.pos) as string[])[0] ?? "X",
    lemma: ((document.tokens().out(its.lemma as never) as string[])[0] ?? word).toLowerCase(),
  };
}

/** A token's tag, once its text was tagged (`tagTokens`). */
export const tagOf = (token: Token): WordTag | undefined => tags.get(token);

/** The kinds a content word is replaced within: a noun by a noun (a name by a name), a verb by a verb, and so on. */
const CONTENT_CLASS: Record<string, string> = {
  NOUN: "noun",
  PROPN: "noun",
  VERB: "verb",
  ADJ: "adjective",
  ADV: "adverb",
};

/** The class of content word a tagged token is, or null (function words, numbers, punctuation). */
export function contentClass(token: Token): string | null {
  if (!token.content) return null;
  const tag = tags.get(token);
  return tag ? (CONTENT_CLASS[tag.pos] ?? null) : null;
}

/** Two tokens are forms of one lemma (wink-nlp's lemmas: "killed" and "kills" are "kill"). */
export function sameLemma(a: Token, b: Token): boolean {
  const left = tags.get(a);
  const right = tags.get(b);
  return !!left && !!right && left.lemma === right.lemma;
}

/** Shortest word in which a transposition of two adjacent letters is read as a typo. */
export const TYPO_TRANSPOSITION_MIN_LENGTH = 5;
/** Shortest word in which any other one-character edit is read as a typo. */
export const TYPO_EDIT_MIN_LENGTH = 7;

/**
 * One edit between two words: "transposition" (two adjacent characters swapped), "edit" (one character replaced,
 * added or dropped), or null (none, or more than one).
 */
export function oneEdit(a: string, b: string): "transposition" | "edit" | null {
  if (a === b) return null;
  if (a.length === b.length) {
    const differ: number[] = [];
    for (let i = 0; i < a.length && differ.length <= 2; i += 1) if (a[i] !== b[i]) differ.push(i);
    if (differ.length === 1) return "edit";
    if (
      differ.length === 2 &&
      differ[1] === differ[0] + 1 &&
      a[differ[0]] === b[differ[1]] &&
      a[differ[1]] === b[differ[0]]
    )
      return "transposition";
    return null;
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (long.length - short.length !== 1) return null;
  let i = 0;
  while (i < short.length && short[i] === long[i]) i += 1;
  return short.slice(i) === long.slice(i + 1) ? "edit" : null;
}

/**
 * A typo inside one long word: the same word misspelt by one transposition (at least five letters) or one other edit
 * (at least seven), where the two are not both words of their own ("casual" and "causal" are two words; "Margaret"
 * and "Magraret" are one name), unless the reference's is a name, capitalised inside its sentence ("United" and
 * "Untied" in "the United States"). Digits are never read so: "1987" and "1978" are two years.
 */
export function typoOf(reference: Token, candidate: Token): boolean {
  const [a, b] = [reference.norm, candidate.norm];
  if (/\d/.test(a) || /\d/.test(b)) return false;
  const edit = oneEdit(a, b);
  if (!edit) return false;
  const shorter = Math.min(a.length, b.length);
  if (shorter < (edit === "transposition" ? TYPO_TRANSPOSITION_MIN_LENGTH : TYPO_EDIT_MIN_LENGTH))
    return false;
  const name = !reference.sentenceStart && /^\p{Lu}/u.test(reference.text);
  return name || !(isKnownWord(a) && isKnownWord(b));
}

/** The words of a gap written together or apart: "well known" and "wellknown", "e mail" and "email". */
export function sameLetters(reference: readonly Token[], candidate: readonly Token[]): boolean {
  const joined = (tokens: readonly Token[]) => tokens.map((token) => token.norm).join("");
  return reference.length + candidate.length > 2 && joined(reference) === joined(candidate);
}

/** Contractions written out: "didn't" is "did not", "can't" and "cannot" are "can not", "they're" is "they are". */
const CONTRACTIONS: [RegExp, string][] = [
  [/\b(w)on['’]t\b/giu, "$1ill not"],
  [/\b(c)an['’]t\b/giu, "$1an not"],
  [/\b(c)annot\b/giu, "$1an not"],
  [/\b(\p{L}+)n['’]t\b/giu, "$1 not"],
  [/\b(it|he|she|that|there|what|who|here|where)['’]s\b/giu, "$1 is"],
  [/\b(\p{L}+)['’]re\b/giu, "$1 are"],
  [/\b(\p{L}+)['’]ve\b/giu, "$1 have"],
  [/\b(\p{L}+)['’]ll\b/giu, "$1 will"],
  [/\b(i)['’]m\b/giu, "$1 am"],
];

/**
 * The text heuristic-7 reads spans in: digit groups without their thousands separators ("250,000" is "250000") and
 * contractions written out, on both sides, so that either form meets the other. Exactness is read on the texts as
 * written.
 */
export function formCanonical(text: string): string {
  let canonical = text.replace(/\b\d{1,3}(?:[,\u00a0\u202f]\d{3})+(?![\d,]*\d)/g, (number) =>
    number.replace(/[^\d]/g, ""),
  );
  if (/['’]|cannot/i.test(canonical))
    for (const [pattern, replacement] of CONTRACTIONS) canonical = canonical.replace(pattern, replacement);
  return canonical;
}
