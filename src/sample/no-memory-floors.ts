import { DataSource } from "typeorm";
import { wordCounts } from "../judge/heuristic-judge";
import {
  commonReferences,
  demonstrationFloorShots,
  floorVerdict,
  InstanceFloor,
  indexForMatching,
  instanceFloorOf,
  NO_MEMORY_FLOOR_VERSION,
} from "../judge/no-memory";
import * as sql from "./sample.sql";

interface FloorInput {
  sampled_instance_id: string;
  input: string;
  reference: string;
  nli: boolean;
  dataset_instance_count: number;
}

/**
 * The no-memory floor of samples' instances (judge/no-memory.ts), stored in `no_memory_floor`: computed once per
 * sample, floor rule and dataset size by whichever process needs it first, then read by every process (a report's
 * first computation, `memicl report`) instead of judging some twenty copied answers per instance again.
 */
export class NoMemoryFloors {
  /** The computations under way in this process, by sample: concurrent readers wait for the same one. */
  private readonly computing = new Map<string, Promise<Map<string, InstanceFloor>>>();

  constructor(private readonly dataSource: DataSource) {}

  /** The floor of every sampled instance of these samples, by sampled-instance id. */
  async of(sampleIds: readonly string[]): Promise<Map<string, InstanceFloor>> {
    const ids = [...new Set(sampleIds)];
    const floors = new Map<string, InstanceFloor>();
    if (ids.length === 0) return floors;
    const stored: {
      sample_id: string;
      sampled_instance_id: string;
      memorized: boolean;
      strategy: string | null;
      exact: boolean;
      demonstration_shots: number | null;
    }[] = await this.dataSource.query(sql.storedFloors, [ids, NO_MEMORY_FLOOR_VERSION]);
    const found = new Set<string>();
    for (const row of stored) {
      found.add(row.sample_id);
      floors.set(row.sampled_instance_id, {
        memorized: row.memorized,
        strategy: row.strategy as InstanceFloor["strategy"],
        exact: row.exact,
        demonstrationShots: row.demonstration_shots,
      });
    }
    const computed = await Promise.all(ids.filter((id) => !found.has(id)).map((id) => this.computeOnce(id)));
    for (const sample of computed) for (const [key, floor] of sample) floors.set(key, floor);
    return floors;
  }

  private computeOnce(sampleId: string): Promise<Map<string, InstanceFloor>> {
    let pending = this.computing.get(sampleId);
    if (!pending) {
      pending = this.compute(sampleId).finally(() => this.computing.delete(sampleId));
      this.computing.set(sampleId, pending);
    }
    return pending;
  }

  private async compute(sampleId: string): Promise<Map<string, InstanceFloor>> {
    // The dataset's size is read before its rows' siblings: an import between the two stores a floor under the
    // older size, which the next read computes again (never a floor that misses siblings under the newer size).
    const instances: FloorInput[] = await this.dataSource.query(sql.floorInputsOfSample, [sampleId]);
    const siblings = await sql.loadSiblingContinuations(
      (text, parameters) => this.dataSource.query(text, parameters),
      [sampleId],
    );
    const demonstrations: { rank: number; continuation: string }[] = await this.dataSource.query(
      sql.floorDemonstrationsOfSample,
      [sampleId],
    );
    const demonstrationCounts = demonstrations.map((d) => wordCounts(d.continuation));
    // The heuristic judge takes 3 ms to 15 ms an instance here (some twenty copied answers each), a long text up to
    // a few hundred: a process serving requests answers them between steps of about 20 ms rather than after a
    // whole sample's seconds.
    let since = Date.now();
    const breathe = async () => {
      if (Date.now() - since > 20) {
        await new Promise((resolve) => setImmediate(resolve));
        since = Date.now();
      }
    };
    // Each continuation is indexed once for the bound that spares judging it against every instance: a sample of
    // RTE's 200 instances against its 200 demonstrations took 4.3 s when only continuations of 50 words or more
    // were (a pair judged in about 0.1 ms), 0.2 s with every one indexed (0.45 ms a continuation), with the same
    // floors.
    const demonstrationIndexes: ReturnType<typeof indexForMatching>[] = [];
    for (const d of demonstrations) {
      demonstrationIndexes.push(indexForMatching(d.continuation));
      await breathe();
    }
    const inputs = instances.map((row) => ({
      ...row,
      siblings: siblings.get(row.sampled_instance_id) ?? [],
    }));
    const common = commonReferences(inputs);
    const floors = new Map<string, InstanceFloor>();
    for (const [index, instance] of inputs.entries()) {
      const verdict = floorVerdict(instance, common[index]);
      await breathe();
      floors.set(
        instance.sampled_instance_id,
        instanceFloorOf(
          verdict,
          demonstrationFloorShots(
            instance,
            demonstrations,
            undefined,
            demonstrationCounts,
            demonstrationIndexes,
          ),
        ),
      );
      await breathe();
    }
    if (instances.length > 0) {
      const keys = [...floors.keys()];
      await this.dataSource.query(sql.storeFloors, [
        sampleId,
        NO_MEMORY_FLOOR_VERSION,
        instances[0].dataset_instance_count,
        keys,
        keys.map((key) => floors.get(key)!.memorized),
        keys.map((key) => floors.get(key)!.strategy),
        keys.map((key) => floors.get(key)!.exact ?? false),
        keys.map((key) => floors.get(key)!.demonstrationShots ?? null),
      ]);
    }
    return floors;
  }
}
