import { createHash, randomInt } from "node:crypto";
import { DataSource, EntityManager } from "typeorm";
import { appendTo } from "../common/collections";
import { decodeCursor, encodeCursor } from "../common/cursor";
import { BadInputError, NotFoundError } from "../common/errors";
import { isUuid } from "../common/ids";
import { DatasetService } from "../dataset/dataset.service";
import { checkPageSize, Page, toPage } from "../graphql/connection";
import { TRIVIAL_TARGET_WORDS } from "../study/targets";
import { Demonstration } from "./demonstration.entity";
import {
  Candidate,
  designSample,
  SAMPLE_ALGORITHM_VERSION,
  SAMPLE_ALGORITHM_VERSIONS,
  SampleDesign,
  SampleParameters,
  siblingKeyOf,
} from "./design/design-sample";
import { countTokens } from "./design/segmentation";
import { NoMemoryFloors } from "./no-memory-floors";
import { Sample } from "./sample.entity";
import { CreateSampleInput, SampleFilter } from "./sample.inputs";
import * as sql from "./sample.sql";
import { SampledInstance } from "./sampled-instance.entity";

const CANDIDATE_PAGE = 20_000;
/** Exclusions stored per sample; beyond that only their number is noted. */
const MAX_STORED_EXCLUSIONS = 1_000;

export class SampleService {
  /** The no-memory floor of each sample's instances, stored once per sample. */
  readonly floors: NoMemoryFloors;

  constructor(
    private readonly dataSource: DataSource,
    private readonly datasets: DatasetService,
  ) {
    this.floors = new NoMemoryFloors(dataSource);
  }

  async get(id: string): Promise<Sample> {
    const sample = isUuid(id) ? await this.dataSource.manager.findOneBy(Sample, { id }) : null;
    if (!sample) throw new NotFoundError("Sample", id);
    return sample;
  }

  async list(first: number, after: string | null, filter: SampleFilter = {}): Promise<Page<Sample>> {
    checkPageSize(first);
    const query = this.dataSource.manager
      .createQueryBuilder(Sample, "sample")
      .orderBy("sample.created_at", "ASC")
      .addOrderBy("sample.id", "ASC")
      .limit(first + 1);
    if (filter.datasetId) {
      if (!isUuid(filter.datasetId)) return toPage([], first, () => "");
      query.andWhere("sample.dataset_id = :datasetId", { datasetId: filter.datasetId });
    }
    if (after) {
      const [createdAt, id] = decodeCursor("Sample", after);
      query.andWhere("(sample.created_at, sample.id) > (:createdAt, :id)", { createdAt, id });
    }
    const rows = await query.getMany();
    return toPage(rows, first, (row) => encodeCursor("Sample", [row.createdAt.toISOString(), row.id]));
  }

  /** SHA-256 over the dataset's file fingerprints: changes whenever a file is added. */
  async datasetFingerprint(
    datasetId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string> {
    const rows: { fingerprint: string }[] = await manager.query(sql.datasetFingerprintParts, [datasetId]);
    return createHash("sha256")
      .update(rows.map((row) => row.fingerprint).join("\n"))
      .digest("hex");
  }

  /**
   * Draws (or finds) the sample: balanced instances and demonstrations, segmented, with nested k-shot sets.
   * Idempotent: the same dataset files, seed and parameters return the sample drawn before.
   */
  async create(input: CreateSampleInput): Promise<{ sample: Sample; created: boolean }> {
    const dataset = await this.datasets.get(input.datasetId);
    if (input.cutMin >= input.cutMax)
      throw new BadInputError("cutMin must be smaller than cutMax", { field: "cutMin" });
    const version = input.designVersion ?? SAMPLE_ALGORITHM_VERSION;
    if (!(SAMPLE_ALGORITHM_VERSIONS as readonly number[]).includes(version))
      throw new BadInputError(`designVersion: one of ${SAMPLE_ALGORITHM_VERSIONS.join(", ")}`, {
        field: "designVersion",
      });
    if (input.minTargetWords !== undefined && !(input.minTargetWords >= 1 && input.minTargetWords <= 50))
      throw new BadInputError("minTargetWords: 1 to 50", { field: "minTargetWords" });
    const base = {
      seed: input.seed ?? randomInt(0, 2_147_483_647),
      instanceSplit: input.instanceSplit,
      demonstrationSplit: input.demonstrationSplit,
      instanceCount: input.instanceCount,
      demonstrationCount: input.demonstrationCount,
      shotCounts: [...new Set(input.shotCounts)].sort((a, b) => a - b),
      cutRange: { min: input.cutMin, max: input.cutMax },
    };
    const minTargetWords = version >= 3 ? (input.minTargetWords ?? TRIVIAL_TARGET_WORDS) : undefined;
    const parameters: SampleParameters = { ...base, version, minTargetWords };
    // The hash of a version-2 sample is as version 2 wrote it, so asking again finds it.
    const parametersHash = createHash("sha256")
      .update(JSON.stringify({ algorithm: version, ...base, ...(minTargetWords ? { minTargetWords } : {}) }))
      .digest("hex");
    const datasetFingerprint = await this.datasetFingerprint(dataset.id);
    const existing = await this.dataSource.manager.findOneBy(Sample, {
      datasetId: dataset.id,
      datasetFingerprint,
      parametersHash,
    });
    if (existing) return { sample: existing, created: false };

    const candidates = await this.loadCandidates(dataset.id, [
      parameters.instanceSplit,
      parameters.demonstrationSplit,
    ]);
    const splits = new Set(candidates.map((candidate) => candidate.split));
    for (const [split, role, flag] of [
      [parameters.instanceSplit, "instances under test", "--split / instanceSplit"],
      [parameters.demonstrationSplit, "demonstrations", "--demonstration-split / demonstrationSplit"],
    ] as const) {
      if (splits.has(split)) continue;
      const present: { split: string; rows: number }[] = await this.dataSource.query(
        "SELECT split, count(*)::int AS rows FROM instance WHERE dataset_id = $1 GROUP BY split ORDER BY split",
        [dataset.id],
      );
      throw new BadInputError(
        `dataset "${dataset.name}" has no rows in split "${split}" (asked for the ${role}); ` +
          `its splits: ${present.map((row) => `"${row.split}" (${row.rows} rows)`).join(", ") || "none"}. ` +
          `Choose one with ${flag}`,
        { field: role === "demonstrations" ? "demonstrationSplit" : "instanceSplit" },
      );
    }
    const design = await designSample(candidates, parameters, (rows) => this.loadTexts(rows));
    const choice = design;
    const positiveShots = parameters.shotCounts.filter((shots) => shots > 0);
    if (positiveShots.length > 0 && positiveShots.every((shots) => shots > choice.demonstrations.length)) {
      // Every k-shot prompt above 0 asked for would be refused later, by every run: say so now.
      throw new BadInputError(
        `no prompt with k = ${positiveShots.join(", ")} can be built: this sample would have ` +
          `${choice.demonstrations.length} demonstration(s) from split "${parameters.demonstrationSplit}" ` +
          `(disjoint from the ${choice.instances.length} instances under test and their siblings). ` +
          "Ask for fewer instances or smaller k, take demonstrations from another split, or ask for k = 0 only",
        { field: "shotCounts" },
      );
    }

    try {
      const sample = await this.dataSource.transaction((manager) =>
        this.save(
          manager,
          dataset.id,
          input.name ?? null,
          parameters,
          parametersHash,
          datasetFingerprint,
          design,
        ),
      );
      // Its no-memory floors too (a property of the sample and its dataset's size), so that no experiment's first
      // report waits for them while its calls go: 1.4-2.2 s for ten dashboards opened on a starting grid of four
      // samples of 100 instances (`npm run bench -- grid --readers 10`), about 2-3 ms an instance. Best effort:
      // a report computes whatever is missing.
      await this.floors.of([sample.id]).catch(() => {});
      return { sample, created: true };
    } catch (error) {
      // A concurrent request drew the same sample first: return theirs.
      const raced = await this.dataSource.manager.findOneBy(Sample, {
        datasetId: dataset.id,
        datasetFingerprint,
        parametersHash,
      });
      if (raced) return { sample: raced, created: false };
      throw error;
    }
  }

  private async loadCandidates(datasetId: string, splits: string[]): Promise<Candidate<string>[]> {
    const candidates: Candidate<string>[] = [];
    for (let afterId = "0"; ; ) {
      const rows: {
        id: string;
        label: string;
        split: string;
        line: number;
        text: string;
        is_pair: boolean;
        fingerprint: string;
      }[] = await this.dataSource.query(sql.candidatePage, [
        datasetId,
        [...new Set(splits)],
        afterId,
        CANDIDATE_PAGE,
      ]);
      for (const row of rows) {
        candidates.push({
          key: `${row.fingerprint}:${String(row.line).padStart(9, "0")}`,
          label: row.label,
          split: row.split,
          tokenCount: row.is_pair ? null : countTokens(row.text),
          siblingKey: siblingKeyOf(row.text),
          ref: String(row.id),
        });
      }
      if (rows.length < CANDIDATE_PAGE) return candidates;
      afterId = String(rows[rows.length - 1].id);
    }
  }

  private async loadTexts(chosen: Candidate<string>[]) {
    const rows: { id: string; text: string; second_text: string | null }[] = await this.dataSource.query(
      sql.textsByIds,
      [chosen.map((candidate) => candidate.ref)],
    );
    const byId = new Map(rows.map((row) => [String(row.id), row]));
    return new Map(
      chosen.map((candidate) => {
        const row = byId.get(candidate.ref)!;
        return [candidate.key, { text: row.text, secondText: row.second_text }];
      }),
    );
  }

  private async save(
    manager: EntityManager,
    datasetId: string,
    name: string | null,
    parameters: SampleParameters,
    parametersHash: string,
    datasetFingerprint: string,
    design: SampleDesign<string>,
  ): Promise<Sample> {
    const notes = [...design.notes];
    if (design.exclusions.length > 0) {
      notes.push(
        `${design.exclusions.length} row(s) reached while sampling were left out (see exclusions${design.exclusions.length > MAX_STORED_EXCLUSIONS ? `; the first ${MAX_STORED_EXCLUSIONS} are listed` : ""})`,
      );
    }
    const sample = await manager.save(
      manager.create(Sample, {
        datasetId,
        name,
        seed: String(parameters.seed),
        instanceSplit: parameters.instanceSplit,
        demonstrationSplit: parameters.demonstrationSplit,
        requestedInstanceCount: parameters.instanceCount,
        requestedDemonstrationCount: parameters.demonstrationCount,
        shotCounts: parameters.shotCounts,
        cutMin: parameters.cutRange.min,
        cutMax: parameters.cutRange.max,
        datasetFingerprint,
        parametersHash,
        contentHash: design.contentHash,
        algorithmVersion: parameters.version ?? SAMPLE_ALGORITHM_VERSION,
        minTargetWords: parameters.minTargetWords ?? null,
        notes,
        exclusions: design.exclusions
          .slice(0, MAX_STORED_EXCLUSIONS)
          .map(({ candidate, reason }) => ({ instanceId: candidate.ref, reason })),
      }),
    );
    const columns = (items: SampleDesign<string>["instances"]) => [
      items.map((item) => item.candidate.ref),
      items.map((_, index) => index),
      items.map((item) => item.candidate.label),
      items.map((item) => item.segments.initialSegment),
      items.map((item) => item.segments.subsequentSegment),
      items.map((item) => item.segments.cutTokenIndex),
      items.map((item) => item.segments.tokenCount),
    ];
    await manager.query(sql.insertSampledInstances, [sample.id, ...columns(design.instances)]);
    await manager.query(sql.insertDemonstrations, [sample.id, ...columns(design.demonstrations)]);
    return sample;
  }

  async instanceCounts(sampleIds: readonly string[]): Promise<number[]> {
    const rows: { sample_id: string; count: number }[] = await this.dataSource.query(
      sql.sampledInstanceCounts,
      [[...sampleIds]],
    );
    const counts = new Map(rows.map((row) => [row.sample_id, row.count]));
    return sampleIds.map((id) => counts.get(id) ?? 0);
  }

  async demonstrationCounts(sampleIds: readonly string[]): Promise<number[]> {
    const rows: { sample_id: string; count: number }[] = await this.dataSource.query(
      sql.demonstrationCounts,
      [[...sampleIds]],
    );
    const counts = new Map(rows.map((row) => [row.sample_id, row.count]));
    return sampleIds.map((id) => counts.get(id) ?? 0);
  }

  /** A page of the instances under test, by position. */
  async instancePage(sampleId: string, first: number, after: string | null): Promise<Page<SampledInstance>> {
    const afterPosition = after ? Number(decodeCursor("SampledInstance", after)[0]) : -1;
    const rows = await this.dataSource.manager
      .createQueryBuilder(SampledInstance, "item")
      .where("item.sample_id = :sampleId AND item.position > :afterPosition", { sampleId, afterPosition })
      .orderBy("item.position", "ASC")
      .limit(first + 1)
      .getMany();
    return toPage(rows, first, (row) => encodeCursor("SampledInstance", [row.position]));
  }

  /** Batches instance pages of many samples: one LATERAL query per distinct (first, after). */
  async sampledInstancePages(
    keys: readonly { sampleId: string; first: number; after: string | null }[],
  ): Promise<Page<SampledInstance>[]> {
    const results = new Map<string, Page<SampledInstance>>();
    const groups = new Map<string, string[]>();
    for (const key of keys) {
      const group = JSON.stringify([key.first, key.after]);
      appendTo(groups, group, key.sampleId);
    }
    for (const [group, sampleIds] of groups) {
      const [first, after] = JSON.parse(group) as [number, string | null];
      checkPageSize(first);
      const afterPosition = after ? Number(decodeCursor("SampledInstance", after)[0]) : -1;
      const rows = await this.dataSource.query(sql.sampledInstancePages, [
        sampleIds,
        afterPosition,
        first + 1,
      ]);
      const items = rows.map((row: Record<string, unknown>) => toSampledInstance(row));
      for (const sampleId of sampleIds) {
        const own = items.filter((item: SampledInstance) => item.sampleId === sampleId);
        results.set(
          `${sampleId}|${group}`,
          toPage(own, first, (row) => encodeCursor("SampledInstance", [row.position])),
        );
      }
    }
    return keys.map((key) => results.get(`${key.sampleId}|${JSON.stringify([key.first, key.after])}`)!);
  }

  /** Batches the k-shot sets (by rank) of many samples for one k. */
  async demonstrationSets(keys: readonly { sampleId: string; shots: number }[]): Promise<Demonstration[][]> {
    const results = new Map<string, Demonstration[]>();
    for (const shots of new Set(keys.map((key) => key.shots))) {
      const sampleIds = keys.filter((key) => key.shots === shots).map((key) => key.sampleId);
      const rows = await this.dataSource.query(sql.demonstrationsUpToRank, [sampleIds, shots]);
      for (const sampleId of sampleIds) {
        results.set(
          `${sampleId}|${shots}`,
          rows
            .filter((row: Record<string, unknown>) => row.sample_id === sampleId)
            .map((row: Record<string, unknown>) => toDemonstration(row)),
        );
      }
    }
    return keys.map((key) => results.get(`${key.sampleId}|${key.shots}`) ?? []);
  }

  async sampledInstancesByIds(ids: readonly string[]): Promise<(SampledInstance | null)[]> {
    const rows = await this.dataSource.manager
      .createQueryBuilder(SampledInstance, "item")
      .where("item.id = ANY(:ids)", { ids: [...ids] })
      .getMany();
    const byId = new Map(rows.map((row) => [String(row.id), row]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  async samplesByIds(ids: readonly string[]): Promise<(Sample | null)[]> {
    const rows = await this.dataSource.manager
      .createQueryBuilder(Sample, "sample")
      .where("sample.id = ANY(:ids)", { ids: [...ids] })
      .getMany();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  async samplesByDatasets(datasetIds: readonly string[]): Promise<Sample[][]> {
    const rows: Sample[] = await this.dataSource.manager
      .createQueryBuilder(Sample, "sample")
      .where("sample.dataset_id = ANY(:ids)", { ids: [...datasetIds] })
      .orderBy("sample.created_at", "ASC")
      .addOrderBy("sample.id", "ASC")
      .getMany();
    return datasetIds.map((id) => rows.filter((row) => row.datasetId === id));
  }

  async sampledInstance(sampleId: string, instanceId: string | null): Promise<SampledInstance> {
    const query = this.dataSource.manager
      .createQueryBuilder(SampledInstance, "item")
      .where("item.sample_id = :sampleId", { sampleId });
    if (instanceId !== null) {
      if (!/^\d{1,18}$/.test(instanceId)) throw new NotFoundError("Instance", instanceId);
      query.andWhere("item.instance_id = :instanceId", { instanceId });
    } else {
      query.orderBy("item.position", "ASC").limit(1);
    }
    const item = await query.getOne();
    if (!item) throw new NotFoundError("Instance in sample", instanceId ?? "(first)");
    return item;
  }

  async allSampledInstances(sampleId: string): Promise<SampledInstance[]> {
    return this.dataSource.manager.find(SampledInstance, { where: { sampleId }, order: { position: "ASC" } });
  }

  /** The first `count` demonstrations by rank (the k-shot set), with nothing else. */
  async demonstrationsByRank(sampleId: string, count: number): Promise<Demonstration[]> {
    return this.dataSource.manager
      .createQueryBuilder(Demonstration, "demonstration")
      .where("demonstration.sample_id = :sampleId AND demonstration.rank < :count", { sampleId, count })
      .orderBy("demonstration.rank", "ASC")
      .getMany();
  }
}

function toSampledInstance(row: Record<string, unknown>): SampledInstance {
  return Object.assign(new SampledInstance(), {
    id: String(row.id),
    sampleId: row.sample_id,
    instanceId: String(row.instance_id),
    position: row.position,
    label: row.label,
    initialSegment: row.initial_segment,
    subsequentSegment: row.subsequent_segment,
    cutTokenIndex: row.cut_token_index,
    tokenCount: row.token_count,
  });
}

function toDemonstration(row: Record<string, unknown>): Demonstration {
  return Object.assign(new Demonstration(), {
    id: String(row.id),
    sampleId: row.sample_id,
    instanceId: String(row.instance_id),
    rank: row.rank,
    label: row.label,
    initialSegment: row.initial_segment,
    subsequentSegment: row.subsequent_segment,
    cutTokenIndex: row.cut_token_index,
    tokenCount: row.token_count,
  });
}
