import { areAntonyms, areSynonyms } from "./lexicon";
import { contentClass, sameLemma, sameLetters, tagOf, tagTokens, typoOf } from "./meaning";
import { positionGaps, swappedWords } from "./positions";
import { negationCount, type Token, tokenize } from "./tokens";

/**
 * heuristic-6's view of a pair: which spans of the answer differ from the reference, and whether a differing span
 * changes what the sentence claims (a number, a date, a named entity, a polarity, a referent) rather than how it
 * says it. Pure: the texts in, the evidence out.
 */

const NUMBER_WORDS: Record<string, string> = Object.fromEntries(
  [
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen",
    "seventeen eighteen nineteen twenty",
  ]
    .join(" ")
    .split(" ")
    .map((word, value) => [word, String(value)]),
);
for (const [word, value] of Object.entries({
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
  thousand: 1_000,
  million: 1e6,
  billion: 1e9,
  trillion: 1e12,
  dozen: 12,
  first: "1st",
  second: "2nd",
  third: "3rd",
  fourth: "4th",
  fifth: "5th",
  sixth: "6th",
  seventh: "7th",
  eighth: "8th",
  ninth: "9th",
  tenth: "10th",
  once: "1x",
  twice: "2x",
  half: 0.5,
}))
  NUMBER_WORDS[word] = String(value);

const DATE_WORDS = new Set(
  (
    "january february march april may june july august september october november december jan feb mar apr jun jul" +
    " aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday today yesterday tomorrow" +
    " tonight spring summer autumn fall winter"
  ).split(" "),
);
/** Month and day names that are also common words: a date only when capitalised ("May", not "may"). */
const CASED_DATE_WORDS = new Set([
  "may",
  "march",
  "fall",
  "spring",
  "summer",
  "winter",
  "autumn",
  "sun",
  "sat",
]);

/** Each word's number value, remembered: the judge asks it of every pair of words it compares. */
const numberValues = new Map<string, string | null>();

/** The value a number token stands for ("three" and "3" are one number; "50th" and "fiftieth" are not read). */
export function numberValue(token: Token): string | null {
  let value = numberValues.get(token.norm);
  if (value === undefined) {
    value = /\d/.test(token.norm) ? token.norm.replace(/^0+(?=\d)/, "") : (NUMBER_WORDS[token.norm] ?? null);
    if (numberValues.size > 100_000) numberValues.clear();
    numberValues.set(token.norm, value);
  }
  return value;
}

function isDate(token: Token): boolean {
  if (!DATE_WORDS.has(token.norm)) return false;
  return !CASED_DATE_WORDS.has(token.norm) || /^\p{Lu}/u.test(token.text);
}

const PRONOUNS = new Set(
  "he she it they him her them his hers its their theirs himself herself itself themselves this that these those".split(
    " ",
  ),
);

/** What a changed span changes ("order": heuristic-8's two words that traded places). */
export type SlotKind = "number" | "date" | "entity" | "antonym" | "referent" | "content" | "order";

/**
 * How a version reads a pair's spans: heuristic-6 by its changed slots ("span"), heuristic-7 also for form and fact
 * ("meaning"), heuristic-8 also by position ("position": a word counts as lost or gained by how often each text
 * has it, and two words that trade places are a changed slot).
 */
export type SpanReading = "span" | "meaning" | "position";

/**
 * heuristic-8's account of one span where the texts differ: a changed fact (with its slot kind), a change of form,
 * or a span it cannot class (a rewording, a clause added or dropped): the verdict rests on the overlap rules there.
 */
export interface ClassedSpan {
  reading: "form" | "fact" | "unsure";
  /** A fact's kind: a changed slot's, or "negation" (a negation added or dropped). */
  kind: SlotKind | "negation" | null;
  reference: string;
  candidate: string;
}

export interface ChangedSlot {
  kind: SlotKind;
  /** The reference's words in the span, as written. */
  reference: string;
  /** The answer's words in the span. */
  candidate: string;
}

/** Where answer and reference differ: the reference's words and the answer's between two aligned words. */
export interface Gap {
  reference: Token[];
  candidate: Token[];
}

/**
 * Two tokens are the same word: the same form, the same stem, or (content words) WordNet synonyms. With `meaning`
 * (heuristic-7) also the same number in another form ("five", "5") and one word with a typo (`typoOf`).
 */
export function sameWord(a: Token, b: Token, meaning = false): boolean {
  if (a.norm === b.norm) return true;
  if (meaning) {
    const value = numberValue(a);
    if (value !== null && value === numberValue(b)) return true;
    if (typoOf(a, b)) return true;
  }
  if (!a.content || !b.content) return false;
  return a.stem === b.stem || areSynonyms(a.norm, b.norm);
}

/** The longest common subsequence of two token lists under `sameWord`, as index pairs. */
export function align(
  reference: readonly Token[],
  candidate: readonly Token[],
  meaning = false,
): [number, number][] {
  const n = reference.length;
  const m = candidate.length;
  // Words as small integers, and the answer of `sameWord` for each distinct pair computed once.
  const ids = new Map<string, number>();
  const idOf = (token: Token) => {
    let id = ids.get(token.norm);
    if (id === undefined) {
      id = ids.size;
      ids.set(token.norm, id);
    }
    return id;
  };
  const left = reference.map(idOf);
  const right = candidate.map(idOf);
  const distinct = ids.size;
  const same = new Map<number, boolean>();
  const matches = Array.from({ length: n }, () => new Uint8Array(m));
  for (let i = 0; i < n; i += 1)
    for (let j = 0; j < m; j += 1) {
      if (left[i] === right[j]) {
        matches[i][j] = 1;
        continue;
      }
      const key = left[i] * distinct + right[j];
      let value = same.get(key);
      if (value === undefined) {
        value = sameWord(reference[i], candidate[j], meaning);
        same.set(key, value);
      }
      if (value) matches[i][j] = 1;
    }
  const equal = (i: number, j: number) => matches[i][j] === 1;
  const table = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    const row = table[i];
    const below = table[i + 1];
    const match = matches[i];
    for (let j = m - 1; j >= 0; j -= 1)
      row[j] = match[j] === 1 ? below[j + 1] + 1 : Math.max(below[j], row[j + 1]);
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (equal(i, j) && table[i][j] === table[i + 1][j + 1] + 1) {
      pairs.push([i, j]);
      i += 1;
      j += 1;
    } else if (table[i + 1][j] >= table[i][j + 1]) i += 1;
    else j += 1;
  }
  return pairs;
}

/** The spans between aligned words where both texts have words of their own (substitutions, not additions). */
export function substitutions(
  reference: readonly Token[],
  candidate: readonly Token[],
  pairs: readonly [number, number][],
): Gap[] {
  const gaps: Gap[] = [];
  let i = 0;
  let j = 0;
  for (const [pi, pj] of [...pairs, [reference.length, candidate.length] as [number, number]]) {
    if (pi > i && pj > j) gaps.push({ reference: reference.slice(i, pi), candidate: candidate.slice(j, pj) });
    i = pi + 1;
    j = pj + 1;
  }
  return gaps;
}

/** The reference's named entities, by its own casing: capitalised words that are not stop words, and quoted words. */
export function entityWords(reference: string, tokens: readonly Token[], context = ""): Set<string> {
  const entities = new Set<string>();
  const midSentenceCapitals = new Set(
    [...tokens, ...tokenize(context)]
      .filter((token) => !token.sentenceStart && /^\p{Lu}/u.test(token.text))
      .map((token) => token.norm),
  );
  for (const token of tokens) {
    if (!token.content || !/^\p{Lu}/u.test(token.text)) continue;
    if (!token.sentenceStart || midSentenceCapitals.has(token.norm) || /^\p{Lu}{2,}$/u.test(token.text))
      entities.add(token.norm);
  }
  for (const quoted of reference.matchAll(/["“]([^"”\n]{1,80})["”]/g))
    for (const token of tokenize(quoted[1])) if (token.content) entities.add(token.norm);
  return entities;
}

export interface SlotContext {
  /** The instance's first piece (the prompt's text before the reference), when the judge knows it. */
  firstPiece?: string;
  /** An NLI instance: sentence 2 names what sentence 1's pronoun refers to, so a changed referent is checked. */
  nli?: boolean;
}

/** How often each number occurs, by value. */
function numberCounts(tokens: readonly Token[]): Map<string, number> {
  const found = new Map<string, number>();
  for (const token of tokens) {
    const value = numberValue(token);
    if (value !== null) found.set(value, (found.get(value) ?? 0) + 1);
  }
  return found;
}

/** How often each stem occurs. */
function counts(tokens: readonly Token[]): Map<string, number> {
  const found = new Map<string, number>();
  for (const token of tokens) found.set(token.stem, (found.get(token.stem) ?? 0) + 1);
  return found;
}

/** The token's word occurs fewer times in `other` than in `own`: the other text lost (or never had) one. */
const fewer = (other: Map<string, number>, own: Map<string, number>, token: Token) =>
  (other.get(token.stem) ?? 0) < (own.get(token.stem) ?? 0);

const render = (tokens: readonly Token[]) => tokens.map((token) => token.text).join(" ");

/**
 * The substitutions that change a claim: a number or a date for another one; a named entity of the reference
 * for a new capitalised word; a word for its opposite (`areAntonyms`); and (NLI) a word sentence 1 names for a
 * pronoun or for another of sentence 1's words. A word counts as removed only when the answer has it fewer times
 * than the reference (and added likewise): a reordered paraphrase moves words, it does not change them.
 */
export function changedSlots(
  reference: string,
  candidate: string,
  context: SlotContext = {},
  referenceTokens = tokenize(reference),
  candidateTokens = tokenize(candidate),
  pairs = align(referenceTokens, candidateTokens),
  reading: SpanReading = "span",
  classed?: ClassedSpan[],
): ChangedSlot[] {
  const found =
    classed === undefined
      ? undefined
      : ([] as (Omit<ClassedSpan, "reading"> & { reading: ClassedSpan["reading"] | "moved" })[]);
  const meaning = reading !== "span";
  const counted = reading === "position";
  const gaps = counted
    ? positionGaps(referenceTokens, candidateTokens, pairs, classed !== undefined)
    : substitutions(referenceTokens, candidateTokens, pairs);
  const inCandidate = counts(candidateTokens);
  const inReference = counts(referenceTokens);
  const referenceNumbers = numberCounts(referenceTokens);
  const candidateNumbers = numberCounts(candidateTokens);
  // heuristic-8 counts: a number the answer has fewer times than the reference was changed somewhere, even where the
  // answer keeps it elsewhere ("From 1895 to 1898 ... in 1898" -> "... in 1922").
  const lostNumber = (value: string) =>
    counted
      ? (candidateNumbers.get(value) ?? 0) < (referenceNumbers.get(value) ?? 0)
      : !candidateNumbers.has(value);
  const gainedNumber = (value: string) =>
    counted
      ? (referenceNumbers.get(value) ?? 0) < (candidateNumbers.get(value) ?? 0)
      : !referenceNumbers.has(value);
  const entities = entityWords(reference, referenceTokens, context.firstPiece);
  const firstPiece =
    context.nli && context.firstPiece ? new Set(tokenize(context.firstPiece).map((t) => t.norm)) : null;
  const slots: ChangedSlot[] = [];
  let tagged = false;
  // Gaps already named as a fact (a negation), not classed again.
  const named = new Set<object>();
  const classify = (
    gap: { reference: Token[]; candidate: Token[] },
    reading: ClassedSpan["reading"] | "moved",
  ) => {
    if (!named.has(gap))
      found?.push({
        reading,
        kind: null,
        reference: render(gap.reference),
        candidate: render(gap.candidate),
      });
  };
  for (const gap of gaps) {
    // heuristic-7: the same letters written together or apart ("wellknown", "well-known") are one form.
    if (meaning && sameLetters(gap.reference, gap.candidate)) {
      classify(gap, "form");
      continue;
    }
    const before = slots.length;
    const add = (kind: SlotKind) => {
      slots.push({ kind, reference: render(gap.reference), candidate: render(gap.candidate) });
      found?.push({ ...slots[slots.length - 1], reading: "fact" });
    };
    const removed = gap.reference.filter((token) => fewer(inCandidate, inReference, token));
    const added = gap.candidate.filter((token) => fewer(inReference, inCandidate, token));
    const norms = (tokens: readonly Token[]) => tokens.map((token) => token.norm);
    if (found && negationCount(norms(gap.reference)) !== negationCount(norms(gap.candidate))) {
      // A negation added or dropped (the overlap rules' `sameNegation` decides the verdict; this names the span).
      named.add(gap);
      found.push({
        reading: "fact",
        kind: "negation",
        reference: render(gap.reference),
        candidate: render(gap.candidate),
      });
      if (gap.reference.length === 0 || gap.candidate.length === 0) continue;
    }
    if (gap.reference.length === 0 || gap.candidate.length === 0) {
      // Words only one text has (`classed` only): a content word added or dropped is a clause the judge cannot
      // class; a function word or a word that only moved is form.
      classify(gap, [...removed, ...added].some((token) => token.content) ? "unsure" : "form");
      continue;
    }
    const removedNumber = removed.some((token) => {
      const value = numberValue(token);
      return value !== null && lostNumber(value);
    });
    const addedNumber = added.some((token) => {
      const value = numberValue(token);
      return value !== null && gainedNumber(value);
    });
    if (removedNumber && addedNumber) add("number");
    else if (removed.some(isDate) && added.some(isDate)) add("date");
    else if (
      removed.some((token) => entities.has(token.norm)) &&
      // The new entity is a capitalised word the reference does not have at all ("Iowa" for "the Hawkeyes" of
      // "Iowa State" names the same team); heuristic-8: or has fewer times where one word takes another's place
      // (a name of the passage moved in: "Reinhard Reff" -> "Reinhard Reinhard"; `added` holds only such words).
      added.some(
        (token) =>
          token.content &&
          numberValue(token) === null &&
          /^\p{Lu}/u.test(token.text) &&
          (!inReference.has(token.stem) || (counted && gap.reference.length === gap.candidate.length)),
      )
    )
      add("entity");
    else if (
      // heuristic-8 pairs only words one text has more often than the other: a word both keep opposes nothing.
      (counted ? removed : gap.reference).some((a) =>
        (counted ? added : gap.candidate).some((b) => a.norm !== b.norm && areAntonyms(a.norm, b.norm)),
      )
    )
      add("antonym");
    else if (firstPiece) {
      const named = gap.reference.filter(
        (token) =>
          token.content && firstPiece.has(token.norm) && !gap.candidate.some((c) => c.norm === token.norm),
      );
      const other = gap.candidate.some(
        (token) =>
          PRONOUNS.has(token.norm) ||
          (token.content && firstPiece.has(token.norm) && !gap.reference.some((r) => r.norm === token.norm)),
      );
      if (named.length > 0 && other) add("referent");
    }
    // A swap, one content word for one: a gap with more words on one side is a rewording or an addition, which
    // the overlap rules judge ("on Friday" -> "victory over Iowa State" is near-exact to the gold file's humans).
    const contentOf = (tokens: readonly Token[]) => tokens.filter((token) => token.content).length;
    if (
      meaning &&
      slots.length === before &&
      removed.some((t) => t.content) &&
      added.some((t) => t.content) &&
      contentOf(gap.reference) === contentOf(gap.candidate)
    ) {
      if (!tagged) {
        tagTokens(reference, referenceTokens);
        tagTokens(candidate, candidateTokens);
        tagged = true;
      }
      if (contentReplaced(removed, added, referenceTokens, candidateTokens, counted)) add("content");
    }
    if (slots.length === before) {
      // No changed fact: a swap of as many content words each that is not a changed fact is a lemma's other form,
      // a synonym or a typo; a rewording (more content words on one side) is what the judge cannot class.
      const changesContent = [...removed, ...added].some((token) => token.content);
      const movesContent = [...gap.reference, ...gap.candidate].some((token) => token.content);
      classify(
        gap,
        changesContent
          ? contentOf(gap.reference) !== contentOf(gap.candidate)
            ? "unsure"
            : "form"
          : movesContent
            ? "moved"
            : "form",
      );
    }
  }
  if (counted && slots.length === 0) {
    // Two words that trade places say another thing with the same words ("Tributaries include the Chiwawa River"
    // with the river names exchanged): no gap loses a word, so only their positions show it.
    const swap = swappedWords(
      referenceTokens,
      candidateTokens,
      pairs,
      (token) => token.content || numberValue(token) !== null,
    );
    if (swap) {
      slots.push({ kind: "order", reference: swap[0].text, candidate: swap[1].text });
      // The words that moved are the spans to show; the pair itself where the alignment has no gap for them.
      if (found && !found.some((span) => span.reading === "moved"))
        found.push({ ...slots[slots.length - 1], reading: "fact" });
    }
  }
  if (firstPiece && !slots.some((slot) => slot.kind === "referent")) {
    // Sentence 2 of an NLI pair names what sentence 1's pronoun refers to. An answer that keeps the pronoun
    // (more personal pronouns than the reference) or starts without the reference's opening words of sentence 1
    // (its subject, the referent: "was very ill." for "Carl was very ill.") has not resolved it.
    const pronouns = (tokens: readonly Token[]) => tokens.filter((token) => PERSONAL.has(token.norm)).length;
    const lead = pairs.length > 0 ? referenceTokens.slice(0, pairs[0][0]) : [];
    const leadDropped =
      pairs.length > 0 &&
      pairs[0][1] === 0 &&
      lead.some(
        (token) => token.content && firstPiece.has(token.norm) && fewer(inCandidate, inReference, token),
      );
    if (pronouns(candidateTokens) > pronouns(referenceTokens) || leadDropped) {
      slots.push({
        kind: "referent",
        reference: render(lead),
        candidate: render(candidateTokens.slice(0, 3)),
      });
      found?.push({ ...slots[slots.length - 1], reading: "fact" });
    }
  }
  if (classed && found) {
    // Content words that only moved: part of the changed order where two words traded places, else a reordering
    // the judge cannot class.
    const order = slots.some((slot) => slot.kind === "order");
    for (const span of found)
      classed.push(
        span.reading === "moved"
          ? { ...span, reading: order ? "fact" : "unsure", kind: order ? "order" : null }
          : (span as ClassedSpan),
      );
  }
  return slots;
}

/**
 * heuristic-7: a content word the answer lost replaced by a content word of the same kind (noun, verb, adjective,
 * adverb) the reference does not have, where the two are not forms of one lemma, synonyms, or one word with a typo:
 * "breast cancer" -> "breast diabetes", "killed" -> "injured". A word that only moved, or whose lemma the other text
 * has elsewhere, is not lost.
 */
function contentReplaced(
  removed: readonly Token[],
  added: readonly Token[],
  referenceTokens: readonly Token[],
  candidateTokens: readonly Token[],
  counted = false,
): boolean {
  const lemma = (token: Token) => tagOf(token)?.lemma ?? token.norm;
  const lemmas = (tokens: readonly Token[]) => {
    const found = new Map<string, number>();
    for (const token of tokens) found.set(lemma(token), (found.get(lemma(token)) ?? 0) + 1);
    return found;
  };
  const inReference = lemmas(referenceTokens);
  const inCandidate = lemmas(candidateTokens);
  // heuristic-7: a lemma the other text has anywhere is not lost; heuristic-8: one it has fewer times is (the
  // newspaper named twice, once replaced by "magazine").
  const fewerIn = (other: Map<string, number>, own: Map<string, number>, token: Token) =>
    counted ? (other.get(lemma(token)) ?? 0) < (own.get(lemma(token)) ?? 0) : !other.has(lemma(token));
  const lost = removed.filter(
    (token) => numberValue(token) === null && fewerIn(inCandidate, inReference, token),
  );
  const gained = added.filter(
    (token) => numberValue(token) === null && fewerIn(inReference, inCandidate, token),
  );
  return lost.some((a) => {
    const kind = contentClass(a);
    return (
      kind !== null &&
      gained.some(
        (b) =>
          contentClass(b) !== null &&
          !sameLemma(a, b) &&
          !sameWord(a, b, true) &&
          !areSynonyms(lemma(a), lemma(b)),
      )
    );
  });
}

/** Personal pronouns: the words a referent is left in when it is not resolved. */
const PERSONAL = new Set("he she it they him her them".split(" "));

/**
 * What of a long answer is scored: whole sentences from its start while they stay within the reference's length
 * plus a margin of as much again (at least 5 words), else its first words up to that length. A model that goes on
 * for a paragraph after a paraphrase is scored on the paraphrase; one sentence added to a one-sentence reference
 * still counts, as it does for the humans of the gold file (a margin of a quarter of the reference's length let
 * two answers through that they labelled inexact for what they added; docs/JUDGING.md).
 */
export function scoredPrefix(candidateTokens: readonly Token[], referenceTokens: number): Token[] {
  const limit = referenceTokens + Math.max(5, referenceTokens);
  if (candidateTokens.length <= limit) return [...candidateTokens];
  let end = 0;
  for (let at = 1; at <= limit; at += 1)
    if (at === candidateTokens.length || candidateTokens[at].sentenceStart) end = at;
  return candidateTokens.slice(0, end > 0 ? end : limit);
}
