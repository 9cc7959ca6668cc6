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
  try {
    const dryRun = options.dryRun ?? false;
    // On a terminal, say what would go and ask first (--yes skips it); a script is not asked.
    if (!dryRun && !options.yes && process.stdin.isTTY) {
      const plan =
        kind === "experiment"
          ? await deletions.deleteExperiment(id, true)
          : kind === "sample"
            ? await deletions.deleteSample(id, true)
            : await deletions.deleteDataset(id, true);
      const what = Object.entries(plan.counts)
        .filter(([, count]) => count > 0)
        .map(([name, count]) => `${count} ${name}`)
        .join(", ");
      const prompt = readline.createInterface({ input: process.stdin, output: process.stderr });
      try {
        const answer = await prompt.question(`delete ${kind} ${id}: ${what || "nothing else"}? [y/N] `);
        if (!/^y(es)?$/i.test(answer.trim())) {
          process.stdout.write("not deleted\n");
          return;
        }
      } finally {
        prompt.close();
      }
    }
    const result =
      kind === "experiment"
        ? await deletions.deleteExperiment(id, dryRun)
        : kind === "sample"
          ? await deletions.deleteSample(id, dryRun)
          : await deletions.deleteDataset(id, dryRun);
    const counts = Object.entries(result.counts)
      .filter(([, count]) => count > 0)
      .map(([name, count]) => `${count} ${name}`)
      .join(", ");
    const out = process.stdout;
    if (dryRun) {
      out.write(`would delete ${kind} ${id}: ${counts || "nothing else"}\n`);
      if (result.blockedBy) out.write(`refused now: ${result.blockedBy}\n`);
    } else out.write(`deleted ${kind} ${id}: ${counts || "nothing else"}\n`);
  } finally {
    await command.close();
  }
}
