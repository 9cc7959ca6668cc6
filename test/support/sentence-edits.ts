import fs from "node:fs";
import { parse } from "csv-parse/sync";
import { eng as ENGLISH_STOP_WORDS } from "stopword";
import { wordNetPoses } from "../../src/judge/lexicon";
import { sharedFile } from "./shared-data";

/**
 * One-slot edits of real passages, placed where a bag-of-words reading fails: at any occurrence of a word (also where
 * it recurs), two words trading places, a word of the text moved into another's place. Every choice (which passage,
 * which window of it, which occurrence, which replacement) is an index the caller draws, so that fast-check can draw
 * and shrink them. Parts of speech come from WordNet and a word's neighbours, never from the tagger the judge reads.
 *
 * Changed-fact kinds (the judge must say INEXACT): `swap-names`, `swap-nouns`, `noun` and `verb` (replaced at one
 * occurrence, by a word of the same kind from elsewhere in the data), `recurring-noun` (a noun the passage has twice
 * or more, replaced at one of its occurrences), `year`, `moved-in` (a name replaced by another name of the same
 * passage), `negation`. Same-fact kinds (the judge must say EXACT or NEAR_EXACT): `spelling` (British / American),
 * `accent` (a word written with or without its accents), `case`, `punctuation`, `article` (one article dropped),
 * `contraction`, `thousands`.
 */
export const CHANGED_KINDS = [
  "swap-names",
  "swap-nouns",
  "noun",
  "verb",
  "recurring-noun",
  "year",
  "moved-in",
  "negation",
] as const;
export const SAME_KINDS = [
  "spelling",
  "accent",
  "case",
  "punctuation",
  "article",
  "contraction",
  "thousands",
] as const;
export type EditKind = (typeof CHANGED_KINDS)[number] | (typeof SAME_KINDS)[number];
export const EDIT_KINDS: readonly EditKind[] = [...CHANGED_KINDS, ...SAME_KINDS];
export const keepsFactOf = (kind: EditKind) => (SAME_KINDS as readonly string[]).includes(kind);

export interface Passage {
  dataset: string;
  /** The text before the passage (the prompt's first piece), may be empty. */
  before: string;
  text: string;
}

export interface SentenceEdit {
  kind: EditKind;
  dataset: string;
  firstPiece: string;
  reference: string;
  candidate: string;
}

/** The draws an edit is made from: each an arbitrary non-negative integer, reduced modulo what it picks from. */
export interface EditDraws {
  passage: number;
  start: number;
  length: number;
  slot: number;
  other: number;
}

interface Word {
  word: string;
  index: number;
}

const WORD = /\p{L}[\p{L}\p{M}'’-]*\p{L}|\p{L}/gu;
const wordsOf = (text: string): Word[] =>
  [...text.matchAll(WORD)].map((m) => ({ word: m[0], index: m.index }));
const replaceAt = (text: string, index: number, length: number, replacement: string) =>
  text.slice(0, index) + replacement + text.slice(index + length);
const pick = <T>(items: readonly T[], draw: number): T => items[draw % items.length];

const DETERMINER =
  /\b(?:the|a|an|his|her|their|its|our|this|that|these|those|of|in|on|at|for|with|by|from)\s+$/iu;

function isNoun(word: string): boolean {
  if (STOP_WORDS.has(word.toLowerCase())) return false;
  const poses = wordNetPoses(word.toLowerCase());
  return poses.has("noun") && !poses.has("verb") && !poses.has("adj") && !poses.has("adv");
}

/** Common nouns: lower-case words of 4+ letters after a determiner or preposition, WordNet nouns only. */
function nounsIn(text: string): Word[] {
  return wordsOf(text).filter(
    ({ word, index }) =>
      /^\p{Ll}{4,}$/u.test(word) &&
      isNoun(word) &&
      DETERMINER.test(text.slice(Math.max(0, index - 12), index)),
  );
}

function verbsIn(text: string): Word[] {
  return wordsOf(text).filter(({ word }) => {
    if (!/^\p{Ll}{3,}(?:ed|es)$/u.test(word)) return false;
    const poses = wordNetPoses(word.toLowerCase());
    return poses.has("verb") && !poses.has("noun") && !poses.has("adj");
  });
}

/** Names: capitalised words of 4+ letters that do not start a sentence, not WordNet common words in lower case. */
function namesIn(text: string): Word[] {
  return wordsOf(text).filter(({ word, index }) => {
    if (!/^\p{Lu}\p{Ll}{3,}$/u.test(word)) return false;
    const before = text.slice(0, index).trimEnd();
    if (before === "" || /[.!?:"“]$/.test(before)) return false;
    return wordNetPoses(word.toLowerCase()).size === 0;
  });
}

const STOP_WORDS = new Set(ENGLISH_STOP_WORDS);
const stemish = (word: string) => word.toLowerCase().replace(/(?:es|s|ed|ing)$/u, "");

/** A window of the passage's words, 5 to 100 long, and the text before it. */
function window(passage: Passage, draws: EditDraws): { before: string; text: string } {
  const words = [...passage.text.matchAll(/\S+/g)];
  if (words.length <= 5) return { before: passage.before, text: passage.text };
  const length = 5 + (draws.length % Math.min(96, words.length - 4));
  const start = draws.start % (words.length - length + 1);
  const from = words[start].index;
  const last = words[start + length - 1];
  const to = last.index + last[0].length;
  return {
    before: `${passage.before} ${passage.text.slice(0, from)}`.trim(),
    text: passage.text.slice(from, to),
  };
}

const SPELLINGS: [string, string][] = [
  ["center", "centre"],
  ["color", "colour"],
  ["honor", "honour"],
  ["labor", "labour"],
  ["favorite", "favourite"],
  ["theater", "theatre"],
  ["defense", "defence"],
  ["organization", "organisation"],
  ["organized", "organised"],
  ["recognized", "recognised"],
  ["program", "programme"],
  ["traveled", "travelled"],
  ["neighbor", "neighbour"],
  ["behavior", "behaviour"],
  ["analyze", "analyse"],
  ["realized", "realised"],
  ["harbor", "harbour"],
  ["meter", "metre"],
  ["catalog", "catalogue"],
  ["gray", "grey"],
];

const CONTRACTIONS: [RegExp, string][] = [
  [/\b(do|does|did|is|was|were|are|has|have|had|would|could|should)\s+not\b/iu, "$1n't"],
  [/\b(do|does|did|is|was|were|are|has|have|had|would|could|should)n['’]t\b/iu, "$1 not"],
  [/\b(it|he|she|that|there)\s+is\b/iu, "$1's"],
  [/\bwill not\b/iu, "won't"],
];

const stripAccents = (text: string) => text.normalize("NFD").replace(/\p{M}+/gu, "");

const NEGATABLE = /\b(is|was|are|were|has|had|have|will|can|would|could|does|did)\s+(?!not\b|['’])/giu;

/**
 * The edit of one kind the draws make of a passage, or null where the passage has nothing of that kind.
 * `pools` holds words of the same kinds from the whole data, for replacements.
 */
export function editOf(
  kind: EditKind,
  passage: Passage,
  draws: EditDraws,
  pools: { nouns: readonly string[]; verbs: readonly string[] },
): SentenceEdit | null {
  const { before, text } = window(passage, draws);
  const made = (candidate: string | null): SentenceEdit | null =>
    candidate === null || candidate === text
      ? null
      : { kind, dataset: passage.dataset, firstPiece: before, reference: text, candidate };
  const fromPool = (slots: Word[], pool: readonly string[]) => {
    if (slots.length === 0) return null;
    const slot = pick(slots, draws.slot);
    const present = new Set(wordsOf(text).map(({ word }) => stemish(word)));
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const other = pick(pool, draws.other + attempt * 7919);
      if (!present.has(stemish(other))) return replaceAt(text, slot.index, slot.word.length, other);
    }
    return null;
  };
  const swap = (slots: Word[]) => {
    const distinct = [...new Map(slots.map((slot) => [stemish(slot.word), slot])).values()];
    if (distinct.length < 2) return null;
    const a = pick(distinct, draws.slot);
    const rest = distinct.filter((slot) => slot !== a);
    const b = pick(rest, draws.other);
    const [first, second] = a.index < b.index ? [a, b] : [b, a];
    return (
      text.slice(0, first.index) +
      second.word +
      text.slice(first.index + first.word.length, second.index) +
      first.word +
      text.slice(second.index + second.word.length)
    );
  };
  switch (kind) {
    case "swap-names":
      return made(swap(namesIn(text)));
    case "swap-nouns":
      return made(swap(nounsIn(text)));
    case "noun":
      return made(fromPool(nounsIn(text), pools.nouns));
    case "verb":
      return made(fromPool(verbsIn(text), pools.verbs));
    case "recurring-noun": {
      const nouns = nounsIn(text);
      const counts = new Map<string, number>();
      for (const { word } of wordsOf(text)) counts.set(stemish(word), (counts.get(stemish(word)) ?? 0) + 1);
      return made(
        fromPool(
          nouns.filter(({ word }) => (counts.get(stemish(word)) ?? 0) >= 2),
          pools.nouns,
        ),
      );
    }
    case "year": {
      const years = [...text.matchAll(/\b(1[5-9]\d\d|20[0-2]\d)\b/g)];
      if (years.length === 0) return null;
      const year = pick(years, draws.slot);
      const shift = 1 + (draws.other % 30);
      return made(
        replaceAt(text, year.index, 4, String(Number(year[0]) + (draws.other % 2 ? shift : -shift))),
      );
    }
    case "moved-in": {
      const names = namesIn(text);
      const distinct = [...new Set(names.map(({ word }) => word))];
      if (distinct.length < 2) return null;
      const slot = pick(names, draws.slot);
      const other = pick(
        distinct.filter((word) => word !== slot.word),
        draws.other,
      );
      return made(replaceAt(text, slot.index, slot.word.length, other));
    }
    case "negation": {
      const spots = [...text.matchAll(NEGATABLE)];
      if (spots.length === 0) return null;
      const spot = pick(spots, draws.slot);
      return made(replaceAt(text, spot.index, spot[0].length, `${spot[1]} not `));
    }
    case "spelling": {
      const found: { index: number; length: number; replacement: string }[] = [];
      for (const { word, index } of wordsOf(text))
        for (const [us, uk] of SPELLINGS) {
          const lower = word.toLowerCase();
          const other = lower === us ? uk : lower === uk ? us : null;
          if (other)
            found.push({
              index,
              length: word.length,
              replacement: /^\p{Lu}/u.test(word) ? other[0].toUpperCase() + other.slice(1) : other,
            });
        }
      if (found.length === 0) return null;
      const spot = pick(found, draws.slot);
      return made(replaceAt(text, spot.index, spot.length, spot.replacement));
    }
    case "accent": {
      const accented = wordsOf(text).filter(({ word }) => stripAccents(word) !== word);
      if (accented.length === 0) return null;
      const spot = pick(accented, draws.slot);
      return made(replaceAt(text, spot.index, spot.word.length, stripAccents(spot.word)));
    }
    case "case":
      return made(draws.slot % 2 ? text.toLowerCase() : text.toUpperCase());
    case "punctuation": {
      const marks = [...text.matchAll(/[,;:()"]/g)];
      if (marks.length > 0) {
        const mark = pick(marks, draws.slot);
        return made(replaceAt(text, mark.index, 1, ""));
      }
      return made(/[.!?]$/.test(text) ? text.slice(0, -1) : `${text}.`);
    }
    case "article": {
      const articles = [...text.matchAll(/\b(?:the|a|an)\s+(?=\p{L})/giu)];
      if (articles.length === 0) return null;
      const article = pick(articles, draws.slot);
      return made(replaceAt(text, article.index, article[0].length, ""));
    }
    case "contraction": {
      const rules = CONTRACTIONS.filter(([pattern]) => pattern.test(text));
      if (rules.length === 0) return null;
      const [pattern, replacement] = pick(rules, draws.slot);
      return made(text.replace(pattern, replacement));
    }
    case "thousands": {
      const separated = [...text.matchAll(/\b\d{1,3}(?:,\d{3})+\b/g)];
      if (separated.length > 0) {
        const number = pick(separated, draws.slot);
        return made(replaceAt(text, number.index, number[0].length, number[0].replaceAll(",", "")));
      }
      const plain = [...text.matchAll(/\b\d{5,}\b/g)];
      if (plain.length === 0) return null;
      const number = pick(plain, draws.slot);
      return made(replaceAt(text, number.index, number[0].length, Number(number[0]).toLocaleString("en-US")));
    }
  }
}

/** Passages of every shared dataset: RTE and WNLI sentence 2 after sentence 1, TREC questions, DBpedia texts. */
export function sharedPassages(): Passage[] {
  const passages: Passage[] = [];
  const rte = fs
    .readFileSync(sharedFile("datasets", "rte", "train.tsv"), "utf8")
    .split("\n")
    .slice(1);
  for (const line of rte) {
    const [, s1, s2] = line.split("\t");
    if (s1 && s2) passages.push({ dataset: "rte", before: "", text: `${s1} ${s2}` });
  }
  const wnli = parse(fs.readFileSync(sharedFile("datasets", "wnli", "validation.csv")), {
    columns: true,
  }) as Record<string, string>[];
  for (const row of wnli) {
    const [s1, s2] = [row.sentence1 ?? row.text1, row.sentence2 ?? row.text2];
    if (s1 && s2) passages.push({ dataset: "wnli", before: s1, text: s2 });
  }
  for (const file of ["train_5500.label", "TREC_10.label"])
    for (const line of fs.readFileSync(sharedFile("datasets", "trec", file), "latin1").split("\n")) {
      const text = line.replace(/^\S+\s+/, "").trim();
      if (text) passages.push({ dataset: "trec", before: "", text });
    }
  const dbpedia = parse(fs.readFileSync(sharedFile("datasets", "dbpedia", "sample.csv"))) as string[][];
  for (const [, text] of dbpedia) if (text) passages.push({ dataset: "dbpedia", before: "", text });
  return passages;
}

/** The replacement words: common nouns and verbs of every passage, sorted. */
export function poolsOf(passages: readonly Passage[]): { nouns: string[]; verbs: string[] } {
  const nouns = new Set<string>();
  const verbs = new Set<string>();
  for (const { text } of passages) {
    for (const { word } of nounsIn(text)) nouns.add(word);
    for (const { word } of verbsIn(text)) verbs.add(word);
  }
  return { nouns: [...nouns].sort(), verbs: [...verbs].sort() };
}
