import { createHash, randomBytes } from "node:crypto";
import { DataSource } from "typeorm";
import { BadInputError, ConflictError, NotFoundError } from "../common/errors";
import { ApiKey } from "./api-key.entity";
import { isRole, ROLES, Role } from "./roles";

/** Who made a request. */
export interface Principal {
  keyId: string;
  name: string;
  role: Role;
  /** A blind reviewer (roles.ts, BLIND_FIELDS): sees what reviewing needs and nothing of other judges. */
  blind: boolean;
}

const KEY_PREFIX = "memicl_";
const hash = (key: string) => createHash("sha256").update(key).digest("hex");

/** Keys carry 192 random bits, so a fast hash is enough to keep them (no password stretching needed). */
export class ApiKeyService {
  /** When each key's `last_used_at` was last written, so a busy key costs one write a minute, not one a request. */
  private readonly lastWritten = new Map<string, number>();

  constructor(private readonly dataSource: DataSource) {}

  /** Creates a key; the secret is returned once and never stored. */
  async create(name: string, role: string, blind = false): Promise<{ key: string; apiKey: ApiKey }> {
    const trimmed = name.trim();
    if (!/^[\w.@-]{1,100}$/.test(trimmed))
      throw new BadInputError("a key's name is 1-100 letters, digits, '.', '@', '_' or '-'", {
        field: "name",
      });
    if (!isRole(role)) throw new BadInputError(`role must be one of ${ROLES.join(", ")}`, { field: "role" });
    if (blind && role !== "reviewer")
      throw new BadInputError(
        `a blind key is a reviewer's (role reviewer); a ${role} key reads verdicts and models by its role`,
        { field: "role" },
      );
    const repository = this.dataSource.getRepository(ApiKey);
    const existing = await repository
      .createQueryBuilder("key")
      .where("key.name = :name AND key.revoked_at IS NULL", { name: trimmed })
      .getOne();
    if (existing)
      throw new ConflictError(`a key named "${trimmed}" exists; revoke it first or choose another name`);
    const key = `${KEY_PREFIX}${randomBytes(24).toString("base64url")}`;
    const apiKey = await repository.save(
      repository.create({
        name: trimmed,
        role,
        blind,
        keyHash: hash(key),
        prefix: key.slice(0, KEY_PREFIX.length + 6),
      }),
    );
    return { key, apiKey };
  }

  list(): Promise<ApiKey[]> {
    return this.dataSource.getRepository(ApiKey).find({ order: { createdAt: "ASC" } });
  }

  /** Revokes the live key with this name (or id); a revoked key is refused at once. */
  async revoke(nameOrId: string): Promise<ApiKey> {
    const rows: ApiKey[] = await this.dataSource
      .getRepository(ApiKey)
      .createQueryBuilder("key")
      .where("key.revoked_at IS NULL AND (key.name = :value OR key.id::text = :value)", { value: nameOrId })
      .getMany();
    if (rows.length === 0) throw new NotFoundError("API key", nameOrId);
    await this.dataSource.query("UPDATE api_key SET revoked_at = now() WHERE id = $1", [rows[0].id]);
    return { ...rows[0], revokedAt: new Date() };
  }

  /** The principal of a bearer key; null for an unknown or revoked key. */
  async authenticate(key: string): Promise<Principal | null> {
    if (!key.startsWith(KEY_PREFIX)) return null;
    const [row]: { id: string; name: string; role: string; blind: boolean }[] = await this.dataSource.query(
      "SELECT id, name, role, blind FROM api_key WHERE key_hash = $1 AND revoked_at IS NULL",
      [hash(key)],
    );
    if (!row || !isRole(row.role)) return null;
    const now = Date.now();
    if (now - (this.lastWritten.get(row.id) ?? 0) > 60_000) {
      this.lastWritten.set(row.id, now);
      await this.dataSource.query("UPDATE api_key SET last_used_at = now() WHERE id = $1", [row.id]);
    }
    return { keyId: row.id, name: row.name, role: row.role, blind: row.blind === true };
  }
}

/** The key in an `Authorization: Bearer <key>` header, if any. */
export function bearerKey(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match ? match[1] : null;
}
