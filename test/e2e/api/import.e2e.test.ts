import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import {
  DatasetImportService,
  ImportOptions,
  sourceFingerprint,
} from "../../../src/dataset/import/dataset-import.service";
import { fileSource, inlineSource } from "../../../src/dataset/import/import-source";
import { parseVerbalizerFile } from "../../../src/dataset/import/verbalizer-file";
import { BACKENDS, createTestDatabase, TestDatabase } from "../../support/databases";
import { describeWithSharedData, sharedFile } from "../../support/shared-data";

// TREC fine: the 50 classes plus one corrupt line of the source file (4451: "NUM:How count many innings ..."),
// which the importer keeps as written rather than guessing.
const SHARED_IMPORTS: {
  file: string[];
  options: ImportOptions;
  rows: number;
  labels: number;
  kind: string;
}[] = [
  {
    file: ["datasets", "rte", "train.tsv"],
    options: { datasetName: "rte", format: "tsv", split: "train" },
    rows: 2490,
    labels: 2,
    kind: "NLI",
  },
  {
    file: ["datasets", "trec", "train_5500.label"],
    options: { datasetName: "trec", format: "trec", split: "train" },
    rows: 5444,
    labels: 6,
    kind: "CLASSIFICATION",
  },
  {
    file: ["datasets", "trec", "train_5500.label"],
    options: { datasetName: "trec-fine", format: "trec", split: "train", trecLabels: "fine" },
    rows: 5444,
    labels: 51,
    kind: "CLASSIFICATION",
  },
  {
    file: ["datasets", "wnli", "validation.csv"],
    options: { datasetName: "wnli", format: "csv", split: "validation" },
    rows: 71,
    labels: 2,
    kind: "NLI",
  },
  {
    file: ["datasets", "dbpedia", "sample.csv"],
    options: { datasetName: "dbpedia", format: "csv", split: "train", columns: ["label", "text"] },
    rows: 5000,
    labels: 14,
    kind: "CLASSIFICATION",
  },
];

async function tableCounts(database: TestDatabase) {
  const [row] = await database.dataSource.query(
    "SELECT (SELECT count(*) FROM dataset)::int AS datasets, (SELECT count(*) FROM dataset_source)::int AS sources, (SELECT count(*) FROM instance)::int AS instances",
  );
  return row as { datasets: number; sources: number; instances: number };
}

describe.each(BACKENDS)("dataset import (%s database)", (backend) => {
  let database: TestDatabase;
  let importer: DatasetImportService;
  beforeAll(async () => {
    database = await createTestDatabase(backend);
    importer = new DatasetImportService(database.dataSource);
  });
  afterAll(() => database?.close());

  describeWithSharedData("the shared real datasets", () => {
    it.each(SHARED_IMPORTS)(
      "imports $options.datasetName with its row count and label set",
      async ({ file, options, rows, labels, kind }) => {
        const result = await importer.importDataset(await fileSource(sharedFile(...file)), options);
        expect(result.rowCount).toBe(rows);
        expect(result.labelCounts.size).toBe(labels);
        expect(result.dataset.taskKind).toBe(kind);
        const [{ count }] = await database.dataSource.query(
          "SELECT count(*)::int AS count FROM instance WHERE dataset_id = $1",
          [result.dataset.id],
        );
        expect(count).toBe(rows);
      },
    );

    it("applies DBpedia's class names as verbalizers and adds the TREC test split to the same dataset", async () => {
      const dbpedia = await importer.importDataset(
        await fileSource(sharedFile("datasets", "dbpedia", "sample.csv")),
        {
          datasetName: "dbpedia-named",
          format: "csv",
          split: "train",
          columns: ["label", "text"],
          verbalizers: parseVerbalizerFile(
            fs.readFileSync(sharedFile("datasets", "dbpedia", "classes.txt"), "utf8"),
          ),
        },
      );
      expect(dbpedia.dataset.labelVerbalizers[0]).toEqual({ label: "1", verbalizer: "Artist" });
      expect(dbpedia.dataset.labelVerbalizers[13]).toEqual({ label: "14", verbalizer: "Film" });

      const test = await importer.importDataset(
        await fileSource(sharedFile("datasets", "trec", "TREC_10.label")),
        {
          datasetName: "trec",
          format: "trec",
          split: "test",
        },
      );
      expect(test.datasetCreated).toBe(false);
      expect(test.dataset.totalInstanceCount).toBe(5444 + test.rowCount);
    });

    it("recognises a re-import of the same file and adds nothing", async () => {
      const before = await tableCounts(database);
      const again = await importer.importDataset(
        await fileSource(sharedFile("datasets", "rte", "train.tsv")),
        SHARED_IMPORTS[0].options,
      );
      expect(again.alreadyImported).toBe(true);
      expect(await tableCounts(database)).toEqual(before);
    });
  });

  describe("malformed files", () => {
    const cases: [string, string, ImportOptions["format"], RegExp, number][] = [
      [
        "a TSV row with a missing column",
        "index\tsentence1\tsentence2\tlabel\n0\ta\tb\tyes\n1\tc\tno\n",
        "tsv",
        /wrong number of columns/,
        3,
      ],
      ["a CSV row without its label", "text,label\nhello there,pos\nbye now,\n", "csv", /missing label/, 3],
      ["invalid JSON", '{"text":"a b c","label":"x"}\n{"text": "broken\n', "jsonl", /invalid JSON/, 2],
      [
        "an empty text",
        '{"text":"a b c","label":"x"}\n{"text":"  ","label":"y"}\n',
        "jsonl",
        /empty text/,
        2,
      ],
      [
        "a NUL character",
        `{"text":"a b c","label":"x"}\n${JSON.stringify({ text: "bad \u0000 byte", label: "y" })}\n`,
        "jsonl",
        /NUL character/,
        2,
      ],
      [
        "a JSON-escaped NUL in a label",
        '{"text":"a b c","label":"x"}\n{"text":"d e f","label":"y\\u0000z"}\n',
        "jsonl",
        /NUL character in field "label"/,
        2,
      ],
      [
        "a JSON-escaped NUL in an id",
        '{"idx":"1","text":"a b c","label":"x"}\n{"idx":"2\\u0000","text":"d e f","label":"y"}\n',
        "jsonl",
        /NUL character in field "idx"/,
        2,
      ],
      [
        "a lone surrogate in a label",
        '{"text":"a b c","label":"x"}\n{"text":"d e f","label":"y\\ud800"}\n',
        "jsonl",
        /lone UTF-16 surrogate \(\\ud800\) in field "label"/,
        2,
      ],
      [
        "a lone surrogate in a text",
        '{"text":"a b c","label":"x"}\n{"text":"d \\udc00 f","label":"y"}\n',
        "jsonl",
        /lone UTF-16 surrogate \(\\udc00\) in field "text"/,
        2,
      ],
      [
        "a JSON object where a text belongs",
        '{"text":"a b c","label":"x"}\n{"text":{"nested":"d e f"},"label":"y"}\n',
        "jsonl",
        /field "text" holds a JSON object, not text/,
        2,
      ],
      [
        "two rows with the same id",
        "idx,text,label\n7,a b c,x\n8,d e f,y\n7,g h i,x\n",
        "csv",
        /id "7" repeats the id of line 2/,
        4,
      ],
      [
        "a TREC line without a label",
        "DESC:manner How are you ?\nWhat is this ?\n",
        "trec",
        /COARSE:fine/,
        2,
      ],
    ];

    it.each(cases)(
      "fails on %s, naming the line, and keeps nothing",
      async (_name, content, format, problem, line) => {
        const before = await tableCounts(database);
        const attempt = importer.importDataset(inlineSource(`bad.${format}`, content), {
          datasetName: `bad-${format}`,
          format,
          split: "train",
        });
        await expect(attempt).rejects.toMatchObject({ line, problem: expect.stringMatching(problem) });
        expect(await tableCounts(database)).toEqual(before);
      },
    );

    it("reads a UTF-16 file by its byte-order mark, and names UTF-32 instead of refusing it as bad UTF-8", async () => {
      const bytesSource = (name: string, bytes: Buffer) => ({
        fileName: name,
        byteLength: bytes.length,
        sha256: createHash("sha256").update(bytes).digest("hex"),
        open: () => Readable.from([bytes]),
      });
      const csv = "text,label\nunicode café text,x\nanother row here,y\n";
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv, "utf16le")]);
      const read = await importer.importDataset(bytesSource("wide.csv", utf16), {
        datasetName: "utf16",
        format: "csv",
        split: "train",
      });
      expect(read.rowCount).toBe(2);
      const [{ text }] = await database.dataSource.query(
        "SELECT text FROM instance WHERE dataset_id = $1 ORDER BY id LIMIT 1",
        [read.dataset.id],
      );
      expect(text).toBe("unicode café text");

      const before = await tableCounts(database);
      const utf32 = Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from("t\0\0\0", "latin1")]);
      await expect(
        importer.importDataset(bytesSource("wider.csv", utf32), {
          datasetName: "utf32",
          format: "csv",
          split: "train",
        }),
      ).rejects.toMatchObject({
        line: 1,
        problem: expect.stringMatching(/UTF-32 \(little-endian, by its byte-order mark\).*save it as UTF-8/),
      });
      expect(await tableCounts(database)).toEqual(before);
    });

    it("keeps nothing when the bad row comes after several thousand good ones", async () => {
      const before = await tableCounts(database);
      const good = Array.from({ length: 4500 }, (_, i) => `"text ${i} with words",label${i % 3}`).join("\n");
      const attempt = importer.importDataset(inlineSource("late.csv", `text,label\n${good}\n"oops",\n`), {
        datasetName: "late",
        format: "csv",
        split: "train",
      });
      await expect(attempt).rejects.toMatchObject({ line: 4502 });
      expect(await tableCounts(database)).toEqual(before);
    });

    it("refuses to add a one-text file to an NLI dataset", async () => {
      await importer.importDataset(inlineSource("pairs.csv", "sentence1,sentence2,label\na,b,yes\n"), {
        datasetName: "pairs",
        format: "csv",
        split: "train",
      });
      const attempt = importer.importDataset(inlineSource("single.csv", "text,label\na,yes\n"), {
        datasetName: "pairs",
        format: "csv",
        split: "test",
      });
      await expect(attempt).rejects.toMatchObject({ code: "CONFLICT" });
    });
  });

  it("stores tabs, backslashes, quotes and line breaks exactly as written", async () => {
    const text = 'tab\there, back\\slash \\N, "quoted"\nnew line\r\nand CRLF';
    const result = await importer.importDataset(
      inlineSource("odd.jsonl", `${JSON.stringify({ text, label: "a\\b", id: "\\N" })}\n`),
      {
        datasetName: "odd",
        format: "jsonl",
        split: "train",
      },
    );
    const [row] = await database.dataSource.query(
      "SELECT text, label, external_id, second_text FROM instance WHERE dataset_id = $1",
      [result.dataset.id],
    );
    expect(row).toEqual({ text, label: "a\\b", external_id: "\\N", second_text: null });
  });

  it("imports a larger file in batches, reporting progress after each", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-import-"));
    const file = path.join(dir, "big.csv");
    const out = fs.createWriteStream(file);
    out.write("text,label\n");
    for (let i = 0; i < 20_000; i += 1)
      out.write(`"row ${i} of a larger file, quoted, with ""escaped"" quotes",c${i % 4}\n`);
    await new Promise((resolve) => out.end(resolve));
    const progress: number[] = [];
    const result = await importer.importDataset(
      await fileSource(file),
      { datasetName: "big", format: "csv", split: "train" },
      (p) => progress.push(p.rowsRead),
    );
    expect(result.rowCount).toBe(20_000);
    expect(progress).toEqual([5_000, 10_000, 15_000, 20_000]);
    const [{ text }] = await database.dataSource.query(
      "SELECT text FROM instance WHERE dataset_id = $1 ORDER BY id LIMIT 1",
      [result.dataset.id],
    );
    expect(text).toBe('row 0 of a larger file, quoted, with "escaped" quotes');
    fs.rmSync(dir, { recursive: true });
  });
});

describe("source fingerprints", () => {
  it("are the same whether defaults are spelled out or left out, and differ when the reading differs", () => {
    const source = inlineSource("a.csv", "text,label\na b c,x\n");
    const bare = sourceFingerprint(source, { datasetName: "a", format: "csv", split: "train" });
    expect(
      sourceFingerprint(source, { datasetName: "b", format: "csv", split: "train", labelField: "label" }),
    ).toBe(bare);
    expect(sourceFingerprint(source, { datasetName: "a", format: "csv", split: "test" })).not.toBe(bare);
    expect(
      sourceFingerprint(source, { datasetName: "a", format: "csv", split: "train", labelField: "text" }),
    ).not.toBe(bare);
    const trec = inlineSource("t.label", "DESC:manner How ?\n");
    expect(
      sourceFingerprint(trec, { datasetName: "t", format: "trec", split: "train", labelField: "label" }),
    ).toBe(
      sourceFingerprint(trec, { datasetName: "t", format: "trec", split: "train", trecLabels: "coarse" }),
    );
  });
});
