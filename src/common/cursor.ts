import { BadInputError } from "./errors";

/** Opaque keyset cursors: base64url of the sort key's values, tagged with what they page through. */
export function encodeCursor(kind: string, key: unknown[]): string {
  return Buffer.from(JSON.stringify([kind, ...key])).toString("base64url");
}

export function decodeCursor(kind: string, cursor: string): unknown[] {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value[0] === kind) return value.slice(1);
  } catch {
    // fall through to the error below
  }
  throw new BadInputError(`"after" is not a cursor of this list`, { field: "after" });
}
