import { Config } from "../config/config";
import { openForCommand } from "./open-database";

export async function runMigrate(config: Config): Promise<void> {
  const command = await openForCommand(config);
  const { database } = command;
  try {
    const applied: { name: string }[] = await database.dataSource.query(
      "SELECT name FROM migrations ORDER BY id",
    );
    process.stdout.write(`schema up to date; ${applied.length} migration(s) applied:\n`);
    for (const { name } of applied) process.stdout.write(`  ${name}\n`);
  } finally {
    await command.close();
  }
}
