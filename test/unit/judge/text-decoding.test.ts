import { Readable } from "node:stream";
import { readRecords } from "../../../src/dataset/import/import-format";
import { decodingStream, ImportEncoding } from "../../../src/dataset/import/text-decoding";

async function read(bytes: Buffer, encoding: ImportEncoding = "utf8", format: "csv" | "jsonl" = "csv") {
  const input = Readable.from([bytes]).pipe(decodingStream(encoding));
  const rows = [];
  for await (const record of readRecords(input, { format })) rows.push(record);
  return rows;
}

describe("reading file bytes as text", () => {
  it("reads UTF-8, keeping every character", async () => {
    const rows = await read(Buffer.from("text,label\nCafé crème ☕,a\n", "utf8"));
    expect(rows[0].fields.text).toBe("Café crème ☕");
  });

  it("names the line of a Latin-1 byte in a file read as UTF-8 and suggests --encoding latin1", async () => {
    const bytes = Buffer.concat([
      Buffer.from("text,label\nfine,a\n", "utf8"),
      Buffer.from("caf\xe9,b\n", "latin1"),
    ]);
    await expect(read(bytes)).rejects.toMatchObject({ line: 3, problem: expect.stringMatching(/latin1/) });
  });

  it("reads Latin-1 on purpose", async () => {
    const rows = await read(Buffer.from("text,label\ncaf\xe9,b\n", "latin1"), "latin1");
    expect(rows[0].fields.text).toBe("café");
  });

  it("refuses a NUL byte with its line (binary files)", async () => {
    const bytes = Buffer.from("text,label\nok,a\nbad\u0000,b\n", "utf8");
    await expect(read(bytes)).rejects.toMatchObject({ line: 3, problem: expect.stringMatching(/NUL/) });
  });

  it("refuses NUL bytes in JSON lines too", async () => {
    const bytes = Buffer.from('{"text":"a","label":"x"}\n{"text":"b\u0000","label":"y"}\n', "utf8");
    await expect(read(bytes, "utf8", "jsonl")).rejects.toMatchObject({ line: 2 });
  });

  it("finds the bad line when it spans chunks", async () => {
    const head = Buffer.from(`text,label\n${"x,a\n".repeat(5000)}`, "utf8");
    const input = Readable.from([head, Buffer.from([0xff, 0x2c, 0x62, 0x0a])]).pipe(decodingStream("utf8"));
    const reading = (async () => {
      for await (const _ of readRecords(input, { format: "csv" })) {
        // drain
      }
    })();
    await expect(reading).rejects.toMatchObject({ line: 5002 });
  });
});
