import { diffArrays } from "diff";
import { lcsLength } from "./lcs";
import type { Token } from "./tokens";

/**
 * heuristic-8's reading of a pair by position: the two texts aligned as sequences by a word-level diff (jsdiff's
 * Myers diff, under the judge's own word equivalence), and the edits a bag of words cannot see: two words that trade
 * places. Pure.
 */

/**
 * The most edits (words inserted plus words deleted) a diff looks for, as a share of both texts' words: past it the
 * texts share at most three quarters of their words in order (ROUGE-L F1 below 0.75), the position of a word says
 * little, and a Myers diff costs the product of the lengths. Such pairs are aligned by their longest common
 * subsequence instead (`align`), which costs a small fraction of that.
 */
export const MAX_EDIT_SHARE = 0.25;

/**
 * The aligned words of two token lists, as index pairs in order: jsdiff's `diffArrays` with `same` as the word
 * equivalence (each distinct pair of forms asked once); null where the texts differ by more edits than
 * `MAX_EDIT_SHARE` of their words (at least 8).
 */
export function alignByDiff(
  reference: readonly Token[],
  candidate: readonly Token[],
  same: (a: Token, b: Token) => boolean,
): [number, number][] | null {
  // Each distinct form gets a number; the answer for a pair of forms is remembered under both numbers.
  const ids = new Map<string, number>();
  const idOf = (token: Token) => {
    let id = ids.get(token.norm);
    if (id === undefined) {
      id = ids.size;
      ids.set(token.norm, id);
    }
    return id;
  };
  const left = reference.map((token) => ({ token, id: idOf(token) }));
  const right = candidate.map((token) => ({ token, id: idOf(token) }));
  const answers = new Map<number, boolean>();
  const forms = ids.size;
  const comparator = (a: { token: Token; id: number }, b: { token: Token; id: number }) => {
    if (a.id === b.id) return true;
    const key = a.id * forms + b.id;
    let value = answers.get(key);
    if (value === undefined) {
      value = same(a.token, b.token);
      answers.set(key, value);
    }
    return value;
  };
  const maxEditLength = Math.max(8, Math.ceil((reference.length + candidate.length) * MAX_EDIT_SHARE));
  const changes = diffArrays(left, right, { comparator, maxEditLength });
  if (!changes) return null;
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  for (const change of changes) {
    const count = change.count ?? change.value.length;
    if (change.removed) i += count;
    else if (change.added) j += count;
    else
      for (let k = 0; k < count; k += 1) {
        pairs.push([i, j]);
        i += 1;
        j += 1;
      }
  }
  return pairs;
}

/** Words that only join two items of a list: swapping the items around them ("Tom and Jerry") keeps the facts. */
const CONJUNCTIONS = new Set(["and", "or", "nor", "&"]);

/** Most loose words of an answer tried as one half of a swap: more than this is a rewording, not a swap. */
export const MAX_SWAP_CANDIDATES = 8;

/**
 * Two words of the answer that traded places: swapping them back aligns at least two more words with the reference
 * (one more, for two names side by side: "Hawn Goldie" for "Goldie Hawn"). Only words that carry content (content
 * words, numbers, names) the reference has too, one of them not aligned by the diff; two items of a list joined by
 * "and" or "or" are not read so. Returns the two words in the answer's order, or null.
 */
export function swappedWords(
  reference: readonly Token[],
  candidate: readonly Token[],
  pairs: readonly [number, number][],
  carriesContent: (token: Token) => boolean,
): [Token, Token] | null {
  const referenceNorms = reference.map((token) => token.norm);
  const present = new Set(referenceNorms);
  const movable = (token: Token) => (carriesContent(token) || isName(token)) && present.has(token.norm);
  const aligned = new Set(pairs.map(([, j]) => j));
  const loose = candidate.flatMap((token, j) => (!aligned.has(j) && movable(token) ? [j] : []));
  if (loose.length === 0 || loose.length > MAX_SWAP_CANDIDATES) return null;
  const norms = candidate.map((token) => token.norm);
  const base = lcsLength(referenceNorms, norms);
  for (const p of loose)
    for (let q = 0; q < candidate.length; q += 1) {
      if (q === p || norms[q] === norms[p] || !movable(candidate[q])) continue;
      const [first, second] = p < q ? [p, q] : [q, p];
      const between = norms.slice(first + 1, second);
      if (between.length === 1 && CONJUNCTIONS.has(between[0])) continue;
      const needed = second === first + 1 && isName(candidate[first]) && isName(candidate[second]) ? 1 : 2;
      const swapped = [...norms];
      swapped[p] = norms[q];
      swapped[q] = norms[p];
      if (lcsLength(referenceNorms, swapped) - base >= needed) return [candidate[first], candidate[second]];
    }
  return null;
}

/** A capitalised word inside a sentence: a name, or a word of one. */
const isName = (token: Token) => !token.sentenceStart && /^\p{Lu}/u.test(token.text);

/**
 * The gaps of an alignment, where a run only the reference has and a run only the answer has stand side by side or
 * one aligned word apart, as many words each, read as one substitution (the aligned word on both sides): a diff may align a recurring
 * word with either of its occurrences, and "Quiara Alegría Hudes" -> "Alegría Alegría Hudes" is the same edit
 * whichever it picks. Gaps where both texts have words are returned as they are; with `oneSided`, also the words only
 * one text has (an insertion or a deletion).
 */
export function positionGaps(
  reference: readonly Token[],
  candidate: readonly Token[],
  pairs: readonly [number, number][],
  oneSided = false,
): { reference: Token[]; candidate: Token[] }[] {
  // Every gap between aligned words, with the aligned pair that ends it.
  const raw: { i: number; pi: number; j: number; pj: number }[] = [];
  let i = 0;
  let j = 0;
  for (const [pi, pj] of [...pairs, [reference.length, candidate.length] as [number, number]]) {
    if (pi > i || pj > j) raw.push({ i, pi, j, pj });
    i = pi + 1;
    j = pj + 1;
  }
  const gaps: { reference: Token[]; candidate: Token[] }[] = [];
  for (let k = 0; k < raw.length; k += 1) {
    const gap = raw[k];
    const next = raw[k + 1];
    const onlyReference = (g: typeof gap) => g.pi > g.i && g.pj === g.j;
    const onlyCandidate = (g: typeof gap) => g.pj > g.j && g.pi === g.i;
    if (
      next &&
      next.i === gap.pi + 1 &&
      next.j === gap.pj + 1 &&
      ((onlyReference(gap) && onlyCandidate(next)) || (onlyCandidate(gap) && onlyReference(next))) &&
      // as many words out as in: a word for a word, not a clause dropped here and another added there
      gap.pi - gap.i + (next.pi - next.i) === gap.pj - gap.j + (next.pj - next.j)
    ) {
      gaps.push({ reference: reference.slice(gap.i, next.pi), candidate: candidate.slice(gap.j, next.pj) });
      k += 1;
    } else if ((gap.pi > gap.i && gap.pj > gap.j) || oneSided)
      gaps.push({ reference: reference.slice(gap.i, gap.pi), candidate: candidate.slice(gap.j, gap.pj) });
  }
  return gaps;
}

/**
 * A text with its letters' accents and other combining marks removed ("Gülen" is "Gulen", "Mérida" is "Merida"), in
 * its composed form again: heuristic-8 reads a word with or without its accents as one spelling.
 */
export function withoutAccents(text: string): string {
  if (!/[\u0080-\uffff]/.test(text)) return text;
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .normalize("NFC");
}
