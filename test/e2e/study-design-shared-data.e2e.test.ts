import { DatasetService } from "../../src/dataset/dataset.service";
import { DatasetImportService, ImportOptions } from "../../src/dataset/import/dataset-import.service";
import { fileSource } from "../../src/dataset/import/import-source";
import { allowedCuts, DEFAULT_CUT_RANGE } from "../../src/sample/design/segmentation";
import { SampleService } from "../../src/sample/sample.service";
import { isTrivialTarget } from "../../src/study/targets";
import { runCli } from "../support/cli";
import { BACKENDS, createTestDatabase, TestDatabase } from "../support/databases";
import { describeWithSharedData, sharedFile } from "../support/shared-data";

interface Case {
  name: string;
  file: string[];
  options: Omit<ImportOptions, "datasetName">;
  split: string;
  instances: number;
  demonstrations: number;
  /** Demonstrations the data can give when fewer than asked (siblings left out). */
  drawnDemonstrations?: number;
}

const CASES: Case[] = [
  {
    name: "rte",
    file: ["datasets", "rte", "train.tsv"],
    options: { format: "tsv", split: "train" },
    split: "train",
    instances: 200,
    demonstrations: 200,
  },
  {
    name: "trec",
    file: ["datasets", "trec", "train_5500.label"],
    options: { format: "trec", split: "train" },
    split: "train",
    instances: 200,
    demonstrations: 200,
  },
  {
    name: "dbpedia",
    file: ["datasets", "dbpedia", "sample.csv"],
    options: { format: "csv", split: "train", columns: ["label", "text"] },
    split: "train",
    instances: 200,
    demonstrations: 200,
  },
  // WNLI's validation split is all that is shared: 71 rows (40 / 31), so instances and demonstrations both come
  // from it. Its rows come in pairs sharing sentence 1: the siblings of the 30 instances are left out of the
  // demonstrations, so only 37 of the 40 asked for can be drawn (the sample's notes say so).
  {
    name: "wnli",
    file: ["datasets", "wnli", "validation.csv"],
    options: { format: "csv", split: "validation" },
    split: "validation",
    instances: 30,
    demonstrations: 40,
    drawnDemonstrations: 37,
  },
];
const SEED = 2024;
const SHOTS = [0, 25, 50, 100, 200];

/** Content hashes seen on the first backend; every other backend (and process) must draw the same. */
const HASHES = new Map<string, string>();

const spread = (counts: number[]) => Math.max(...counts) - Math.min(...counts);

describeWithSharedData("study samples of the shared real datasets", () => {
  describe.each(BACKENDS)("on the %s database", (backend) => {
    let database: TestDatabase;
    let samples: SampleService;
    const drawn = new Map<string, string>();

    beforeAll(async () => {
      database = await createTestDatabase(backend);
      const importer = new DatasetImportService(database.dataSource);
      samples = new SampleService(database.dataSource, new DatasetService(database.dataSource));
      for (const entry of CASES) {
        const { dataset } = await importer.importDataset(await fileSource(sharedFile(...entry.file)), {
          ...entry.options,
          datasetName: entry.name,
        });
        const { sample } = await samples.create({
          datasetId: dataset.id,
          seed: SEED,
          instanceCount: entry.instances,
          demonstrationCount: entry.demonstrations,
          instanceSplit: entry.split,
          demonstrationSplit: entry.split,
          shotCounts: SHOTS.filter((k) => k <= entry.demonstrations),
          cutMin: DEFAULT_CUT_RANGE.min,
          cutMax: DEFAULT_CUT_RANGE.max,
        });
        drawn.set(entry.name, sample.id);
      }
    }, 120_000);
    afterAll(() => database?.close());

    const labelCounts = async (
      table: "sampled_instance" | "demonstration",
      sampleId: string,
      where = "true",
    ) =>
      (
        await database.dataSource.query(
          `SELECT label, count(*)::int AS count FROM ${table} WHERE sample_id = $1 AND ${where} GROUP BY label ORDER BY label`,
          [sampleId],
        )
      ).map((row: { count: number }) => row.count) as number[];

    it.each(CASES)(
      "$name: balanced, disjoint instances and demonstrations",
      async ({ name, instances, demonstrations, drawnDemonstrations }) => {
        const id = drawn.get(name)!;
        const instanceCounts = await labelCounts("sampled_instance", id);
        const demonstrationCounts = await labelCounts("demonstration", id);
        expect(instanceCounts.reduce((a, b) => a + b, 0)).toBe(instances);
        expect(demonstrationCounts.reduce((a, b) => a + b, 0)).toBe(drawnDemonstrations ?? demonstrations);
        expect(spread(instanceCounts)).toBeLessThanOrEqual(1);
        if (name !== "wnli") expect(spread(demonstrationCounts)).toBeLessThanOrEqual(1);
        const [{ shared }] = await database.dataSource.query(
          "SELECT count(*)::int AS shared FROM sampled_instance s JOIN demonstration d ON d.instance_id = s.instance_id AND d.sample_id = s.sample_id WHERE s.sample_id = $1",
          [id],
        );
        expect(shared).toBe(0);
        // No demonstration shares an initial segment with an instance under test (siblings).
        const [{ siblings }] = await database.dataSource.query(
          `SELECT count(*)::int AS siblings FROM sampled_instance s
           JOIN demonstration d ON d.sample_id = s.sample_id
           JOIN instance si ON si.id = s.instance_id JOIN instance di ON di.id = d.instance_id
           WHERE s.sample_id = $1
             AND lower(regexp_replace(CASE WHEN si.second_text IS NULL THEN si.text ELSE si.text END, '\\s+', ' ', 'g'))
               = lower(regexp_replace(di.text, '\\s+', ' ', 'g'))`,
          [id],
        );
        expect(siblings).toBe(0);
      },
    );

    it("wnli: takes all of the short label's demonstrations and says so", async () => {
      const sample = await samples.get(drawn.get("wnli")!);
      expect(await labelCounts("demonstration", sample.id)).toEqual([23, 14]);
      expect(sample.notes.join("\n")).toMatch(
        /demonstrations: label "1 \(entailment\)" has only 14 usable row/,
      );
      expect(sample.notes.join("\n")).toMatch(
        /demonstrations: left out \d+ candidate\(s\) sharing an initial segment with an instance under test \(siblings\)/,
      );
    });

    it.each(CASES.filter((entry) => entry.demonstrations === 200))(
      "$name: nested k-shot sets, each balanced",
      async ({ name }) => {
        for (const k of [25, 50, 100, 200]) {
          expect(
            spread(await labelCounts("demonstration", drawn.get(name)!, `rank < ${k}`)),
          ).toBeLessThanOrEqual(1);
        }
      },
    );

    it.each(["trec", "dbpedia"])(
      "%s: cuts fall between 60%% and 80%% of the tokens and vary across instances",
      async (name) => {
        const rows: {
          cut_token_index: number;
          token_count: number;
          initial_segment: string;
          subsequent_segment: string;
        }[] = await database.dataSource.query(
          "SELECT cut_token_index, token_count, initial_segment, subsequent_segment FROM sampled_instance WHERE sample_id = $1 UNION ALL SELECT cut_token_index, token_count, initial_segment, subsequent_segment FROM demonstration WHERE sample_id = $1",
          [drawn.get(name)],
        );
        expect(rows).toHaveLength(400);
        for (const row of rows) {
          const allowed = allowedCuts(row.token_count, DEFAULT_CUT_RANGE)!;
          expect(row.cut_token_index).toBeGreaterThanOrEqual(allowed.from);
          expect(row.cut_token_index).toBeLessThanOrEqual(allowed.to);
          expect(row.initial_segment.split(/\s+/)).toHaveLength(row.cut_token_index);
          expect(row.subsequent_segment.split(/\s+/)).toHaveLength(row.token_count - row.cut_token_index);
        }
        const ratios = new Set(rows.map((row) => (row.cut_token_index / row.token_count).toFixed(2)));
        expect(ratios.size).toBeGreaterThan(10);
        // Not one ratio for all: among long texts, both ends of the range occur.
        const long = rows
          .filter((row) => row.token_count >= 20)
          .map((row) => row.cut_token_index / row.token_count);
        if (long.length > 20) {
          expect(Math.min(...long)).toBeLessThan(0.65);
          expect(Math.max(...long)).toBeGreaterThan(0.75);
        }
      },
    );

    it("trec: design 3 leaves non-trivial references where it can, and no prompt two instances share", async () => {
      const references = async (sampleId: string) =>
        (
          (await database.dataSource.query(
            "SELECT initial_segment, subsequent_segment FROM sampled_instance WHERE sample_id = $1",
            [sampleId],
          )) as { initial_segment: string; subsequent_segment: string }[]
        ).map((row) => ({ opening: row.initial_segment.toLowerCase(), reference: row.subsequent_segment }));
      const trivialShare = (rows: { reference: string }[]) =>
        rows.filter((row) => isTrivialTarget(row.reference)).length / rows.length;
      const v3 = await references(drawn.get("trec")!);
      const trec = await samples.get(drawn.get("trec")!);
      expect(trec).toMatchObject({ algorithmVersion: 3, minTargetWords: 3 });
      const { sample: older } = await samples.create({
        datasetId: trec.datasetId,
        seed: SEED,
        instanceCount: 200,
        demonstrationCount: 200,
        instanceSplit: "train",
        demonstrationSplit: "train",
        shotCounts: SHOTS,
        cutMin: DEFAULT_CUT_RANGE.min,
        cutMax: DEFAULT_CUT_RANGE.max,
        designVersion: 2,
      });
      const v2 = await references(older.id);
      expect(new Set(v3.map((row) => row.opening)).size).toBe(v3.length);
      // Measured on this file: about 4 in 10 references trivial under design 2, a few in 100 under design 3
      // (the questions too short for any cut in range to leave three words).
      // Measured on this file (seed 2024): 77% of the references trivial under design 2, 53% under design 3.
      // Most TREC questions are too short for any cut within 60-80% to leave three words: those stay trivial,
      // and the notes count exactly them.
      expect(trivialShare(v2)).toBeGreaterThan(0.6);
      expect(trivialShare(v3)).toBeLessThan(trivialShare(v2) - 0.15);
      const noted = Number(
        /instances: (\d+) of 200 have a reference of fewer than 3 words/.exec(trec.notes.join("\n"))?.[1],
      );
      expect(noted).toBe(Math.round(trivialShare(v3) * 200));
      expect(trec.notes.join("\n")).toMatch(/have a reference of fewer than 3 words whatever the cut/);
    });

    it.each(CASES)("$name: the same sample, byte for byte, as on every other database", async ({ name }) => {
      const { contentHash } = await samples.get(drawn.get(name)!);
      if (HASHES.has(name)) expect(contentHash).toBe(HASHES.get(name));
      else HASHES.set(name, contentHash);
    });
  });

  it("draws the same TREC sample in a separate memicl process", async () => {
    // A database of its own on the suite's server: the draw is the other process's, not a second server's.
    const database = await createTestDatabase("embedded");
    const env = { DATABASE_URL: database.url };
    try {
      const imported = await runCli(
        ["import", sharedFile("datasets", "trec", "train_5500.label"), "--name", "trec"],
        env,
      );
      expect(imported.code).toBe(0);
      const sampled = await runCli(["sample", "--dataset", "trec", "--seed", String(SEED)], env);
      expect(sampled.stdout).toContain(`content hash: ${HASHES.get("trec")}`);
    } finally {
      await database.close();
    }
  });
});
