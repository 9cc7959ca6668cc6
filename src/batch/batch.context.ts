import DataLoader from "dataloader";
import { DataSource } from "typeorm";
import { ProviderBatch } from "./provider-batch.entity";

/** What batches add to the request context: a run's provider batches, batched per request. */
declare module "../graphql/context" {
  interface Loaders {
    runBatches: DataLoader<string, ProviderBatch[]>;
  }
}

export function batchLoaders(dataSource: DataSource) {
  return {
    runBatches: new DataLoader(async (runIds: readonly string[]) => {
      const rows = await dataSource.manager
        .createQueryBuilder(ProviderBatch, "b")
        .where("b.run_id = ANY(:ids)", { ids: [...runIds] })
        .orderBy("b.created_at", "ASC")
        .getMany();
      return runIds.map((id) => rows.filter((row) => row.runId === id));
    }),
  };
}
