import { Readable } from "node:stream";
import { defaultVerbalizer } from "../../../src/dataset/import/dataset-import.service";
import { mapRecord, resolveFieldMapping } from "../../../src/dataset/import/field-mapping";
import { ImportError } from "../../../src/dataset/import/import.errors";
import {
  formatFromFileName,
  RawRecord,
  ReadOptions,
  readRecords,
} from "../../../src/dataset/import/import-format";
import { parseVerbalizerFile } from "../../../src/dataset/import/verbalizer-file";
import { TaskKind } from "../../../src/study/task";

async function read(content: string, options: ReadOptions): Promise<RawRecord[]> {
  const records: RawRecord[] = [];
  for await (const record of readRecords(Readable.from([Buffer.from(content)]), options))
    records.push(record);
  return records;
}

describe("reading records", () => {
  it("guesses the format from the extension", () => {
    expect(formatFromFileName("train.tsv")).toBe("tsv");
    expect(formatFromFileName("TREC_10.label")).toBe("trec");
    expect(formatFromFileName("x.JSONL")).toBe("jsonl");
    expect(formatFromFileName("notes.txt")).toBeNull();
  });

  it("keeps quotes literal in GLUE TSV", async () => {
    const [record] = await read('index\tsentence1\tsentence2\tlabel\n0\t"Quoted" start\tand "inner\tyes\n', {
      format: "tsv",
    });
    expect(record.fields).toEqual({
      index: "0",
      sentence1: '"Quoted" start',
      sentence2: 'and "inner',
      label: "yes",
    });
  });

  it("reads quoted CSV fields with commas, escaped quotes and line breaks, and a BOM", async () => {
    const records = await read('\uFEFFtext,label\n"a, ""b""\nc",x\nd,y\n', { format: "csv" });
    expect(records.map((record) => record.fields)).toEqual([
      { text: 'a, "b"\nc', label: "x" },
      { text: "d", label: "y" },
    ]);
    expect(records[1].line).toBe(4);
  });

  it("names headerless CSV columns as told", async () => {
    const [record] = await read('"10","Some abstract"\n', { format: "csv", columns: ["label", "text"] });
    expect(record.fields).toEqual({ label: "10", text: "Some abstract" });
  });

  it("reads TREC lines with coarse or fine labels", async () => {
    const line = "DESC:manner How did serfdom develop in and then leave Russia ?\n";
    expect((await read(line, { format: "trec" }))[0].fields).toEqual({
      label: "DESC",
      question: "How did serfdom develop in and then leave Russia ?",
    });
    expect((await read(line, { format: "trec", trecLabels: "fine" }))[0].fields.label).toBe("DESC:manner");
  });

  it("skips blank JSONL lines but counts them in line numbers", async () => {
    const records = await read('{"text":"a","label":1}\n\n{"text":"b","label":0}\n', { format: "jsonl" });
    expect(records.map((record) => record.line)).toEqual([1, 3]);
  });

  it("rejects a JSONL line that is not an object", async () => {
    await expect(read('{"text":"a","label":1}\n[1,2]\n', { format: "jsonl" })).rejects.toThrow(
      new ImportError(2, "each line must be a JSON object"),
    );
  });
});

describe("field mapping", () => {
  const record = (fields: Record<string, unknown>): RawRecord => ({ line: 2, fields });

  it("recognises NLI pairs and row ids", () => {
    const mapping = resolveFieldMapping(record({ sentence1: "a", sentence2: "b", label: "x", idx: "3" }), {});
    expect(mapping).toEqual({
      textFields: ["sentence1", "sentence2"],
      labelField: "label",
      idField: "idx",
      taskKind: TaskKind.NLI,
    });
  });

  it("recognises a single text field as classification", () => {
    expect(resolveFieldMapping(record({ question: "a", label: "x" }), {}).taskKind).toBe(
      TaskKind.CLASSIFICATION,
    );
  });

  it("says which fields exist when it cannot find the text", () => {
    expect(() => resolveFieldMapping(record({ body: "a", label: "x" }), {})).toThrow(
      /the fields are: body, label/,
    );
  });

  it("turns numeric JSON labels into strings and trims texts", () => {
    const mapping = resolveFieldMapping(record({ text: " a ", label: 0 }), {});
    expect(mapRecord(record({ text: " a ", label: 0 }), mapping)).toEqual({
      line: 2,
      text: "a",
      secondText: null,
      label: "0",
      externalId: null,
    });
  });
});

describe("verbalizer files", () => {
  it("reads DBpedia's `n: Name` lines and skips comments", () => {
    expect(parseVerbalizerFile("1: Artist\n# note\n\n2=Company\nABBR\tabbreviation\n")).toEqual({
      "1": "Artist",
      "2": "Company",
      ABBR: "abbreviation",
    });
  });

  it("names the line it cannot read", () => {
    expect(() => parseVerbalizerFile("1: Artist\nnonsense\n")).toThrow(/line 2/);
  });
});

describe("default verbalizers of new labels", () => {
  it("takes the words in parentheses after a code (WNLI), else the label itself", () => {
    expect(defaultVerbalizer("1 (entailment)")).toBe("entailment");
    expect(defaultVerbalizer("0 (not entailment)")).toBe("not entailment");
    expect(defaultVerbalizer("not_entailment")).toBe("not entailment");
    expect(defaultVerbalizer("entailment")).toBe("entailment");
    expect(defaultVerbalizer("ABBR")).toBe("ABBR");
    expect(defaultVerbalizer("DESC:manner")).toBe("DESC:manner");
    // Read from the TREC label format, TREC's codes are named in words (a model cannot guess "ENTY").
    expect(defaultVerbalizer("ABBR", "trec")).toBe("abbreviation");
    expect(defaultVerbalizer("LOC", "trec")).toBe("location");
    expect(defaultVerbalizer("DESC:manner", "trec")).toBe("description: manner");
    expect(defaultVerbalizer("HUM:ind", "trec")).toBe("human: individual");
    expect(defaultVerbalizer("1 (entailment)", "trec")).toBe("entailment");
  });
});

describe("errors about a header", () => {
  it("name its fields in a bounded message, however long a field name is", () => {
    const huge = "x".repeat(5_000_000);
    const fields: Record<string, string> = { [huge]: "a" };
    for (let i = 0; i < 30; i++) fields[`f${i}`] = "b";
    let message = "";
    try {
      resolveFieldMapping({ line: 1, fields }, {});
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^line 1: cannot tell which field holds the text/);
    expect(message).toContain(`${"x".repeat(60)}...`);
    expect(message).toContain("and 11 more");
    expect(message.length).toBeLessThan(1000);
  });
});
