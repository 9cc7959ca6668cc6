import type { DataSource } from "typeorm";
import { SampleInstances } from "../../../src/report/sample-instances";

/** A data source whose sampled instances are `rows`, counting the reads. */
function source(rows: Record<string, unknown>[]) {
  const reads: string[][] = [];
  const dataSource = {
    query: async (_sql: string, [ids]: [string[]]) => {
      reads.push(ids);
      return rows.filter((row) => ids.includes(row.sample_id as string));
    },
  } as unknown as DataSource;
  return { dataSource, reads };
}

const row = (sample: string, id: string, reference: string, minWords: number | null = null) => ({
  sample_id: sample,
  sampled_instance_id: id,
  instance_id: `i${id}`,
  reference,
  label: "yes",
  min_target_words: minWords,
});

describe("the sampled instances a report reads", () => {
  it("are read once per sample, only the samples not read yet", async () => {
    const { dataSource, reads } = source([row("a", "1", "one two three four"), row("b", "2", "yes")]);
    const instances = new SampleInstances(dataSource);
    const first = await instances.of(["a"]);
    expect(first.get("a")).toEqual([
      { sampledInstanceId: "1", instanceId: "i1", label: "yes", words: 4, trivial: false },
    ]);
    const both = await instances.of(["a", "b"]);
    expect(both.get("b")).toEqual([
      { sampledInstanceId: "2", instanceId: "i2", label: "yes", words: 1, trivial: true },
    ]);
    await instances.of(["b", "a"]);
    expect(reads).toEqual([["a"], ["b"]]);
  });

  it("judge a reference trivial by its sample's own minimum", async () => {
    const { dataSource } = source([row("a", "1", "one two three four", 5)]);
    expect((await new SampleInstances(dataSource).of(["a"])).get("a")![0].trivial).toBe(true);
  });

  it("keep nothing for a sample without instances, and forget the least recently used beyond the limit", async () => {
    const { dataSource, reads } = source([row("a", "1", "x"), row("b", "2", "x"), row("c", "3", "x")]);
    const instances = new SampleInstances(dataSource, 2);
    await instances.of(["none"]);
    await instances.of(["none"]);
    await instances.of(["a"]);
    await instances.of(["b"]);
    await instances.of(["a"]); // a is now the most recently used
    await instances.of(["c"]); // b is forgotten
    await instances.of(["a"]);
    await instances.of(["b"]);
    expect(reads).toEqual([["none"], ["none"], ["a"], ["b"], ["c"], ["b"]]);
  });
});
