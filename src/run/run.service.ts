import { DataSource } from "typeorm";
import { decodeCursor, encodeCursor } from "../common/cursor";
import { NotFoundError } from "../common/errors";
import { isUuid } from "../common/ids";
import { checkPageSize, Page, toPage } from "../graphql/connection";
import { Run } from "./run.entity";
import { RunFilter } from "./run.inputs";

/** Runs as records: read, listed, counted, and an experiment's runs in the grid's order. */
export class RunService {
  constructor(private readonly dataSource: DataSource) {}

  async get(id: string): Promise<Run> {
    const run = isUuid(id) ? await this.dataSource.manager.findOneBy(Run, { id }) : null;
    if (!run) throw new NotFoundError("Run", id);
    return run;
  }

  async list(first: number, after: string | null, filter: RunFilter = {}): Promise<Page<Run>> {
    checkPageSize(first);
    const query = this.filtered(filter)
      .orderBy("run.created_at", "ASC")
      .addOrderBy("run.id", "ASC")
      .limit(first + 1);
    if (after) {
      const [createdAt, id] = decodeCursor("Run", after);
      query.andWhere("(run.created_at, run.id) > (:createdAt, :id)", { createdAt, id });
    }
    const rows = await query.getMany();
    return toPage(rows, first, (row) => encodeCursor("Run", [row.createdAt.toISOString(), row.id]));
  }

  count(filter: RunFilter = {}): Promise<number> {
    return this.filtered(filter).getCount();
  }

  private filtered(filter: RunFilter) {
    const query = this.dataSource.manager.createQueryBuilder(Run, "run");
    for (const [column, value] of [
      ["experiment_id", filter.experimentId],
      ["sample_id", filter.sampleId],
    ] as const) {
      if (value === undefined) continue;
      if (!isUuid(value)) query.andWhere("false");
      else query.andWhere(`run.${column} = :${column}`, { [column]: value });
    }
    return query;
  }

  /** Runs by id, batched (a per-request loader's batch). */
  async runsByIds(ids: readonly string[]): Promise<(Run | null)[]> {
    const valid = ids.filter(isUuid);
    const runs = valid.length
      ? await this.dataSource.manager
          .createQueryBuilder(Run, "run")
          .where("run.id = ANY(:ids)", { ids: valid })
          .getMany()
      : [];
    const byId = new Map(runs.map((run) => [run.id, run]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  async runsByExperiments(ids: readonly string[]): Promise<Run[][]> {
    const runs = await this.dataSource.manager
      .createQueryBuilder(Run, "run")
      .where("run.experiment_id = ANY(:ids)", { ids: [...ids] })
      // The grid's order: kind, setting (the study's order), k; runs are created together, so their time and
      // random ids said nothing.
      .orderBy("run.kind", "ASC")
      .addOrderBy("run.setting", "ASC", "NULLS LAST")
      .addOrderBy("run.shots", "ASC")
      .addOrderBy("run.created_at", "ASC")
      .addOrderBy("run.id", "ASC")
      .getMany();
    return ids.map((id) => runs.filter((run) => run.experimentId === id));
  }
}
