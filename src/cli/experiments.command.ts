import { Config } from "../config/config";
import { openPlainReadOnly } from "./read-only";

/** `memicl experiments`: every experiment, newest first, with its runs' progress and states. */
export async function runExperimentsList(config: Config): Promise<void> {
  const reader = await openPlainReadOnly(config);
  try {
    const rows: {
      id: string;
      name: string;
      provider: string;
      model: string;
      created_at: Date;
      runs: number;
      done: number;
      failed: number;
      expected: number;
      states: string | null;
    }[] = await reader.query(`
      SELECT e.id, e.name, e.provider, e.model, e.created_at, count(r.id)::int AS runs,
             coalesce(sum(r.done_count), 0)::int AS done, coalesce(sum(r.failed_count), 0)::int AS failed,
             coalesce(sum(r.expected_count), 0)::int AS expected,
             (SELECT string_agg(status || ' ' || n, ', ' ORDER BY status)
                FROM (SELECT status::text AS status, count(*) AS n FROM run WHERE experiment_id = e.id GROUP BY status) s) AS states
      FROM experiment e LEFT JOIN run r ON r.experiment_id = e.id
      GROUP BY e.id ORDER BY e.created_at DESC, e.id`);
    if (rows.length === 0) {
      process.stdout.write("no experiments yet (memicl experiment --sample <id> --provider <name> ...)\n");
      return;
    }
    for (const row of rows)
      process.stdout.write(
        `${row.id}  ${row.name}  ${row.provider}/${row.model}  created ${row.created_at.toISOString()}  ` +
          `${row.runs} runs (${row.states ?? "none"})  ${row.done + row.failed}/${row.expected} done, ${row.failed} failed\n`,
      );
  } finally {
    await reader.close();
  }
}
