import { DataSource } from "typeorm";
import { decodeCursor, encodeCursor } from "../common/cursor";
import { NotFoundError } from "../common/errors";
import { isUuid } from "../common/ids";
import { escapeLike } from "../common/like";
import { checkPageSize, Page, toPage } from "../graphql/connection";
import { Experiment } from "./experiment.entity";
import { ExperimentFilter } from "./experiment.types";

/** Experiments as records: read, listed, counted. Starting one (its grid of runs) is the run concept's. */
export class ExperimentService {
  constructor(private readonly dataSource: DataSource) {}

  async get(id: string): Promise<Experiment> {
    const experiment = isUuid(id) ? await this.dataSource.manager.findOneBy(Experiment, { id }) : null;
    if (!experiment) throw new NotFoundError("Experiment", id);
    return experiment;
  }

  /** Experiments, newest first, keyset-paged. */
  async list(first: number, after: string | null, filter: ExperimentFilter = {}): Promise<Page<Experiment>> {
    checkPageSize(first);
    const query = this.filtered(filter)
      .orderBy("experiment.created_at", "DESC")
      .addOrderBy("experiment.id", "DESC")
      .limit(first + 1);
    if (after) {
      const [createdAt, id] = decodeCursor("Experiment", after);
      query.andWhere("(experiment.created_at, experiment.id) < (:createdAt, :id)", { createdAt, id });
    }
    const rows = await query.getMany();
    return toPage(rows, first, (row) => encodeCursor("Experiment", [row.createdAt.toISOString(), row.id]));
  }

  count(filter: ExperimentFilter = {}): Promise<number> {
    return this.filtered(filter).getCount();
  }

  private filtered(filter: ExperimentFilter) {
    const query = this.dataSource.manager.createQueryBuilder(Experiment, "experiment");
    if (filter.nameContains)
      query.andWhere("experiment.name ILIKE :pattern", {
        pattern: `%${escapeLike(filter.nameContains)}%`,
      });
    if (filter.model !== undefined) query.andWhere("experiment.model = :model", { model: filter.model });
    if (filter.provider !== undefined)
      query.andWhere("experiment.provider = :provider", { provider: filter.provider });
    // Samples and datasets are reached through the experiment's runs (the run concept's table, read here by SQL).
    if (filter.sampleId !== undefined) {
      if (!isUuid(filter.sampleId)) query.andWhere("false");
      else
        query.andWhere(
          "EXISTS (SELECT 1 FROM run WHERE run.experiment_id = experiment.id AND run.sample_id = :sampleId)",
          { sampleId: filter.sampleId },
        );
    }
    if (filter.dataset !== undefined)
      query.andWhere(
        `EXISTS (SELECT 1 FROM run JOIN sample ON sample.id = run.sample_id JOIN dataset ON dataset.id = sample.dataset_id
                 WHERE run.experiment_id = experiment.id AND dataset.name = :dataset)`,
        { dataset: filter.dataset },
      );
    return query;
  }
}
