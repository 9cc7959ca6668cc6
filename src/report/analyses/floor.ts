// The no-memory floor beside each memorization rate: how many instances a model without memory would get
// memorized by copying its input or giving a constant, and how many the model memorized above that. Pure.

import { type InstanceFloor, inFloorAt } from "../../judge/no-memory";
import { wilsonInterval } from "../../statistics/intervals";
import type { NoMemoryFloorRow } from "../rows/no-memory-floor";
import {
  byCell,
  InstanceOutcome,
  instanceVerdict,
  isMemorized,
  outcomeCells,
  SampleInfo,
  sampleFields,
} from "./rows";

/**
 * Per cell (sample x setting x k), over its judged instances (each once, by the majority of its completions):
 * the memorized ones; those within the floor (a no-memory answer is exact or near-exact for them); and those
 * memorized above the floor (memorized, and no no-memory answer would have been), each with a Wilson interval.
 * A model that only copies or guesses constants has no instance above the floor, whatever its rate. The eligible
 * instances (non-trivial targets outside the floor) are what the replication verdict tests.
 */
export function noMemoryFloor(
  outcomes: readonly InstanceOutcome[],
  floors: ReadonlyMap<string, InstanceFloor>,
  samples: ReadonlyMap<string, SampleInfo>,
  floorVersion: string,
  trivial: ReadonlySet<string> = new Set(),
): NoMemoryFloorRow[] {
  const rows: NoMemoryFloorRow[] = [];
  for (const { outcomes: cell } of outcomeCells(outcomes).values()) {
    let instances = 0;
    let memorized = 0;
    let floorInstances = 0;
    let byCopy = 0;
    let byConstant = 0;
    let byDemonstration = 0;
    let aboveFloor = 0;
    let trivialInstances = 0;
    let eligible = 0;
    let eligibleMemorized = 0;
    const shots = cell[0].shots;
    for (const outcome of cell) {
      const verdict = instanceVerdict(outcome);
      if (!verdict) continue;
      instances += 1;
      const floor = floors.get(outcome.sampledInstanceId);
      const inFloor = inFloorAt(floor, shots);
      if (inFloor) {
        floorInstances += 1;
        if (!floor!.memorized) byDemonstration += 1;
        else if (floor!.strategy === "copy") byCopy += 1;
        else byConstant += 1;
      }
      if (isMemorized(verdict)) {
        memorized += 1;
        if (!inFloor) aboveFloor += 1;
      }
      if (trivial.has(outcome.sampledInstanceId)) trivialInstances += 1;
      else if (!inFloor) {
        eligible += 1;
        if (isMemorized(verdict)) eligibleMemorized += 1;
      }
    }
    const info = samples.get(cell[0].sampleId);
    const floorInterval = wilsonInterval(floorInstances, instances);
    const aboveInterval = wilsonInterval(aboveFloor, instances);
    rows.push({
      dataset: info?.dataset ?? "?",
      ...sampleFields(info),
      setting: cell[0].setting,
      shots: cell[0].shots,
      instances,
      memorized,
      rate: instances ? memorized / instances : null,
      floorInstances,
      floorByCopy: byCopy,
      floorByConstant: byConstant,
      floorByDemonstration: byDemonstration,
      trivialInstances,
      eligibleInstances: eligible,
      eligibleMemorized,
      eligibleRate: eligible ? eligibleMemorized / eligible : null,
      floorRate: instances ? floorInstances / instances : null,
      floorCiLow: floorInterval?.low ?? null,
      floorCiHigh: floorInterval?.high ?? null,
      aboveFloor,
      aboveFloorRate: instances ? aboveFloor / instances : null,
      aboveFloorCiLow: aboveInterval?.low ?? null,
      aboveFloorCiHigh: aboveInterval?.high ?? null,
      floorVersion,
    });
  }
  return rows.sort(byCell);
}
