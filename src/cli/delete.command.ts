import readline from "node:readline/promises";
import { Config } from "../config/config";
import { openForCommand } from "./open-database";

export type DeletableKind = "experiment" | "sample" | "dataset";

/** `memicl delete experiment|sample|dataset ID [--dry-run]`: what the delete mutations do, with their counts. */
export async function runDelete(
  config: Config,
  kind: DeletableKind,
  id: string,
  options: { dryRun?: boolean; yes?: boolean },
): Promise<void> {
  const command = await openForCommand(config);
  const { deletions } = command.services;
  const remove = (dryRun: boolean) =>
    kind === "experiment"
      ? deletions.deleteExperiment(id, dryRun)
      : kind === "sample"
        ? deletions.deleteSample(id, dryRun)
        : deletions.deleteDataset(id, dryRun);
  const describe = (counts: object) =>
    Object.entries(counts as Record<string, number>)
      .filter(([, count]) => count > 0)
      .map(([name, count]) => `${count} ${name}`)
      .join(", ") || "nothing else";
  try {
    const dryRun = options.dryRun ?? false;
    // On a terminal, say what would go and ask first (--yes skips it); a script is not asked.
    if (!dryRun && !options.yes && process.stdin.isTTY) {
      const what = describe((await remove(true)).counts);
      const prompt = readline.createInterface({ input: process.stdin, output: process.stderr });
      try {
        const answer = await prompt.question(`delete ${kind} ${id}: ${what}? [y/N] `);
        if (!/^y(es)?$/i.test(answer.trim())) {
          process.stdout.write("not deleted\n");
          return;
        }
      } finally {
        prompt.close();
      }
    }
    const result = await remove(dryRun);
    const counts = describe(result.counts);
    const out = process.stdout;
    if (dryRun) {
      out.write(`would delete ${kind} ${id}: ${counts}\n`);
      if (result.blockedBy) out.write(`refused now: ${result.blockedBy}\n`);
    } else out.write(`deleted ${kind} ${id}: ${counts}\n`);
  } finally {
    await command.close();
  }
}
