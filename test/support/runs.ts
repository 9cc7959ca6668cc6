import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { patient } from "./patience";
import { TestServer } from "./server";
import { TEST_SCRATCH_ENV } from "./test-cluster";

/** Writes a providers file for the test and returns its path. */
export function providersFile(providers: Record<string, unknown>): string {
  // In the test run's scratch folder, which the global teardown removes.
  const parent = process.env[TEST_SCRATCH_ENV] ?? os.tmpdir();
  const dir = fs.mkdtempSync(path.join(parent, "memicl-providers-"));
  const file = path.join(dir, "providers.json");
  fs.writeFileSync(file, JSON.stringify({ providers }));
  return file;
}

/** A classification dataset of `rows` distinct texts of 10-14 words, imported and sampled; returns the sample id. */
export async function classificationSample(
  api: TestServer,
  name: string,
  options: { rows: number; instances: number; demonstrations: number; shots: number[]; labels?: string[] },
): Promise<string> {
  const labels = options.labels ?? ["alpha", "beta"];
  const lines = Array.from({ length: options.rows }, (_, i) =>
    JSON.stringify({
      text: Array.from({ length: 10 + (i % 5) }, (_, w) => `${name}${i}w${w}`).join(" "),
      label: labels[i % labels.length],
    }),
  );
  const imported = await api.gql(
    `mutation($input: ImportDatasetInput!) { importDataset(input: $input) { dataset { id } } }`,
    { input: { name, content: `${lines.join("\n")}\n`, format: "jsonl" } },
  );
  if (imported.errors) throw new Error(JSON.stringify(imported.errors));
  const sample = await api.gql(
    `mutation($input: CreateSampleInput!) { createSample(input: $input) { sample { id } } }`,
    {
      input: {
        datasetId: imported.data!.importDataset.dataset.id,
        seed: 5,
        instanceCount: options.instances,
        demonstrationCount: options.demonstrations,
        shotCounts: options.shots,
      },
    },
  );
  if (sample.errors) throw new Error(JSON.stringify(sample.errors));
  return sample.data!.createSample.sample.id;
}

export const RUN_FIELDS = `id status expectedCount doneCount failedCount cacheHitCount lastError waitingReason promptTokens completionTokens costUsd reportedModel kind setting shots`;

/**
 * Polls a run until `done(run)` holds; fails after `timeoutMs`. `onEach` sees every state read on the way (a
 * waiting reason, say); with `tolerateErrors`, a request that fails (the database is away) is tried again.
 */
export async function waitForRun(
  api: TestServer,
  runId: string,
  done: (run: any) => boolean,
  timeoutMs = 30_000,
  options: { onEach?: (run: any) => void | Promise<void>; tolerateErrors?: boolean } = {},
): Promise<any> {
  // Scaled by the machine's load: a busy machine answers slower, and the run is not stuck for that.
  const deadline = Date.now() + patient(timeoutMs);
  for (;;) {
    const response = await api
      .gql(`query($id: ID!) { run(id: $id) { ${RUN_FIELDS} } }`, { id: runId })
      .catch((error) => {
        if (!options.tolerateErrors) throw error;
        return {
          status: 0,
          data: undefined as Record<string, any> | undefined,
          errors: [{ message: String(error) }],
        };
      });
    const run = response.data?.run;
    if (run) await options.onEach?.(run);
    if (run && done(run)) return run;
    if (Date.now() > deadline)
      throw new Error(`run did not get there in ${timeoutMs} ms: ${JSON.stringify(run ?? response)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

export const finished = (run: any) => ["SUCCEEDED", "FAILED", "CANCELLED"].includes(run.status);

export async function startRun(api: TestServer, input: Record<string, unknown>): Promise<any> {
  const response = await api.gql(
    `mutation($input: StartRunInput!) { startRun(input: $input) { created run { ${RUN_FIELDS} } } }`,
    { input },
  );
  if (response.errors) throw new Error(JSON.stringify(response.errors));
  return response.data!.startRun;
}

export async function completionsOf(api: TestServer, runId: string): Promise<any[]> {
  const response = await api.gql(
    `query($id: ID!) { run(id: $id) { completions(first: 500) { edges { node {
      id repeat status output error attempts cacheHit parsedLabel correct latencyMs reportedModel systemFingerprint promptHash
      sampledInstance { id initialSegment subsequentSegment label } } } } } }`,
    { id: runId },
  );
  return response.data!.run.completions.edges.map((edge: any) => edge.node);
}
