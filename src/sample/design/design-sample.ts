import { createHash } from "node:crypto";
import { groupByLabel, interleaveByLabel, labelQuotas } from "./balanced-sampling";
import { RandomStream } from "./random";
import { CutRange, Segmentation, Segments } from "./segmentation";

/** The study design's algorithm version; bump it when any choice below changes, so old samples stay explained. */
export const SAMPLE_ALGORITHM_VERSION = 1;

export interface SampleParameters {
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
  ref: Ref;
}

export interface DesignedItem<Ref> {
  candidate: Candidate<Ref>;
  segments: Segments;
}

export interface SampleDesign<Ref> {
  /** Instances under test, in position order. */
  instances: DesignedItem<Ref>[];
  /** Demonstrations in rank order: the k-shot set is the first k. */
  demonstrations: DesignedItem<Ref>[];
  /** What was done when the data could not give what was asked (short labels, short texts). */
  notes: string[];
  exclusions: { candidate: Candidate<Ref>; reason: string }[];
  /** SHA-256 over every choice (keys, labels, segments, ranks): equal designs have equal hashes. */
  contentHash: string;
}

/**
 * Draws the study sample: `instanceCount` instances from `instanceSplit` and `demonstrationCount`
 * demonstrations from `demonstrationSplit`, each balanced by label, disjoint, segmented; demonstrations
 * ordered so that every k-prefix is balanced. Pure: the same candidates, texts and parameters give the
 * same design in any process. `segment` supplies each candidate's segmentation (or why it cannot be cut).
 */
export function designSample<Ref>(
  candidates: readonly Candidate<Ref>[],
  parameters: SampleParameters,
  segment: (candidate: Candidate<Ref>) => Segmentation,
): SampleDesign<Ref> {
  const notes: string[] = [];
  const exclusions: { candidate: Candidate<Ref>; reason: string }[] = [];
  const sorted = [...candidates].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

  const segmented = new Map<string, Segments>();
  const usable = (candidate: Candidate<Ref>): boolean => {
    if (segmented.has(candidate.key)) return true;
    const result = segment(candidate);
    if (!result.ok) {
      exclusions.push({ candidate, reason: result.reason });
      return false;
    }
    segmented.set(candidate.key, result.segments);
    return true;
  };

  const pick = (split: string, count: number, taken: ReadonlySet<string>, role: string) => {
    const pool = groupByLabel(sorted.filter((candidate) => candidate.split === split && !taken.has(candidate.key)));
    // Shuffle each label's rows, then drop those that cannot be segmented, in that order: the texts
    // of rows never reached are not needed.
    const shuffled = new Map(
      [...pool].map(([label, rows]) => [label, RandomStream.derive(parameters.seed, role, "shuffle", label).shuffle(rows)]),
    );
    const lazyUsable = new Map([...shuffled].map(([label, rows]) => [label, rows]));
    const available = new Map([...lazyUsable].map(([label, rows]) => [label, rows.length]));
    let quotas = labelQuotas(available, count, RandomStream.derive(parameters.seed, role, "quotas"));
    const chosen = new Map<string, Candidate<Ref>[]>();
    // Re-plan until every label's quota is met by usable rows (excluding a row lowers its label's supply).
    for (;;) {
      let shortfall = false;
      for (const [label, rows] of lazyUsable) {
        const want = quotas.get(label) ?? 0;
        const picked: Candidate<Ref>[] = [];
        const kept: Candidate<Ref>[] = [];
        for (const row of rows) {
          if (picked.length >= want) {
            kept.push(row);
            continue;
          }
          if (usable(row)) {
            picked.push(row);
            kept.push(row);
          }
        }
        lazyUsable.set(label, kept);
        chosen.set(label, picked);
        if (kept.length !== available.get(label)) {
          available.set(label, kept.length);
          if (picked.length < want) shortfall = true;
        }
      }
      if (!shortfall) break;
      quotas = labelQuotas(available, count, RandomStream.derive(parameters.seed, role, "quotas"));
    }
    const total = [...chosen.values()].reduce((sum, rows) => sum + rows.length, 0);
    const even = pool.size > 0 ? count / pool.size : 0;
    for (const [label, rows] of chosen) {
      if (rows.length < Math.floor(even) && rows.length === available.get(label)) {
        notes.push(
          `${role}s: label "${label}" has only ${rows.length} usable row(s) in split "${split}" (an even share is ${Math.floor(even)}); took all of them and more of the other labels`,
        );
      }
    }
    if (total < count) notes.push(`${role}s: asked for ${count}, split "${split}" has only ${total} usable row(s)`);
    return chosen;
  };

  const instanceGroups = pick(parameters.instanceSplit, parameters.instanceCount, new Set(), "instance");
  const instanceKeys = new Set([...instanceGroups.values()].flat().map((candidate) => candidate.key));
  const demonstrationGroups = pick(parameters.demonstrationSplit, parameters.demonstrationCount, instanceKeys, "demonstration");

  const instances = RandomStream.derive(parameters.seed, "instance", "order").shuffle([...instanceGroups.values()].flat());
  const demonstrations = interleaveByLabel(demonstrationGroups, RandomStream.derive(parameters.seed, "demonstration", "nesting"));
  const largestShot = Math.max(0, ...parameters.shotCounts);
  if (demonstrations.length < largestShot) {
    notes.push(`only ${demonstrations.length} demonstrations for a largest k of ${largestShot}: larger k-shot prompts use all of them`);
  }

  const toItems = (rows: Candidate<Ref>[]) => rows.map((candidate) => ({ candidate, segments: segmented.get(candidate.key)! }));
  const design = { instances: toItems(instances), demonstrations: toItems(demonstrations) };
  const hash = createHash("sha256");
  for (const [role, items] of Object.entries(design)) {
    for (const { candidate, segments } of items) {
      hash.update(JSON.stringify([role, candidate.key, candidate.label, segments.initialSegment, segments.subsequentSegment, segments.cutTokenIndex]));
    }
  }
  exclusions.sort((a, b) => (a.candidate.key < b.candidate.key ? -1 : 1));
  return { ...design, notes, exclusions, contentHash: hash.digest("hex") };
}

/**
 * The presentation order of the k-shot demonstrations: a seeded random permutation of the first k by rank.
 * The same for every prompt of that k (memorization in every setting, and performance).
 */
export function presentationOrder<T>(ranked: readonly T[], shots: number, seed: number | string): T[] {
  return RandomStream.derive(seed, "presentation", shots).shuffle(ranked.slice(0, shots));
}
