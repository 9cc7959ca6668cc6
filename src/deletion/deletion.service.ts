import { DataSource, EntityManager } from "typeorm";
import { ConflictError, NotFoundError } from "../common/errors";
import { isUuid } from "../common/ids";
import { discardWaitingJobsOfRuns, waitingJobsOfRuns } from "../queue/job-queue";
import { DeletionCounts } from "./deletion.types";

/** Refuses a delete: throws, or in a dry run records why it would be refused. */
type Refuse = (error: ConflictError) => void;

const ZERO: DeletionCounts = {
  datasets: 0,
  instances: 0,
  samples: 0,
  experiments: 0,
  runs: 0,
  completions: 0,
  judgments: 0,
  queuedJobs: 0,
};

/**
 * Deletes experiments, samples and datasets with what depends on them, in one transaction each; refuses while a
 * run that would go is active, and a sample or dataset that runs still use. A dry run counts and deletes nothing.
 */
export class DeletionService {
  constructor(private readonly dataSource: DataSource) {}

  deleteExperiment(id: string, dryRun: boolean) {
    return this.inTransaction(dryRun, async (manager, refuse) => {
      await this.lock(manager, "experiment", id);
      const runIds = await this.runIds(manager, "experiment_id", id);
      await this.refuseActive(manager, refuse, runIds, "experiment", id);
      const counts = { ...ZERO, experiments: 1, ...(await this.runCounts(manager, runIds)) };
      if (!dryRun) {
        await discardWaitingJobsOfRuns(manager, runIds);
        await manager.query("DELETE FROM experiment WHERE id = $1", [id]);
      }
      return counts;
    });
  }

  deleteSample(id: string, dryRun: boolean) {
    return this.inTransaction(dryRun, async (manager, refuse) => {
      await this.lock(manager, "sample", id);
      await this.refuseUsed(manager, refuse, [id], "sample", id);
      if (!dryRun) await manager.query("DELETE FROM sample WHERE id = $1", [id]);
      return { ...ZERO, samples: 1 };
    });
  }

  deleteDataset(id: string, dryRun: boolean) {
    return this.inTransaction(dryRun, async (manager, refuse) => {
      await this.lock(manager, "dataset", id);
      const samples: { id: string }[] = await manager.query("SELECT id FROM sample WHERE dataset_id = $1", [
        id,
      ]);
      await this.refuseUsed(
        manager,
        refuse,
        samples.map((sample) => sample.id),
        "dataset",
        id,
      );
      const [{ count }] = await manager.query(
        "SELECT count(*)::int AS count FROM instance WHERE dataset_id = $1",
        [id],
      );
      if (!dryRun) {
        await manager.query("DELETE FROM sample WHERE dataset_id = $1", [id]);
        await manager.query("DELETE FROM dataset WHERE id = $1", [id]);
      }
      return { ...ZERO, datasets: 1, instances: count, samples: samples.length };
    });
  }

  /**
   * Runs a delete in one transaction. A refusal (CONFLICT) is thrown, except in a dry run, which reports it in
   * `blockedBy` beside what would go once it is lifted.
   */
  private async inTransaction(
    dryRun: boolean,
    work: (manager: EntityManager, refuse: Refuse) => Promise<DeletionCounts>,
  ): Promise<{ dryRun: boolean; deleted: boolean; counts: DeletionCounts; blockedBy: string | null }> {
    let blockedBy: string | null = null;
    const refuse: Refuse = (error) => {
      if (!dryRun) throw error;
      blockedBy ??= error.message;
    };
    const counts = await this.dataSource.transaction((manager) => work(manager, refuse));
    return { dryRun, deleted: !dryRun, counts: { ...ZERO, ...counts }, blockedBy };
  }

  /** Locks the row (so no run starts on it meanwhile); NOT_FOUND when there is none. */
  private async lock(manager: EntityManager, table: "experiment" | "sample" | "dataset", id: string) {
    const kind = table[0].toUpperCase() + table.slice(1);
    const rows = isUuid(id)
      ? await manager.query(`SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE`, [id])
      : [];
    if (rows.length === 0) throw new NotFoundError(kind, id);
  }

  private async runIds(manager: EntityManager, column: "experiment_id" | "sample_id", id: string) {
    const rows: { id: string }[] = await manager.query(`SELECT id FROM run WHERE ${column} = $1 FOR UPDATE`, [
      id,
    ]);
    return rows.map((row) => row.id);
  }

  private async refuseActive(
    manager: EntityManager,
    refuse: Refuse,
    runIds: string[],
    kind: string,
    id: string,
  ) {
    const [{ count }] = await manager.query(
      "SELECT count(*)::int AS count FROM run WHERE id = ANY($1::uuid[]) AND status IN ('QUEUED', 'RUNNING')",
      [runIds],
    );
    if (count > 0)
      refuse(
        new ConflictError(`${kind} ${id} has ${count} active run(s): cancel them first (cancelRun)`, {
          activeRuns: count,
        }),
      );
  }

  private async refuseUsed(
    manager: EntityManager,
    refuse: Refuse,
    sampleIds: string[],
    kind: string,
    id: string,
  ) {
    const rows: { experiment_id: string | null; count: number }[] = await manager.query(
      "SELECT experiment_id::text, count(*)::int AS count FROM run WHERE sample_id = ANY($1::uuid[]) GROUP BY experiment_id",
      [sampleIds],
    );
    if (rows.length === 0) return;
    const experiments = rows.filter((row) => row.experiment_id).map((row) => row.experiment_id);
    const runs = rows.reduce((total, row) => total + row.count, 0);
    refuse(
      new ConflictError(
        `${kind} ${id} is used by ${runs} run(s)${experiments.length ? ` of experiment(s) ${experiments.join(", ")}` : ""}: ` +
          "delete those experiments first (deleteExperiment)",
        { runs, experiments },
      ),
    );
  }

  private async runCounts(manager: EntityManager, runIds: string[]) {
    const [row]: { completions: number; judgments: number }[] = await manager.query(
      `SELECT (SELECT count(*)::int FROM completion WHERE run_id = ANY($1::uuid[])) AS completions,
              (SELECT count(*)::int FROM judgment j JOIN completion c ON c.id = j.completion_id
                 WHERE c.run_id = ANY($1::uuid[])) AS judgments`,
      [runIds],
    );
    return { runs: runIds.length, ...row, queuedJobs: await waitingJobsOfRuns(manager, runIds) };
  }
}
