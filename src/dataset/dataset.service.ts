import { DataSource } from "typeorm";
import { appendTo } from "../common/collections";
import { decodeCursor, encodeCursor } from "../common/cursor";
import { BadInputError, NotFoundError } from "../common/errors";
import { isUuid } from "../common/ids";
import { escapeLike } from "../common/like";
import { checkPageSize, Page, toPage } from "../graphql/connection";
import { Dataset, LabelVerbalizer } from "./dataset.entity";
import { DatasetFilter, InstanceFilter, LabelCount } from "./dataset.inputs";
import * as sql from "./dataset.sql";
import { DatasetSource } from "./dataset-source.entity";
import { Instance } from "./instance.entity";

export interface InstancePageKey {
  datasetId: string;
  first: number;
  after: string | null;
  filter: InstanceFilter;
}

/** Reads datasets and their instances; every batch method answers in key order for DataLoader. */
export class DatasetService {
  constructor(private readonly dataSource: DataSource) {}

  async get(id: string): Promise<Dataset> {
    const dataset = isUuid(id) ? await this.dataSource.manager.findOneBy(Dataset, { id }) : null;
    if (!dataset) throw new NotFoundError("Dataset", id);
    return dataset;
  }

  async list(first: number, after: string | null, filter: DatasetFilter = {}): Promise<Page<Dataset>> {
    checkPageSize(first);
    const query = this.filtered(filter)
      .orderBy("dataset.name", "ASC")
      .limit(first + 1);
    if (after) {
      const [name] = decodeCursor("Dataset", after);
      query.andWhere("dataset.name > :afterName", { afterName: String(name) });
    }
    const rows = await query.getMany();
    return toPage(rows, first, (row) => encodeCursor("Dataset", [row.name]));
  }

  count(filter: DatasetFilter = {}): Promise<number> {
    return this.filtered(filter).getCount();
  }

  private filtered(filter: DatasetFilter) {
    const query = this.dataSource.manager.createQueryBuilder(Dataset, "dataset");
    if (filter.nameContains) {
      query.andWhere("dataset.name ILIKE :pattern", { pattern: `%${escapeLike(filter.nameContains)}%` });
    }
    if (filter.taskKind) query.andWhere("dataset.task_kind = :taskKind", { taskKind: filter.taskKind });
    return query;
  }

  async getInstance(id: string): Promise<Instance> {
    const instance = /^\d{1,18}$/.test(id) ? await this.dataSource.manager.findOneBy(Instance, { id }) : null;
    if (!instance) throw new NotFoundError("Instance", id);
    return instance;
  }

  async datasetsByIds(ids: readonly string[]): Promise<(Dataset | null)[]> {
    const rows = await this.dataSource.manager
      .createQueryBuilder(Dataset, "dataset")
      .where("dataset.id = ANY(:ids)", { ids: [...ids] })
      .getMany();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  async instancesByIds(ids: readonly string[]): Promise<(Instance | null)[]> {
    const rows = await this.dataSource.manager
      .createQueryBuilder(Instance, "instance")
      .where("instance.id = ANY(:ids)", { ids: [...ids] })
      .getMany();
    const byId = new Map(rows.map((row) => [String(row.id), row]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** Sets how prompts name the dataset and its labels. Prompts rendered before keep what they showed. */
  async update(
    id: string,
    changes: { promptName?: string | null; labelVerbalizers?: LabelVerbalizer[]; controlOf?: string | null },
  ): Promise<Dataset> {
    const dataset = await this.get(id);
    if (changes.controlOf !== undefined)
      dataset.controlOfId = await this.checkedControlOf(dataset, changes.controlOf);
    if (changes.promptName !== undefined) dataset.promptName = changes.promptName?.trim() || null;
    if (changes.labelVerbalizers) {
      const known = new Map(dataset.labelVerbalizers.map((entry) => [entry.label, entry.verbalizer]));
      for (const { label, verbalizer } of changes.labelVerbalizers) {
        if (!known.has(label)) {
          throw new BadInputError(
            `dataset "${dataset.name}" has no label "${label}" (labels: ${[...known.keys()].join(", ")})`,
            { field: "labelVerbalizers" },
          );
        }
        if (!verbalizer.trim())
          throw new BadInputError(`the verbalizer of "${label}" is empty`, { field: "labelVerbalizers" });
        known.set(label, verbalizer.trim());
      }
      const words = [...known.values()].map((word) => word.toLowerCase());
      if (new Set(words).size !== words.length) {
        throw new BadInputError("two labels would share a verbalizer; answers could not be told apart", {
          field: "labelVerbalizers",
        });
      }
      dataset.labelVerbalizers = dataset.labelVerbalizers.map(({ label }) => ({
        label,
        verbalizer: known.get(label)!,
      }));
    }
    await this.dataSource.manager.update(
      Dataset,
      { id },
      {
        promptName: dataset.promptName,
        labelVerbalizers: dataset.labelVerbalizers,
        controlOfId: dataset.controlOfId,
      },
    );
    return this.get(id);
  }

  /** The dataset `dataset` may be the control of (its id), or why not: one level, the same kind of task. */
  private async checkedControlOf(dataset: Dataset, targetId: string | null): Promise<string | null> {
    if (targetId === null) return null;
    const field = { field: "controlOf" };
    if (targetId === dataset.id) throw new BadInputError("a dataset cannot be its own control", field);
    const target = await this.get(targetId);
    if (target.taskKind !== dataset.taskKind)
      throw new BadInputError(
        `"${dataset.name}" (${dataset.taskKind}) cannot be the control of "${target.name}" (${target.taskKind}): the grid needs the same kind of task`,
        field,
      );
    if (target.controlOfId)
      throw new BadInputError(
        `"${target.name}" is itself a control; a control's target must not be one`,
        field,
      );
    const [controlled] = await this.dataSource.query(
      "SELECT name FROM dataset WHERE control_of_id = $1 LIMIT 1",
      [dataset.id],
    );
    if (controlled)
      throw new BadInputError(
        `"${dataset.name}" has a control of its own ("${controlled.name}"); it cannot also be a control`,
        field,
      );
    return target.id;
  }

  async sourcesByDatasetIds(ids: readonly string[]): Promise<DatasetSource[][]> {
    const rows = await this.dataSource.manager
      .createQueryBuilder(DatasetSource, "source")
      .where("source.dataset_id = ANY(:ids)", { ids: [...ids] })
      .orderBy("source.created_at", "ASC")
      .getMany();
    return ids.map((id) => rows.filter((row) => row.datasetId === id));
  }

  async labelCountsByDatasets(datasets: readonly Dataset[]): Promise<LabelCount[][]> {
    const rows: { dataset_id: string; label: string; count: number }[] = await this.dataSource.query(
      sql.labelCounts,
      [datasets.map((dataset) => dataset.id)],
    );
    return datasets.map((dataset) => {
      const counts = new Map(
        rows.filter((row) => row.dataset_id === dataset.id).map((row) => [row.label, row.count]),
      );
      return dataset.labelVerbalizers.map(({ label, verbalizer }) => ({
        label,
        verbalizer,
        count: counts.get(label) ?? 0,
      }));
    });
  }

  /** Batches counts of many datasets; one query per distinct filter. */
  async instanceCounts(keys: readonly { datasetId: string; filter: InstanceFilter }[]): Promise<number[]> {
    const results = new Map<string, number>();
    for (const [filterKey, group] of groupBy(keys, (key) => filterKeyOf(key.filter))) {
      const { label, split } = group[0].filter;
      const rows: { dataset_id: string; count: number }[] = label
        ? await this.dataSource.query(sql.instanceCounts, [
            group.map((key) => key.datasetId),
            label,
            split ?? null,
          ])
        : await this.dataSource.query(sql.sourceRowCounts, [
            group.map((key) => key.datasetId),
            split ?? null,
          ]);
      for (const row of rows) results.set(`${row.dataset_id}|${filterKey}`, row.count);
    }
    return keys.map((key) => results.get(`${key.datasetId}|${filterKeyOf(key.filter)}`) ?? 0);
  }

  /** Batches instance pages of many datasets: one LATERAL query per distinct (first, after, filter). */
  async instancePages(keys: readonly InstancePageKey[]): Promise<Page<Instance>[]> {
    const pages = new Map<InstancePageKey, Page<Instance>>();
    for (const [, group] of groupBy(keys, (key) =>
      JSON.stringify([key.first, key.after, filterKeyOf(key.filter)]),
    )) {
      const { first, after, filter } = group[0];
      checkPageSize(first);
      const afterId = after ? String(decodeCursor("Instance", after)[0]) : "0";
      const rows: Record<string, unknown>[] = await this.dataSource.query(sql.instancePages, [
        group.map((key) => key.datasetId),
        filter.label ?? null,
        filter.split ?? null,
        afterId,
        first + 1,
      ]);
      const instances = rows.map(toInstance);
      for (const key of group) {
        const own = instances.filter((instance) => instance.datasetId === key.datasetId);
        pages.set(
          key,
          toPage(own, first, (row) => encodeCursor("Instance", [row.id])),
        );
      }
    }
    return keys.map((key) => pages.get(key)!);
  }
}

function toInstance(row: Record<string, unknown>): Instance {
  return Object.assign(new Instance(), {
    id: String(row.id),
    datasetId: row.dataset_id,
    sourceId: row.source_id,
    split: row.split,
    line: row.line,
    externalId: row.external_id,
    text: row.text,
    secondText: row.second_text,
    label: row.label,
  });
}

function filterKeyOf(filter: InstanceFilter): string {
  return JSON.stringify([filter.label ?? null, filter.split ?? null]);
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    appendTo(groups, key, item);
  }
  return groups;
}
