import { Transform, TransformCallback } from "node:stream";
import { ImportError } from "./import.errors";

export const IMPORT_ENCODINGS = ["utf8", "latin1"] as const;
export type ImportEncoding = (typeof IMPORT_ENCODINGS)[number];

/**
 * Decodes a file's bytes into UTF-8 text, strictly: invalid UTF-8 (a Latin-1 file read as UTF-8, say) and NUL
 * bytes (a binary file) fail with the line they are on, rather than turning into U+FFFD or breaking an insert.
 * `latin1` reads ISO-8859-1 on purpose (its Windows-1252 superset, as browsers do).
 */
export function decodingStream(encoding: ImportEncoding): Transform {
  let decoder: InstanceType<typeof TextDecoder> | null = null;
  /** The decoder, chosen by the first bytes: a UTF-16 byte-order mark is honoured, a UTF-32 one named. */
  const decoderFor = (first: Buffer): InstanceType<typeof TextDecoder> => {
    const bom = byteOrderMark(first);
    if (bom === "utf-32le" || bom === "utf-32be")
      throw new ImportError(
        1,
        `the file is UTF-32 (${bom === "utf-32le" ? "little" : "big"}-endian, by its byte-order mark), which memicl does not read: save it as UTF-8`,
      );
    const label = bom ?? (encoding === "utf8" ? "utf-8" : "windows-1252");
    return new TextDecoder(label, { fatal: true, ignoreBOM: false });
  };
  let line = 1;
  const check = (text: string) => {
    const nul = text.indexOf("\u0000");
    if (nul >= 0) {
      throw new ImportError(
        line + count(text.slice(0, nul), "\n"),
        "NUL byte in the data (is this a binary file?)",
      );
    }
    line += count(text, "\n");
  };
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      let text: string;
      try {
        decoder ??= decoderFor(chunk);
      } catch (error) {
        done(error as Error);
        return;
      }
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        // The chunk's complete lines decoded fine up to the bad byte; find which line that is.
        done(new ImportError(line + firstBadLine(chunk), describeBadBytes(encoding)));
        return;
      }
      try {
        check(text);
      } catch (error) {
        done(error as Error);
        return;
      }
      done(null, text);
    },
    flush(done: TransformCallback) {
      try {
        const rest = decoder ? decoder.decode() : "";
        check(rest);
        done(null, rest || undefined);
      } catch (error) {
        done(error instanceof ImportError ? error : new ImportError(line, describeBadBytes(encoding)));
      }
    },
  });
}

function describeBadBytes(encoding: ImportEncoding): string {
  return encoding === "utf8"
    ? "not valid UTF-8 (if the file is Latin-1, import it with --encoding latin1)"
    : "undecodable bytes";
}

/** Lines before the first byte sequence that is not UTF-8 in `chunk` (0 when it is on the first line). */
function firstBadLine(chunk: Buffer): number {
  let lines = 0;
  let start = 0;
  for (let index = 0; index <= chunk.length; index++) {
    if (index === chunk.length || chunk[index] === 0x0a) {
      try {
        new TextDecoder("utf-8", { fatal: true }).decode(chunk.subarray(start, index));
      } catch {
        return lines;
      }
      lines += 1;
      start = index + 1;
    }
  }
  return lines;
}

function count(text: string, character: string): number {
  let found = 0;
  for (let index = text.indexOf(character); index >= 0; index = text.indexOf(character, index + 1)) found++;
  return found;
}

/** The Unicode encoding a file's byte-order mark names (UTF-32 checked before UTF-16, whose marks they extend). */
export function byteOrderMark(bytes: Buffer): "utf-16le" | "utf-16be" | "utf-32le" | "utf-32be" | null {
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xfe && bytes[2] === 0 && bytes[3] === 0)
    return "utf-32le";
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0xfe && bytes[3] === 0xff)
    return "utf-32be";
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return null;
}
