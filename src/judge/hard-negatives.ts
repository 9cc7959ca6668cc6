import { appendTo } from "../common/collections";
import { copyAnswers } from "./no-memory";
import { tokenize } from "./tokens";

/**
 * Hard negatives: answers that look like a recall of the reference and are not, built from a dataset's own rows so
 * that no judge was tuned on them. Each kind changes one thing a near-exact answer must keep:
 * - `sibling`: another row's sentence 2 for the same sentence 1 (WNLI, RTE);
 * - `number`: the reference with one number changed;
 * - `entity`: one named entity swapped for an entity of another row;
 * - `antonym`: one word swapped for its opposite, from a list written for this set (not from WordNet, which the
 *   judge consults: a set built from the judge's own resource would measure nothing);
 * - `referent` (NLI): the noun sentence 2 takes from sentence 1 swapped for another of sentence 1's nouns;
 * - `pronoun` (NLI): that noun phrase replaced by the pronoun, as in sentence 1 (the referent left unresolved).
 */
export type HardNegativeKind = "sibling" | "number" | "entity" | "antonym" | "referent" | "pronoun";
export const HARD_NEGATIVE_KINDS: readonly HardNegativeKind[] = [
  "sibling",
  "number",
  "entity",
  "antonym",
  "referent",
  "pronoun",
];

export interface PairRow {
  /** What the prompt shows: sentence 1. */
  firstPiece: string;
  /** The reference: sentence 2. */
  reference: string;
}

export interface HardNegative {
  kind: HardNegativeKind;
  firstPiece: string;
  reference: string;
  candidate: string;
}

/** Opposites for the `antonym` kind, both directions; content words common in news and NLI sentences. */
const OPPOSITES: [string, string][] = [
  ["increase", "decrease"],
  ["increased", "decreased"],
  ["rise", "fall"],
  ["rose", "fell"],
  ["win", "lose"],
  ["won", "lost"],
  ["accept", "reject"],
  ["accepted", "rejected"],
  ["agree", "disagree"],
  ["agreed", "refused"],
  ["true", "false"],
  ["alive", "dead"],
  ["guilty", "innocent"],
  ["success", "failure"],
  ["succeeded", "failed"],
  ["strong", "weak"],
  ["rich", "poor"],
  ["young", "old"],
  ["happy", "sad"],
  ["love", "hate"],
  ["loves", "hates"],
  ["buy", "sell"],
  ["bought", "sold"],
  ["start", "end"],
  ["started", "ended"],
  ["arrived", "departed"],
  ["north", "south"],
  ["east", "west"],
  ["northern", "southern"],
  ["male", "female"],
  ["men", "women"],
  ["man", "woman"],
  ["husband", "wife"],
  ["mother", "father"],
  ["son", "daughter"],
  ["easy", "difficult"],
  ["cheap", "expensive"],
  ["fast", "slow"],
  ["good", "bad"],
  ["best", "worst"],
  ["private", "public"],
  ["legal", "illegal"],
  ["positive", "negative"],
  ["safe", "dangerous"],
  ["support", "oppose"],
  ["supported", "opposed"],
  ["majority", "minority"],
  ["maximum", "minimum"],
  ["large", "small"],
  ["larger", "smaller"],
  ["largest", "smallest"],
  ["big", "little"],
  ["long", "short"],
  ["tall", "short"],
  ["hot", "cold"],
  ["wet", "dry"],
  ["light", "dark"],
  ["friend", "enemy"],
  ["victory", "defeat"],
  ["include", "exclude"],
  ["ancient", "modern"],
  ["same", "different"],
  ["high", "low"],
  ["higher", "lower"],
  ["early", "late"],
  ["open", "closed"],
  ["opened", "closed"],
  ["full", "empty"],
  ["heavy", "light"],
  ["clean", "dirty"],
  ["quiet", "loud"],
  ["inside", "outside"],
  ["remember", "forget"],
  ["remembered", "forgot"],
  ["always", "rarely"],
  ["allowed", "banned"],
  ["lead", "trail"],
  ["popular", "unpopular"],
  ["possible", "impossible"],
  ["likely", "unlikely"],
  ["careful", "careless"],
  ["cautious", "reckless"],
  ["polite", "rude"],
  ["brave", "cowardly"],
  ["thick", "thin"],
  ["wide", "narrow"],
  ["deep", "shallow"],
  ["rural", "urban"],
  ["domestic", "foreign"],
  ["import", "export"],
  ["imports", "exports"],
  ["profit", "loss"],
  ["profits", "losses"],
  ["gain", "loss"],
  ["employed", "unemployed"],
  ["married", "divorced"],
  ["asleep", "awake"],
];
const OPPOSITE = new Map<string, string>([
  ...OPPOSITES,
  ...OPPOSITES.map(([a, b]) => [b, a] as [string, string]),
]);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

function replaceWordAt(text: string, index: number, length: number, replacement: string): string {
  return text.slice(0, index) + replacement + text.slice(index + length);
}

const matchCase = (model: string, word: string) =>
  /^\p{Lu}/u.test(model) ? word[0].toUpperCase() + word.slice(1) : word;

const NUMBER_WORDS = [
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "twelve",
];

/** The reference with its first number changed (a digit string to another value, a number word to the next). */
export function numberEdit(reference: string): string | null {
  for (const match of reference.matchAll(WORD)) {
    const word = match[0];
    if (/^\d+$/.test(word)) {
      const value = Number(word);
      const changed = String(
        value >= 1900 && value <= 2100 ? value - 3 : value < 10 ? value + 2 : Math.round(value * 1.5),
      );
      return replaceWordAt(reference, match.index, word.length, changed);
    }
    const at = NUMBER_WORDS.indexOf(word.toLowerCase());
    if (at >= 0)
      return replaceWordAt(
        reference,
        match.index,
        word.length,
        matchCase(word, NUMBER_WORDS[(at + 2) % NUMBER_WORDS.length]),
      );
  }
  return null;
}

/** Capitalised words after a sentence's first word that are not at a sentence start: names, places, organisations. */
function namesIn(text: string): { word: string; index: number }[] {
  return tokenize(text)
    .filter((token) => token.content && !token.sentenceStart && /^\p{Lu}\p{Ll}+$/u.test(token.text))
    .map((token) => ({ word: token.text, index: -1 }))
    .map(({ word }) => ({ word, index: new RegExp(`\\b${word}\\b`, "u").exec(text)?.index ?? -1 }))
    .filter(({ index }) => index > 0);
}

/** The reference with one name swapped for a name from `pool` that neither sentence has. */
export function entityEdit(row: PairRow, pool: readonly string[], seed: number): string | null {
  const names = namesIn(row.reference);
  if (names.length === 0) return null;
  const present = new Set(
    [...tokenize(row.reference), ...tokenize(row.firstPiece)].map((token) => token.norm),
  );
  const choices = pool.filter((name) => !present.has(name.toLowerCase()));
  if (choices.length === 0) return null;
  const { word, index } = names[seed % names.length];
  return replaceWordAt(row.reference, index, word.length, choices[(seed * 7919) % choices.length]);
}

/** The reference with its first word from the list of opposites swapped. */
export function antonymEdit(reference: string): string | null {
  for (const match of reference.matchAll(WORD)) {
    const opposite = OPPOSITE.get(match[0].toLowerCase());
    if (opposite)
      return replaceWordAt(reference, match.index, match[0].length, matchCase(match[0], opposite));
  }
  return null;
}

const DETERMINED_NOUN = /\b(?:the|a|an|his|her|their|its|my|your|our)\s+([\p{Ll}]+)\b/giu;

/** Sentence 1's nouns: a word after a determiner, and capitalised names. */
function nounsOf(text: string): string[] {
  const nouns = new Set<string>();
  for (const match of text.matchAll(DETERMINED_NOUN)) nouns.add(match[1].toLowerCase());
  for (const token of tokenize(text))
    if (token.content && /^\p{Lu}\p{Ll}+$/u.test(token.text) && !token.sentenceStart) nouns.add(token.norm);
  return [...nouns];
}

/** The noun of sentence 1 that sentence 2 names (the first one it has), with where it stands in sentence 2. */
function namedReferent(row: PairRow): { noun: string; index: number; length: number } | null {
  const nouns = new Set(nounsOf(row.firstPiece));
  for (const match of row.reference.matchAll(WORD))
    if (nouns.has(match[0].toLowerCase()))
      return { noun: match[0].toLowerCase(), index: match.index, length: match[0].length };
  return null;
}

/** The reference with the noun it takes from sentence 1 swapped for another of sentence 1's nouns. */
export function referentEdit(row: PairRow): string | null {
  const named = namedReferent(row);
  if (!named) return null;
  const present = new Set(tokenize(row.reference).map((token) => token.norm));
  const other = nounsOf(row.firstPiece).find((noun) => noun !== named.noun && !present.has(noun));
  if (!other) return null;
  const original = row.reference.slice(named.index, named.index + named.length);
  return replaceWordAt(row.reference, named.index, named.length, matchCase(original, other));
}

/** The reference with the noun phrase it takes from sentence 1 put back as a pronoun ("it", "its"; "he", "his" for a name). */
export function pronounEdit(row: PairRow): string | null {
  const named = namedReferent(row);
  if (!named) return null;
  const determiner = /\b(?:the|a|an|his|her|their|its|my|your|our)\s+$/iu.exec(
    row.reference.slice(0, named.index),
  );
  const start = determiner ? determiner.index : named.index;
  let end = named.index + named.length;
  const possessive = /^['’]s\b/u.test(row.reference.slice(end));
  if (possessive) end += 2;
  const person = !determiner && /^\p{Lu}/u.test(row.reference.slice(named.index));
  let pronoun = person ? (possessive ? "his" : "he") : possessive ? "its" : "it";
  if (start === 0) pronoun = pronoun[0].toUpperCase() + pronoun.slice(1);
  else if (person && !possessive && !/[.!?]\s*$/.test(row.reference.slice(0, start))) pronoun = "him";
  return row.reference.slice(0, start) + pronoun + row.reference.slice(end);
}

/** Every hard negative of a dataset's rows; `nli` adds the referent kinds. Deterministic (seeded by row order). */
export function hardNegatives(rows: readonly PairRow[], { nli }: { nli: boolean }): HardNegative[] {
  const pairs: HardNegative[] = [];
  const add = (kind: HardNegativeKind, row: PairRow, candidate: string | null) => {
    if (candidate && candidate.trim() !== row.reference.trim())
      pairs.push({ kind, firstPiece: row.firstPiece, reference: row.reference, candidate });
  };
  const byFirst = new Map<string, PairRow[]>();
  for (const row of rows) appendTo(byFirst, row.firstPiece, row);
  for (const group of byFirst.values())
    for (const row of group)
      for (const other of group)
        if (other.reference.trim() !== row.reference.trim()) add("sibling", row, other.reference);
  const pool = [...new Set(rows.flatMap((row) => namesIn(row.reference).map(({ word }) => word)))].sort();
  for (const [index, row] of rows.entries()) {
    add("number", row, numberEdit(row.reference));
    add("entity", row, entityEdit(row, pool, index));
    add("antonym", row, antonymEdit(row.reference));
    if (nli) {
      add("referent", row, referentEdit(row));
      add("pronoun", row, pronounEdit(row));
    }
  }
  return pairs;
}

/** A copying model's answer for an NLI row: sentence 1's clause closest to sentence 2, with its pronoun unresolved. */
export function pronounClauseCopy(
  row: PairRow,
  similarity: (reference: string, candidate: string) => number,
): string {
  let best = row.firstPiece;
  let score = -1;
  for (const answer of copyAnswers(row.firstPiece)) {
    const value = similarity(row.reference, answer);
    if (value > score) {
      score = value;
      best = answer;
    }
  }
  return best;
}
