import { RandomStream } from "../../common/random";

/**
 * How many rows to take per label so that the total is `wanted` and the labels are as even as their
 * counts allow: labels with fewer rows than an even share give all they have, and the rest is shared
 * evenly among the others (water-filling). Where the total does not divide evenly, `random` decides
 * which labels take one more. Labels are taken in the order given.
 */
export function labelQuotas(
  available: ReadonlyMap<string, number>,
  wanted: number,
  random: RandomStream,
): Map<string, number> {
  const quotas = new Map<string, number>([...available.keys()].map((label) => [label, 0]));
  let remaining = Math.min(
    wanted,
    [...available.values()].reduce((sum, count) => sum + count, 0),
  );
  let open = [...available.keys()].filter((label) => (available.get(label) ?? 0) > 0);
  while (remaining > 0 && open.length > 0) {
    const share = Math.floor(remaining / open.length);
    if (share === 0) {
      // Fewer rows left than labels: one more each for a random choice of the open labels.
      for (const label of random.shuffle(open).slice(0, remaining)) quotas.set(label, quotas.get(label)! + 1);
      break;
    }
    for (const label of open) {
      const room = available.get(label)! - quotas.get(label)!;
      const take = Math.min(share, room);
      quotas.set(label, quotas.get(label)! + take);
      remaining -= take;
    }
    open = open.filter((label) => quotas.get(label)! < available.get(label)!);
  }
  return quotas;
}

/** Groups items by label, keeping their order inside each group; labels sorted for a stable order. */
export function groupByLabel<T extends { label: string }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.label);
    if (group) group.push(item);
    else groups.set(item.label, [item]);
  }
  return new Map([...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Interleaves per-label lists round by round, each round in a random label order, so that every prefix
 * of the result is as label-balanced as the lists allow (each label within one of its even share until a
 * label runs out). This is what makes the k-shot demonstration sets nested *and* balanced for every k.
 */
export function interleaveByLabel<T>(groups: ReadonlyMap<string, readonly T[]>, random: RandomStream): T[] {
  const result: T[] = [];
  const labels = [...groups.keys()];
  const longest = Math.max(0, ...[...groups.values()].map((group) => group.length));
  for (let round = 0; round < longest; round += 1) {
    for (const label of random.shuffle(labels)) {
      const item = groups.get(label)![round];
      if (item !== undefined) result.push(item);
    }
  }
  return result;
}
