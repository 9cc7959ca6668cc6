import os from "node:os";
import { Writable } from "node:stream";
import { Client } from "pg";
import { connect } from "../src/db/database";
import { exportCompletions } from "../src/report/export.service";
import { ReportService } from "../src/report/report.service";
import * as sql from "../src/report/report.sql";
import { REPORT_TABLES } from "../src/report/tables";
import type { ReportField, ReportTableOf } from "../src/report/tables/table";
import { NoMemoryFloors } from "../src/sample/no-memory-floors";
import { BreakdownGroup, MemorizationMeasure } from "../src/study/measures";
import { percentile } from "./percentile";

/**
 * Fills one experiment with `runsPerCell` memorization runs per dataset x setting x k (4 x 3 x 5), 200
 * instances each, every completion judged, plus performance runs; and a second experiment of 100,000 rows
 * to export. All generated in SQL, so the figures are about reading, not writing.
 */
export async function generate(client: Client, runsPerCell: number, exportRuns: number) {
  await client.query(`
    INSERT INTO dataset (id, name, task_kind, text_fields, label_verbalizers, instance_count)
    SELECT gen_random_uuid(), 'bench-' || d, 'CLASSIFICATION', '["text"]', '[{"label":"a","verbalizer":"a"},{"label":"b","verbalizer":"b"}]', 200
    FROM generate_series(1, 4) d`);
  await client.query(`
    INSERT INTO dataset_source (dataset_id, split, format, file_name, fingerprint, row_count)
    SELECT id, 'train', 'csv', 'bench.csv', md5(id::text) || md5(id::text), 200 FROM dataset`);
  await client.query(`
    INSERT INTO instance (dataset_id, source_id, split, line, text, label)
    SELECT s.dataset_id, s.id, 'train', i, 'text number ' || i || ' of the benchmark dataset with some words', CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END
    FROM dataset_source s, generate_series(1, 200) i`);
  await client.query(`
    INSERT INTO sample (dataset_id, seed, instance_split, demonstration_split, requested_instance_count, requested_demonstration_count,
                        shot_counts, cut_min, cut_max, dataset_fingerprint, parameters_hash, content_hash, algorithm_version)
    SELECT id, 1, 'train', 'train', 200, 200, '[0,25,50,100,200]', 0.6, 0.8, md5(id::text) || md5(id::text), md5(name) || md5(name), md5(name) || md5(name), 1 FROM dataset`);
  await client.query(`
    INSERT INTO sampled_instance (sample_id, instance_id, position, label, initial_segment, subsequent_segment, cut_token_index, token_count)
    SELECT s.id, i.id, row_number() OVER (PARTITION BY s.id ORDER BY i.id) - 1, i.label, 'text number', 'of the benchmark dataset', 2, 9
    FROM sample s JOIN instance i ON i.dataset_id = s.dataset_id`);
  for (const [name, runs] of [
    ["bench", runsPerCell],
    ["export", exportRuns],
  ] as const) {
    await client.query(`INSERT INTO experiment (name, provider, model) VALUES ($1, 'simulated', 'bench')`, [
      name,
    ]);
    await client.query(
      `INSERT INTO run (experiment_id, sample_id, kind, setting, shots, provider, model, max_output_tokens, repeats, template_key, template_version,
                        dataset_fingerprint, code_version, status, expected_count, done_count)
       SELECT e.id, s.id, 'MEMORIZATION', setting::run_setting_enum, k, 'simulated', 'bench', 100, 1, 'x', 1, s.dataset_fingerprint, 'bench', 'SUCCEEDED', 200, 200
       FROM experiment e, sample s, unnest(ARRAY['FULL_INFORMATION','SEGMENT_PAIRS_AND_LABELS','ONLY_SEGMENT_PAIRS']) setting,
            unnest(ARRAY[0,25,50,100,200]) k, generate_series(1, $2) rep
       WHERE e.name = $1 AND ($1 = 'bench' OR (setting = 'FULL_INFORMATION' AND k = 0))`,
      [name, name === "bench" ? runs : Math.ceil(runs / 4)],
    );
    await client.query(
      `INSERT INTO run (experiment_id, sample_id, kind, setting, shots, provider, model, max_output_tokens, repeats, template_key, template_version,
                        dataset_fingerprint, code_version, status, expected_count, done_count)
       SELECT e.id, s.id, 'PERFORMANCE', NULL, k, 'simulated', 'bench', 10, 3, 'x', 1, s.dataset_fingerprint, 'bench', 'SUCCEEDED', 600, 600
       FROM experiment e, sample s, unnest(ARRAY[0,25,50,100,200]) k WHERE e.name = $1`,
      [name],
    );
  }
  // The rows the judgment trigger would write, written in bulk with triggers off (session_replication_role
  // replica): at ten million judgments a trigger per row takes hours; the counts are then made as the
  // InstanceVerdictCounts migration backfills them.
  await client.query("SET session_replication_role = replica");
  await client.query(`
    INSERT INTO completion (run_id, sampled_instance_id, repeat, status, output, correct, parsed_label, prompt_tokens, completion_tokens, attempts, effective_verdict)
    SELECT r.id, si.id, rep, 'SUCCEEDED', 'of the benchmark dataset', (hashtext(si.id::text || r.id::text || rep) % 3 <> 0), 'a', 500, 10, 1,
           CASE WHEN r.kind = 'MEMORIZATION'
                THEN (ARRAY['EXACT','NEAR_EXACT','INEXACT','INEXACT'])[1 + abs(hashtext(r.id::text || ':' || si.id::text || ':' || rep)) % 4] END
    FROM run r JOIN sampled_instance si ON si.sample_id = r.sample_id, generate_series(0, r.repeats - 1) rep`);
  await client.query(`
    INSERT INTO judgment (completion_id, verdict, judge_kind, judge_name, judge_version)
    SELECT c.id, c.effective_verdict::judgment_verdict_enum, 'HEURISTIC', 'heuristic', 'heuristic-1'
    FROM completion c WHERE c.effective_verdict IS NOT NULL`);
  await client.query(`
    INSERT INTO run_verdict_count (run_id, verdict, count)
    SELECT run_id, effective_verdict, count(*) FROM completion WHERE effective_verdict IS NOT NULL GROUP BY run_id, effective_verdict`);
  await client.query(`
    INSERT INTO instance_verdict_count (experiment_id, sample_id, setting, shots, sampled_instance_id, exact, near_exact, inexact)
    SELECT r.experiment_id, r.sample_id, r.setting::text, r.shots, c.sampled_instance_id,
           count(*) FILTER (WHERE c.effective_verdict = 'EXACT'),
           count(*) FILTER (WHERE c.effective_verdict = 'NEAR_EXACT'),
           count(*) FILTER (WHERE c.effective_verdict = 'INEXACT')
    FROM completion c JOIN run r ON r.id = c.run_id
    WHERE r.kind = 'MEMORIZATION' AND c.effective_verdict IS NOT NULL
    GROUP BY r.experiment_id, r.sample_id, r.setting, r.shots, c.sampled_instance_id`);
  await client.query("SET session_replication_role = DEFAULT");
  await client.query("VACUUM ANALYZE");
}

async function time<T>(times: number, action: () => Promise<T>): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    await action();
    durations.push(performance.now() - started);
  }
  return durations;
}

/**
 * `npm run bench -- results [--runs-per-cell 84] [--pg URL]`: 84 runs per cell is about 1.1M judged completions;
 * 840 about 10M (the 10x size).
 */
export async function benchResults(args: string[]) {
  const option = (name: string, fallback: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : fallback;
  };
  const runsPerCell = Number(option("--runs-per-cell", "84"));
  const adminUrl = option(
    "--pg",
    process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  );
  const name = `memicl_bench_results_${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await connect("server", url.toString(), name, null, { poolSize: 4 });
  try {
    const client = new Client({ connectionString: url.toString() });
    await client.connect();
    const generated = performance.now();
    await generate(client, runsPerCell, 500);
    const [{ count }] = (await client.query("SELECT count(*)::int AS count FROM judgment")).rows;
    const [{ bench }] = (await client.query("SELECT id AS bench FROM experiment WHERE name = 'bench'")).rows;
    const [{ exported }] = (await client.query("SELECT id AS exported FROM experiment WHERE name = 'export'"))
      .rows;
    const [{ exportRows }] = (
      await client.query(
        'SELECT count(*)::int AS "exportRows" FROM completion c JOIN run r ON r.id = c.run_id WHERE r.experiment_id = $1',
        [exported],
      )
    ).rows;
    process.stderr.write(
      `generated ${count} judged completions in ${((performance.now() - generated) / 1000).toFixed(0)} s\n`,
    );
    const results = new ReportService(db.dataSource, new NoMemoryFloors(db.dataSource));
    const all = [BreakdownGroup.DATASET, BreakdownGroup.SETTING, BreakdownGroup.SHOTS];
    const readBreakdown = () =>
      results.memorizationBreakdown({ experimentId: bench }, all, MemorizationMeasure.EXACT_OR_NEAR_EXACT);
    // A write to the results (what a judgment or a review does to its run) before each cold read: the value is
    // computed again. Warm reads follow a first read of the same state: served as computed.
    const touch = () =>
      client.query(
        "UPDATE run SET waiting_reason = NULL WHERE id = (SELECT id FROM run WHERE experiment_id = $1 ORDER BY id LIMIT 1)",
        [bench],
      );
    const cold = async <T>(times: number, action: () => Promise<T>) => {
      const durations: number[] = [];
      for (let i = 0; i < times; i += 1) {
        await touch();
        durations.push(...(await time(1, action)));
      }
      return durations;
    };
    // One read of each first: the first report computes and stores the samples' no-memory floors, once per sample
    // and floor version, which is not what a write costs.
    await readBreakdown();
    await results.studyReport(bench);
    const breakdownCold = await cold(20, readBreakdown);
    const breakdown = await time(50, readBreakdown);
    const reportCold = await cold(20, () => results.studyReport(bench));
    const report = await time(50, () => results.studyReport(bench));
    // Each table alone, from the rows as they are (what a write costs a table, beside the reads it shares).
    const parts: [string, number[]][] = [];
    for (const table of REPORT_TABLES)
      parts.push([
        `  part: ${table.field}`,
        await time(3, () => results.table(bench, table as ReportTableOf<ReportField>)),
      ]);
    const explain = async (statement: string) =>
      (await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement}`, [bench])).rows.map(
        (row) => row["QUERY PLAN"] as string,
      );
    const plan = await explain(sql.memorizationCounts);
    const transitionPlan = args.includes("--plans") ? await explain(sql.nearExactToExact) : [];

    let written = 0;
    let peakRss = process.memoryUsage().rss;
    const sink = new Writable({
      write(chunk, _encoding, done) {
        written += chunk.length;
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        done();
      },
    });
    const rssBefore = process.memoryUsage().rss;
    const exportStarted = performance.now();
    const rows = await exportCompletions(db.dataSource, exported, "jsonl", sink);
    const exportSeconds = (performance.now() - exportStarted) / 1000;
    await client.end();

    console.log(
      `node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}, PostgreSQL server, ${count} judged memorization completions in one experiment\n`,
    );
    console.log("| what | runs | p50 ms | p95 ms | max ms |");
    console.log("| --- | ---: | ---: | ---: | ---: |");
    for (const [label, durations] of [
      ["memorizationBreakdown (dataset x setting x k), after a write", breakdownCold],
      ["memorizationBreakdown, results unchanged since the last read", breakdown],
      ["studyReport, after a write", reportCold],
      ["studyReport, results unchanged since the last read", report],
      ...parts,
    ] as [string, number[]][]) {
      console.log(
        `| ${label} | ${durations.length} | ${percentile(durations, 50).toFixed(0)} | ${percentile(durations, 95).toFixed(0)} | ${Math.max(...durations).toFixed(0)} |`,
      );
    }
    console.log(
      `\nexport: ${rows} of ${exportRows} rows as JSONL (${(written / 1e6).toFixed(0)} MB) in ${exportSeconds.toFixed(1)} s; RSS before ${(rssBefore / 1e6).toFixed(0)} MB, peak during ${(peakRss / 1e6).toFixed(0)} MB`,
    );
    console.log("\nplan of the memorization counts:\n```");
    for (const line of plan) console.log(line);
    console.log("```");
    for (const line of transitionPlan) console.log(line);
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
