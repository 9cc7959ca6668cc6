import { ROLES } from "../auth/role-names";
import { Config } from "../config/config";
import { openPlainReadOnly } from "./read-only";

/** The full command context (ORM, services): loaded by the commands that write, not by `keys list`. */
const openForCommand: typeof import("./open-database").openForCommand = (...args) =>
  (require("./open-database") as typeof import("./open-database")).openForCommand(...args);

/** `memicl keys create --name NAME --role ROLE [--blind]`: prints the key once; only its hash is kept. */
export async function runKeysCreate(
  config: Config,
  options: { name: string; role: string; blind?: boolean },
): Promise<void> {
  const command = await openForCommand(config, { say: process.stderr });
  try {
    const { key, apiKey } = await command.services.apiKeys.create(
      options.name,
      options.role,
      options.blind === true,
    );
    process.stdout.write(`${key}\n`);
    process.stderr.write(
      `memicl: created key "${apiKey.name}" (role ${apiKey.role}${apiKey.blind ? ", blind" : ""}, id ${apiKey.id}). It is shown once: store it now. ` +
        "Send it as `Authorization: Bearer <key>`; it takes effect where MEMICL_AUTH=keys.\n",
    );
  } finally {
    await command.close();
  }
}

/** `memicl keys list`: every key with its role, prefix and state; never the secret. */
export async function runKeysList(config: Config): Promise<void> {
  const reader = await openPlainReadOnly(config);
  try {
    const keys = await reader.query<{
      id: string;
      name: string;
      role: string;
      blind: boolean;
      prefix: string;
      created_at: Date;
      revoked_at: Date | null;
      last_used_at: Date | null;
    }>(
      "SELECT id, name, role, blind, prefix, created_at, revoked_at, last_used_at FROM api_key ORDER BY created_at",
    );
    if (keys.length === 0) {
      process.stdout.write(`no API keys (roles: ${ROLES.join(", ")}; create one with memicl keys create)\n`);
      return;
    }
    for (const key of keys) {
      const state = key.revoked_at ? `revoked ${key.revoked_at.toISOString()}` : "live";
      const used = key.last_used_at ? `last used ${key.last_used_at.toISOString()}` : "never used";
      process.stdout.write(
        `${key.name}\t${key.role}${key.blind ? " (blind)" : ""}\t${key.prefix}...\t${state}\t${used}\tcreated ${key.created_at.toISOString()}\t${key.id}\n`,
      );
    }
  } finally {
    await reader.close();
  }
}

/** `memicl keys revoke NAME|ID`: the key is refused from the next request on. */
export async function runKeysRevoke(config: Config, nameOrId: string): Promise<void> {
  const command = await openForCommand(config);
  try {
    const key = await command.services.apiKeys.revoke(nameOrId);
    process.stdout.write(`revoked key "${key.name}" (${key.id})\n`);
  } finally {
    await command.close();
  }
}
