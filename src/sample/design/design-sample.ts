import { createHash } from "node:crypto";
import { appendTo } from "../../common/collections";
import { RandomStream } from "../../common/random";
import { TRIVIAL_TARGET_WORDS } from "../../study/targets";
import { groupByLabel, interleaveByLabel, labelQuotas } from "./balanced-sampling";
import { CutRange, cutProblem, Segments, segmentInstance } from "./segmentation";

/**
 * The study design's algorithm version; bump it when any choice below changes, so old samples stay explained.
 * 2: no demonstration shares an initial segment with an instance under test (siblings, e.g. WNLI's pairs).
 * 3: single-text cuts leave a subsequent segment of at least `minTargetWords` words where the cut range allows;
 * no two instances under test share an initial segment, and none's initial segment begins a demonstration's
 * text (each left out, with its replacement drawn as for any unusable row).
 */
export const SAMPLE_ALGORITHM_VERSION = 3;

/** The versions a new sample may be drawn by (an older one reproduces a sample drawn before it). */
export const SAMPLE_ALGORITHM_VERSIONS = [2, 3] as const;

export interface SampleParameters {
  /** The design version (SAMPLE_ALGORITHM_VERSION when absent). */
  version?: number;
  /** Version 3: the fewest words a subsequent segment should have (TRIVIAL_TARGET_WORDS by default). */
  minTargetWords?: number;
  seed: number;
  instanceSplit: string;
  demonstrationSplit: string;
  instanceCount: number;
  demonstrationCount: number;
  shotCounts: number[];
  cutRange: CutRange;
}

/** A dataset row as the design sees it: a content-based key (the same in every database) and its label. */
export interface Candidate<Ref = unknown> {
  /** Stable identity: the source file's fingerprint and the row's line. */
  key: string;
  label: string;
  split: string;
  /** Whitespace tokens of its text; null for an NLI pair (always usable: the texts are the segments). */
  tokenCount: number | null;
  /**
   * What a sibling shares with it (`siblingKey`): rows with the same key would show a model the same initial
   * segment with another continuation. NLI: its first text; one text: the text itself. Absent: no check.
   */
  siblingKey?: string;
  ref: Ref;
}

/** Case, spacing and Unicode form do not make rows different for the sibling rule. */
export function siblingKeyOf(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

export interface SampleChoice<Ref> {
  /** Instances under test, in position order. */
  instances: Candidate<Ref>[];
  /** Demonstrations in rank order: the k-shot set is the first k. */
  demonstrations: Candidate<Ref>[];
  /** What was done when the data could not give what was asked (short labels, short texts). */
  notes: string[];
  /** Rows reached while sampling that could not be used, with the reason. */
  exclusions: { candidate: Candidate<Ref>; reason: string }[];
}

export interface DesignedItem<Ref> {
  candidate: Candidate<Ref>;
  segments: Segments;
}

export interface SampleDesign<Ref> extends Omit<SampleChoice<Ref>, "instances" | "demonstrations"> {
  instances: DesignedItem<Ref>[];
  demonstrations: DesignedItem<Ref>[];
  /** SHA-256 over every choice (keys, labels, segments, order): equal designs have equal hashes. */
  contentHash: string;
}

const byKey = <T extends { key: string }>(a: T, b: T) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * Chooses the study sample: `instanceCount` instances from `instanceSplit` and `demonstrationCount`
 * demonstrations from `demonstrationSplit`, each balanced by label, disjoint; demonstrations ordered so
 * that every k-prefix is balanced. Rows too short to cut are skipped (and reported). Pure: the same
 * candidates (in any order) and parameters give the same choice in any process.
 */
export function chooseSample<Ref>(
  candidates: readonly Candidate<Ref>[],
  parameters: SampleParameters,
  /** Version 3: rows that cannot be instances under test (keys, with the reason), found by `ambiguousInstances`. */
  excludedInstances: ReadonlyMap<string, string> = new Map(),
): SampleChoice<Ref> {
  const notes: string[] = [];
  const exclusions: { candidate: Candidate<Ref>; reason: string }[] = [];
  const sorted = [...candidates].sort(byKey);
  let role = "";
  const problemOf = (candidate: Candidate<Ref>) =>
    (role === "instance" ? excludedInstances.get(candidate.key) : undefined) ??
    (candidate.tokenCount === null ? null : cutProblem(candidate.tokenCount, parameters.cutRange));

  const pick = (
    split: string,
    count: number,
    taken: ReadonlySet<string>,
    pickedRole: string,
    siblingsOf: ReadonlySet<string> = new Set(),
  ) => {
    role = pickedRole;
    const inSplit = sorted.filter((candidate) => candidate.split === split && !taken.has(candidate.key));
    const siblings = inSplit.filter(
      (candidate) => candidate.siblingKey && siblingsOf.has(candidate.siblingKey),
    );
    if (siblings.length > 0)
      notes.push(
        `${role}s: left out ${siblings.length} candidate(s) sharing an initial segment with an instance under test (siblings)`,
      );
    const pool = groupByLabel(
      inSplit.filter((candidate) => !(candidate.siblingKey && siblingsOf.has(candidate.siblingKey))),
    );
    // Each label's rows in a seeded random order; the sample takes from the front, skipping unusable rows.
    const queues = new Map(
      [...pool].map(([label, rows]) => [
        label,
        RandomStream.derive(parameters.seed, role, "shuffle", label).shuffle(rows),
      ]),
    );
    const supply = new Map([...queues].map(([label, rows]) => [label, rows.length]));
    const quotaStream = () => RandomStream.derive(parameters.seed, role, "quotas");
    let chosen = new Map<string, Candidate<Ref>[]>();
    // Skipping a row lowers its label's supply; plan again until every quota is met by usable rows.
    for (let planned = false; !planned; ) {
      planned = true;
      chosen = new Map();
      const quotas = labelQuotas(supply, count, quotaStream());
      for (const [label, queue] of queues) {
        const want = quotas.get(label) ?? 0;
        const picked: Candidate<Ref>[] = [];
        const remaining: Candidate<Ref>[] = [];
        for (const row of queue) {
          if (picked.length >= want) remaining.push(row);
          else if (problemOf(row) === null) picked.push(row);
          else exclusions.push({ candidate: row, reason: problemOf(row)! });
        }
        queues.set(label, [...picked, ...remaining]);
        chosen.set(label, picked);
        if (picked.length + remaining.length < supply.get(label)!) {
          supply.set(label, picked.length + remaining.length);
          if (picked.length < want) planned = false;
        }
      }
    }
    const total = [...chosen.values()].reduce((sum, rows) => sum + rows.length, 0);
    const evenShare = pool.size > 0 ? Math.floor(count / pool.size) : 0;
    for (const [label, rows] of chosen) {
      if (rows.length < evenShare) {
        notes.push(
          `${role}s: label "${label}" has only ${rows.length} usable row(s) in split "${split}" (an even share is ${evenShare}); took all of them and more of the other labels`,
        );
      }
    }
    if (total < count)
      notes.push(`${role}s: asked for ${count}, split "${split}" has only ${total} usable row(s)`);
    return chosen;
  };

  const instanceGroups = pick(parameters.instanceSplit, parameters.instanceCount, new Set(), "instance");
  const instanceKeys = new Set([...instanceGroups.values()].flat().map((candidate) => candidate.key));
  const instanceSiblingKeys = new Set(
    [...instanceGroups.values()]
      .flat()
      .map((candidate) => candidate.siblingKey)
      .filter((key): key is string => Boolean(key)),
  );
  const demonstrationGroups = pick(
    parameters.demonstrationSplit,
    parameters.demonstrationCount,
    instanceKeys,
    "demonstration",
    instanceSiblingKeys,
  );

  const instances = RandomStream.derive(parameters.seed, "instance", "order").shuffle(
    [...instanceGroups.values()].flat(),
  );
  const demonstrations = interleaveByLabel(
    demonstrationGroups,
    RandomStream.derive(parameters.seed, "demonstration", "nesting"),
  );
  const largestShot = Math.max(0, ...parameters.shotCounts);
  if (demonstrations.length < largestShot) {
    notes.push(
      `only ${demonstrations.length} demonstrations for a largest k of ${largestShot}: prompts with k above ${demonstrations.length} cannot be built from this sample`,
    );
  }
  const unique = new Map(exclusions.map((exclusion) => [exclusion.candidate.key, exclusion]));
  return {
    instances,
    demonstrations,
    notes,
    exclusions: [...unique.values()].sort((a, b) => byKey(a.candidate, b.candidate)),
  };
}

/**
 * Segments the chosen rows (the texts of just those rows are needed) and fingerprints the whole design.
 */
export function segmentChoice<Ref>(
  choice: SampleChoice<Ref>,
  texts: ReadonlyMap<string, { text: string; secondText: string | null }>,
  parameters: SampleParameters,
): SampleDesign<Ref> {
  const hash = createHash("sha256");
  const version = parameters.version ?? SAMPLE_ALGORITHM_VERSION;
  const minTargetWords = version >= 3 ? (parameters.minTargetWords ?? TRIVIAL_TARGET_WORDS) : undefined;
  const segmentAll = (role: string, rows: Candidate<Ref>[]) =>
    rows.map((candidate) => {
      const source = texts.get(candidate.key);
      if (!source) throw new Error(`no text for ${candidate.key}`);
      const result = segmentInstance(source.text, source.secondText, {
        seed: parameters.seed,
        instanceKey: candidate.key,
        cutRange: parameters.cutRange,
        minTargetWords,
      });
      if (!result.ok) throw new Error(`${candidate.key} was chosen but cannot be cut: ${result.reason}`);
      const { initialSegment, subsequentSegment, cutTokenIndex } = result.segments;
      hash.update(
        JSON.stringify([
          role,
          candidate.key,
          candidate.label,
          initialSegment,
          subsequentSegment,
          cutTokenIndex,
        ]),
      );
      return { candidate, segments: result.segments };
    });
  const instances = segmentAll("instance", choice.instances);
  const demonstrations = segmentAll("demonstration", choice.demonstrations);
  const notes = [...choice.notes];
  if (minTargetWords !== undefined) {
    const short = instances.filter((item) => item.segments.shortTarget).length;
    if (short > 0)
      notes.push(
        `instances: ${short} of ${instances.length} have a reference of fewer than ${minTargetWords} words whatever the cut in range (their target is trivial; reports can leave them out)`,
      );
  }
  return { ...choice, notes, instances, demonstrations, contentHash: hash.digest("hex") };
}

const SHARED_OPENING = "shares its initial segment with another instance under test (the same prompt)";
const OPENS_A_DEMONSTRATION = "its initial segment begins a demonstration's text";
const EXCLUSION_NOTES: Record<string, string> = {
  [SHARED_OPENING]:
    "sharing an initial segment with another instance under test (their prompts are the same)",
  [OPENS_A_DEMONSTRATION]:
    "whose initial segment begins a demonstration's text (the prompt shows a continuation)",
};

/** A text as the design compares openings: Unicode form, case and spacing do not matter. */
const openingKey = (text: string) => siblingKeyOf(text);

/**
 * Version 3: the instances under test a model could not tell apart or could copy from its prompt: those that
 * share an initial segment with another instance under test (their prompts are the same), and those whose
 * initial segment begins a demonstration's text at a word boundary (the demonstration shows a continuation).
 * Keys, with the reason; empty when the design is clear.
 */
export function ambiguousInstances<Ref>(
  design: Pick<SampleDesign<Ref>, "instances" | "demonstrations">,
): Map<string, string> {
  const found = new Map<string, string>();
  const byOpening = new Map<string, string[]>();
  for (const item of design.instances) {
    const key = openingKey(item.segments.initialSegment);
    appendTo(byOpening, key, item.candidate.key);
  }
  for (const keys of byOpening.values())
    if (keys.length > 1) for (const key of keys) found.set(key, SHARED_OPENING);
  // Each demonstration's text by its first word, so an instance is compared with the few that open alike: its
  // opening must begin one of them and end at a word boundary there.
  const texts = new Map<string, string[]>();
  for (const item of design.demonstrations) {
    const text = openingKey(`${item.segments.initialSegment} ${item.segments.subsequentSegment}`);
    const first = text.split(" ", 1)[0];
    appendTo(texts, first, text);
  }
  for (const item of design.instances) {
    if (found.has(item.candidate.key)) continue;
    const opening = openingKey(item.segments.initialSegment);
    const alike = texts.get(opening.split(" ", 1)[0]) ?? [];
    if (
      alike.some(
        (text) =>
          text.startsWith(opening) && (text.length === opening.length || text[opening.length] === " "),
      )
    )
      found.set(item.candidate.key, OPENS_A_DEMONSTRATION);
  }
  return found;
}

/**
 * The whole design: choose, segment, and (version 3) leave out the ambiguous instances under test, choosing
 * again until none is left (each round only adds exclusions, and rows are finite). `textsOf` reads the texts
 * of the rows chosen. Pure but for `textsOf`.
 */
export async function designSample<Ref>(
  candidates: readonly Candidate<Ref>[],
  parameters: SampleParameters,
  textsOf: (
    chosen: Candidate<Ref>[],
  ) => Promise<ReadonlyMap<string, { text: string; secondText: string | null }>>,
): Promise<SampleDesign<Ref>> {
  const version = parameters.version ?? SAMPLE_ALGORITHM_VERSION;
  const excluded = new Map<string, string>();
  const texts = new Map<string, { text: string; secondText: string | null }>();
  for (;;) {
    const choice = chooseSample(candidates, parameters, excluded);
    const missing = [...choice.instances, ...choice.demonstrations].filter((row) => !texts.has(row.key));
    if (missing.length > 0) for (const [key, text] of await textsOf(missing)) texts.set(key, text);
    const design = segmentChoice(choice, texts, parameters);
    const ambiguous = version >= 3 ? ambiguousInstances(design) : new Map<string, string>();
    if (ambiguous.size === 0) {
      if (excluded.size > 0) {
        const reasons = new Map<string, number>();
        for (const reason of excluded.values()) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        for (const [reason, count] of reasons)
          design.notes.push(`instances: left out ${count} candidate(s) ${EXCLUSION_NOTES[reason]}`);
      }
      return design;
    }
    for (const [key, reason] of ambiguous) excluded.set(key, reason);
  }
}

/**
 * The presentation order of the k-shot demonstrations: a seeded random permutation of the first k by rank.
 * The same for every prompt of that k (memorization in every setting, and performance).
 */
export function presentationOrder<T>(ranked: readonly T[], shots: number, seed: number | string): T[] {
  return RandomStream.derive(seed, "presentation", shots).shuffle(ranked.slice(0, shots));
}
