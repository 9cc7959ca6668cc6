import {
  demonstrationFloorShots,
  floorVerdicts,
  instanceFloorOf,
  NO_MEMORY_FLOOR_VERSION,
} from "../../../src/judge/no-memory";
import { NoMemoryFloors } from "../../../src/sample/no-memory-floors";
import { loadSiblingContinuations } from "../../../src/sample/sample.sql";
import { BACKENDS } from "../../support/databases";
import { providersFile } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

/**
 * An NLI file of rows `from` to `to`: premise `i % 60` (a later file's rows share their premise with earlier
 * rows, and become their siblings). Every third hypothesis is the same words (its premise's last ones).
 */
function nliRows(from: number, to: number): string {
  const lines = ["sentence1,sentence2,label,idx"];
  for (let i = from; i < to; i += 1) {
    const premise = `The ${i % 60}th keeper of the old lighthouse fed the gulls every morning at dawn.`;
    const hypothesis =
      i % 3 === 0
        ? "fed the gulls every morning at dawn."
        : `Keeper number ${i} never saw a single gull there.`;
    lines.push(`"${premise}","${hypothesis}",${i % 2 ? "entailment" : "not_entailment"},${i}`);
  }
  return `${lines.join("\n")}\n`;
}

describe.each(BACKENDS)("the no-memory floor, stored once per sample (%s)", (backend) => {
  let api: TestServer;
  let datasetId: string;
  let sampleId: string;
  let experimentId: string;

  const storedRows = async () =>
    (await api.database.dataSource.query(
      `SELECT sampled_instance_id::text AS id, memorized, strategy, exact, demonstration_shots AS "demonstrationShots",
              dataset_instance_count AS size
       FROM no_memory_floor WHERE sample_id = $1 AND version = $2 ORDER BY sampled_instance_id`,
      [sampleId, NO_MEMORY_FLOOR_VERSION],
    )) as {
      id: string;
      memorized: boolean;
      strategy: string | null;
      exact: boolean;
      demonstrationShots: number | null;
      size: number;
    }[];

  /** The floors the pure rule gives the sample's instances, from their texts and their siblings now. */
  const expectedFloors = async () => {
    const query = (text: string, parameters: unknown[]) => api.database.dataSource.query(text, parameters);
    const instances: { id: string; input: string; reference: string }[] = await query(
      `SELECT id::text, initial_segment AS input, subsequent_segment AS reference
       FROM sampled_instance WHERE sample_id = $1 ORDER BY position, id`,
      [sampleId],
    );
    const siblings = await loadSiblingContinuations(query, [sampleId]);
    const demonstrations: { rank: number; continuation: string }[] = await query(
      "SELECT rank, subsequent_segment AS continuation FROM demonstration WHERE sample_id = $1 ORDER BY rank",
      [sampleId],
    );
    const inputs = instances.map((row) => ({ ...row, nli: true, siblings: siblings.get(row.id) ?? [] }));
    const verdicts = floorVerdicts(inputs);
    return new Map(
      inputs.map((row, index) => [
        row.id,
        instanceFloorOf(verdicts[index], demonstrationFloorShots(row, demonstrations)),
      ]),
    );
  };

  beforeAll(async () => {
    api = await startTestServer(backend, {
      MEMICL_PROVIDERS_FILE: providersFile({ sim: { type: "simulated" } }),
    });
    const imported = await api.gql(
      `mutation($input: ImportDatasetInput!) { importDataset(input: $input) { dataset { id } } }`,
      { input: { name: "pairs", content: nliRows(0, 60), format: "csv" } },
    );
    expect(imported.errors).toBeUndefined();
    datasetId = imported.data!.importDataset.dataset.id;
    const sample = await api.gql(
      `mutation($input: CreateSampleInput!) { createSample(input: $input) { sample { id } } }`,
      { input: { datasetId, seed: 3, instanceCount: 20, demonstrationCount: 4, shotCounts: [0] } },
    );
    expect(sample.errors).toBeUndefined();
    sampleId = sample.data!.createSample.sample.id;
  });
  afterAll(() => api.close());

  it("stores the floors when the sample is drawn, as the rule computes them", async () => {
    // createSample has answered: they are there before any experiment starts or report is read.
    const rows = await storedRows();
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } } }`,
      {
        input: {
          name: "floors",
          sampleIds: [sampleId],
          kinds: ["MEMORIZATION"],
          provider: "sim",
          model: "m",
        },
      },
    );
    expect(started.errors).toBeUndefined();
    experimentId = started.data!.startExperiment.experiment.id;
    const expected = await expectedFloors();
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((row) => row.size))).toEqual(new Set([60]));
    expect(
      new Map(
        rows.map((row) => [
          row.id,
          {
            memorized: row.memorized,
            strategy: row.strategy,
            exact: row.exact,
            demonstrationShots: row.demonstrationShots,
          },
        ]),
      ),
    ).toEqual(expected);
    // The file was built so that the floor has something to say: a third of the hypotheses are the same words,
    // which a model answering the sample's most common reference gets without memory.
    expect(rows.some((row) => row.memorized && row.strategy === "constant")).toBe(true);
    expect(rows.some((row) => !row.memorized)).toBe(true);
  });

  it("reads stored floors in another process instead of computing them again", async () => {
    const [first] = await storedRows();
    // A stored value the rule would not give: only a read of the table returns it.
    await api.database.dataSource.query(
      `UPDATE no_memory_floor SET memorized = NOT memorized, strategy = 'constant'
       WHERE sample_id = $1 AND sampled_instance_id = $2`,
      [sampleId, first.id],
    );
    const floors = await new NoMemoryFloors(api.database.dataSource).of([sampleId]);
    expect(floors.size).toBe(20);
    expect(floors.get(first.id)).toEqual({
      memorized: !first.memorized,
      strategy: "constant",
      exact: first.exact,
      demonstrationShots: first.demonstrationShots,
    });
  });

  it("computes them again once an import has grown the dataset (new rows can be siblings)", async () => {
    const [tampered] = await storedRows();
    const imported = await api.gql(
      `mutation($input: ImportDatasetInput!) { importDataset(input: $input) { dataset { instanceCount } } }`,
      { input: { name: "pairs", content: nliRows(60, 120), format: "csv" } },
    );
    expect(imported.data?.importDataset.dataset.instanceCount).toBe(120);
    const floors = await new NoMemoryFloors(api.database.dataSource).of([sampleId]);
    const expected = await expectedFloors();
    expect(floors).toEqual(expected);
    const rows = await storedRows();
    expect(rows.find((row) => row.id === tampered.id)).toEqual({
      id: tampered.id,
      size: 120,
      ...expected.get(tampered.id),
    });
    expect(expected.get(tampered.id)!.memorized).toBe(!tampered.memorized);
    expect(new Set(rows.map((row) => row.size))).toEqual(new Set([120]));
  });

  it("goes with its sample", async () => {
    // Its experiment first (its queued runs would refuse the delete; no worker runs them here).
    await api.database.dataSource.query("DELETE FROM experiment WHERE id = $1", [experimentId]);
    const deleted = await api.gql(
      `mutation($id: ID!) { deleteSample(input: { id: $id }) { counts { samples } } }`,
      {
        id: sampleId,
      },
    );
    expect(deleted.errors).toBeUndefined();
    expect(deleted.data!.deleteSample.counts.samples).toBe(1);
    expect(await storedRows()).toEqual([]);
  });
});
