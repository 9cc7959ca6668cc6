import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** Content to import: hashed up front so a file seen before is recognised without reading it twice into the DB. */
export interface ImportSource {
  fileName: string;
  byteLength: number;
  sha256: string;
  open(): Readable;
}

export async function fileSource(filePath: string): Promise<ImportSource> {
  const hash = createHash("sha256");
  await pipeline(fs.createReadStream(filePath), hash);
  return {
    fileName: path.basename(filePath),
    byteLength: fs.statSync(filePath).size,
    sha256: hash.digest("hex"),
    open: () => fs.createReadStream(filePath, { highWaterMark: 256 * 1024 }),
  };
}

export function inlineSource(fileName: string, content: string): ImportSource {
  const bytes = Buffer.from(content, "utf8");
  return {
    fileName,
    byteLength: bytes.length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    open: () => Readable.from([bytes]),
  };
}
