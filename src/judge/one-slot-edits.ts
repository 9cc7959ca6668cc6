import { RandomStream } from "../common/random";
import { entityEdit, numberEdit, PairRow } from "./hard-negatives";
import { areSynonyms, wordNetPoses } from "./lexicon";
import { stemOf, tokenize } from "./tokens";

/**
 * One-slot edits of a dataset's references, to measure a judge where it was not tuned (docs/JUDGING.md). Each edit
 * changes one thing. Changed-fact kinds must be judged INEXACT: a common noun swapped for another noun of the
 * dataset (`noun`), a past-tense verb for another (`verb`), a number (`number`), a name for another name (`name`).
 * Same-fact kinds must be judged memorized (exact or near-exact): thousands separators added or dropped
 * (`thousands`), a small number in words for its digits or back (`number-word`), a contraction made or undone
 * (`contraction`), two adjacent letters of a long name transposed (`transposition`).
 *
 * Parts of speech come from WordNet and the words' places (a word after a determiner is a noun, a word in -ed that
 * WordNet has as a verb is a past tense), never from the tagger heuristic-7 reads, so that the set does not measure
 * the judge by its own resource.
 */
export type OneSlotKind =
  | "noun"
  | "verb"
  | "number"
  | "name"
  | "thousands"
  | "number-word"
  | "contraction"
  | "transposition";

export const CHANGED_FACT_KINDS: readonly OneSlotKind[] = ["noun", "verb", "number", "name"];
export const SAME_FACT_KINDS: readonly OneSlotKind[] = [
  "thousands",
  "number-word",
  "contraction",
  "transposition",
];
export const ONE_SLOT_KINDS: readonly OneSlotKind[] = [...CHANGED_FACT_KINDS, ...SAME_FACT_KINDS];

/** Does an edit of this kind keep the fact (a judge should say memorized) or change it (INEXACT)? */
export const keepsFact = (kind: OneSlotKind) => SAME_FACT_KINDS.includes(kind);

export interface OneSlotEdit {
  kind: OneSlotKind;
  firstPiece: string;
  reference: string;
  candidate: string;
}

/** Draws in [0, 1) from the seeded stream the study design draws from: the same seed gives the same edits. */
function random(seed: number): () => number {
  const stream = new RandomStream(seed);
  return () => stream.integer(0, 2 ** 30 - 1) / 2 ** 30;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
const replaceAt = (text: string, index: number, length: number, replacement: string) =>
  text.slice(0, index) + replacement + text.slice(index + length);

/** Common nouns: a lower-case word right after a determiner that WordNet has as a noun and not as an adjective. */
function nounsIn(text: string): { word: string; index: number }[] {
  const found: { word: string; index: number }[] = [];
  for (const match of text.matchAll(/\b(?:the|a|an|his|her|their|its|our|this|that)\s+(\p{Ll}{4,})\b/gu)) {
    const word = match[1];
    const poses = wordNetPoses(word);
    if (poses.has("noun") && !poses.has("adj") && !poses.has("adv"))
      found.push({ word, index: match.index + match[0].length - word.length });
  }
  return found;
}

/** Past tenses: a lower-case word in -ed, not after a determiner, that WordNet has as a verb and not as a noun. */
function pastTensesIn(text: string): { word: string; index: number }[] {
  const found: { word: string; index: number }[] = [];
  for (const match of text.matchAll(/(?<!\b(?:the|a|an|his|her|their|its)\s+)\b(\p{Ll}{3,}ed)\b/gu)) {
    const poses = wordNetPoses(match[1]);
    if (poses.has("verb") && !poses.has("noun")) found.push({ word: match[1], index: match.index });
  }
  return found;
}

/** Capitalised words of six or more letters after a sentence's first word: names. */
function longNamesIn(text: string): { word: string; index: number }[] {
  return tokenize(text)
    .filter((token) => !token.sentenceStart && /^\p{Lu}\p{Ll}{5,}$/u.test(token.text))
    .map((token) => ({
      word: token.text,
      index: new RegExp(`\\b${token.text}\\b`, "u").exec(text)?.index ?? -1,
    }))
    .filter(({ index }) => index > 0);
}

/** Two words that are different facts: not one stem, not WordNet synonyms. */
const different = (a: string, b: string) => stemOf(a) !== stemOf(b) && !areSynonyms(a, b);

function swapFromPool(
  text: string,
  slots: { word: string; index: number }[],
  pool: readonly string[],
  next: () => number,
): string | null {
  if (slots.length === 0 || pool.length === 0) return null;
  const slot = slots[Math.floor(next() * slots.length)];
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const other = pool[Math.floor(next() * pool.length)];
    if (different(slot.word, other) && !new RegExp(`\\b${other}\\b`, "iu").test(text))
      return replaceAt(text, slot.index, slot.word.length, other);
  }
  return null;
}

const SMALL_NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve".split(" ");

function numberWordEdit(text: string, next: () => number): string | null {
  const found: { index: number; length: number; replacement: string }[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    // A digit group of a larger number ("10" of "10,000", "5" of "5.5") is not a number of its own.
    const around =
      text.slice(Math.max(0, match.index - 2), match.index) +
      text.slice(match.index + word.length, match.index + word.length + 2);
    if (/[.,]\d|\d[.,]/.test(around)) continue;
    if (/^\d+$/.test(word) && Number(word) >= 2 && Number(word) <= 12)
      found.push({ index: match.index, length: word.length, replacement: SMALL_NUMBERS[Number(word)] });
    const at = SMALL_NUMBERS.indexOf(word.toLowerCase());
    if (at >= 2 && word === word.toLowerCase())
      found.push({ index: match.index, length: word.length, replacement: String(at) });
  }
  if (found.length === 0) return null;
  const { index, length, replacement } = found[Math.floor(next() * found.length)];
  return replaceAt(text, index, length, replacement);
}

function thousandsEdit(text: string): string | null {
  const separated = /\b\d{1,3}(?:,\d{3})+\b/.exec(text);
  if (separated)
    return replaceAt(text, separated.index, separated[0].length, separated[0].replaceAll(",", ""));
  // Four or more digits that are not a year: add the separators.
  for (const match of text.matchAll(/\b\d{4,}\b/g)) {
    const value = Number(match[0]);
    if (match[0].length === 4 && value >= 1000 && value <= 2100) continue;
    return replaceAt(text, match.index, match[0].length, value.toLocaleString("en-US"));
  }
  return null;
}

const CONTRACTIONS: [RegExp, string][] = [
  [/\b(do|does|did|is|was|were|are|has|have|had|would|could|should)\s+not\b/iu, "$1n't"],
  [/\bwill not\b/iu, "won't"],
  [/\bcannot\b/iu, "can't"],
  [/\b(it|he|she|that|there)\s+is\b/iu, "$1's"],
  [/\b(they|we|you)\s+are\b/iu, "$1're"],
  [/\b(do|does|did|is|was|were|are|has|have|had|would|could|should)n['’]t\b/iu, "$1 not"],
  [/\b(it|he|she|that|there)['’]s\b/iu, "$1 is"],
];

function contractionEdit(text: string): string | null {
  for (const [pattern, replacement] of CONTRACTIONS)
    if (pattern.test(text)) return text.replace(pattern, replacement);
  return null;
}

function transpositionEdit(text: string, next: () => number): string | null {
  const names = longNamesIn(text);
  if (names.length === 0) return null;
  const { word, index } = names[Math.floor(next() * names.length)];
  // Two adjacent letters after the first, that differ.
  const spots = [...word]
    .map((_, i) => i)
    .filter((i) => i >= 1 && i + 1 < word.length && word[i] !== word[i + 1]);
  if (spots.length === 0) return null;
  const i = spots[Math.floor(next() * spots.length)];
  return replaceAt(text, index, word.length, word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
}

/**
 * Up to `perKind` edits of each kind, from the rows in a seeded order (each row edited at most once per kind).
 * Rows without what a kind edits are passed over.
 */
export function oneSlotEdits(
  rows: readonly PairRow[],
  { perKind = 200, seed = 1 }: { perKind?: number; seed?: number } = {},
): OneSlotEdit[] {
  const next = random(seed);
  const order = rows.map((row, index) => ({ row, key: next(), index })).sort((a, b) => a.key - b.key);
  const nouns = [...new Set(rows.flatMap((row) => nounsIn(row.reference).map(({ word }) => word)))].sort();
  const verbs = [
    ...new Set(rows.flatMap((row) => pastTensesIn(row.reference).map(({ word }) => word))),
  ].sort();
  const names = [
    ...new Set(
      rows.flatMap((row) =>
        tokenize(row.reference)
          .filter((token) => token.content && !token.sentenceStart && /^\p{Lu}\p{Ll}+$/u.test(token.text))
          .map((token) => token.text),
      ),
    ),
  ].sort();
  const edits: OneSlotEdit[] = [];
  for (const kind of ONE_SLOT_KINDS) {
    let made = 0;
    for (const { row, index } of order) {
      if (made >= perKind) break;
      const text = row.reference;
      const candidate =
        kind === "noun"
          ? swapFromPool(text, nounsIn(text), nouns, next)
          : kind === "verb"
            ? swapFromPool(text, pastTensesIn(text), verbs, next)
            : kind === "number"
              ? numberEdit(text)
              : kind === "name"
                ? entityEdit(row, names, index)
                : kind === "thousands"
                  ? thousandsEdit(text)
                  : kind === "number-word"
                    ? numberWordEdit(text, next)
                    : kind === "contraction"
                      ? contractionEdit(text)
                      : transpositionEdit(text, next);
      if (!candidate || candidate === text) continue;
      edits.push({ kind, firstPiece: row.firstPiece, reference: text, candidate });
      made += 1;
    }
  }
  return edits;
}

/** The references of single texts (no sentence pairs): each text cut after `share` of its words, as the study cuts. */
export function cutRows(texts: readonly string[], share = 0.7): PairRow[] {
  return texts.flatMap((text) => {
    const words = text.trim().split(/\s+/);
    if (words.length < 4) return [];
    const at = Math.min(words.length - 1, Math.max(1, Math.round(words.length * share)));
    return [{ firstPiece: words.slice(0, at).join(" "), reference: words.slice(at).join(" ") }];
  });
}
