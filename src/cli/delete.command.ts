import { Config } from "../config/config";
import { openForCommand } from "./open-database";

export type DeletableKind = "experiment" | "sample" | "dataset";

/** `memicl delete experiment|sample|dataset ID [--dry-run]`: what the delete mutations do, with their counts. */
export async function runDelete(
  config: Config,
  kind: DeletableKind,
  id: string,
  options: { dryRun?: boolean },
): Promise<void> {
  const command = await openForCommand(config);
  const { deletions } = command.services;
  try {
    const dryRun = options.dryRun ?? false;
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
