import { BACKENDS } from "../../support/databases";
import { classificationJsonl, IMPORT_MUTATION, nliCsv } from "../../support/fixtures";
import { startTestServer, TestServer } from "../../support/server";

describe.each(BACKENDS)("datasets over GraphQL (%s database)", (backend) => {
  let api: TestServer;

  beforeAll(async () => {
    api = await startTestServer(backend);
    for (const [name, content, format] of [
      ["alpha-nli", nliCsv(30), "csv"],
      ["beta-cls", classificationJsonl(45), "jsonl"],
      ["gamma-cls", classificationJsonl(12, ["x", "y"]), "jsonl"],
    ]) {
      const response = await api.gql(IMPORT_MUTATION, { input: { name, content, format } });
      expect(response.errors).toBeUndefined();
    }
  });
  afterAll(() => api?.close());

  it("imports inline content and recognises the same file sent again", async () => {
    const again = await api.gql(IMPORT_MUTATION, {
      input: { name: "alpha-nli", content: nliCsv(30), format: "csv" },
    });
    expect(again.data?.importDataset).toMatchObject({
      alreadyImported: true,
      rowCount: 30,
      dataset: { name: "alpha-nli", taskKind: "NLI", instanceCount: 30 },
    });
  });

  it("pages through datasets by name with opaque cursors and counts them with the same filter", async () => {
    const query = `query($after: String) { datasets(first: 2, after: $after, filter: { nameContains: "-" }) {
      edges { cursor node { name } } pageInfo { hasNextPage endCursor } } datasetCount(filter: { nameContains: "-" }) }`;
    const first = await api.gql(query);
    expect(first.data?.datasets.edges.map((edge: any) => edge.node.name)).toEqual(["alpha-nli", "beta-cls"]);
    expect(first.data?.datasets.pageInfo.hasNextPage).toBe(true);
    expect(first.data?.datasetCount).toBe(3);
    const second = await api.gql(query, { after: first.data?.datasets.pageInfo.endCursor });
    expect(second.data?.datasets.edges.map((edge: any) => edge.node.name)).toEqual(["gamma-cls"]);
    expect(second.data?.datasets.pageInfo.hasNextPage).toBe(false);
  });

  it("filters a dataset's instances by label and counts them with the same filter", async () => {
    const list = await api.gql(`{ datasets(filter: { nameContains: "beta" }) { edges { node {
      instances(first: 100, filter: { label: "b", split: "train" }) { edges { node { label split text } } }
      instanceCount(filter: { label: "b" })
      labels { label verbalizer count }
    } } } }`);
    const node = list.data?.datasets.edges[0].node;
    expect(node.instances.edges).toHaveLength(15);
    expect(node.instances.edges.every((edge: any) => edge.node.label === "b")).toBe(true);
    expect(node.instanceCount).toBe(15);
    expect(node.labels).toEqual([
      { label: "a", verbalizer: "a", count: 15 },
      { label: "b", verbalizer: "b", count: 15 },
      { label: "c", verbalizer: "c", count: 15 },
    ]);
  });

  it("walks every instance exactly once with keyset cursors", async () => {
    const dataset = await api.gql(
      `{ datasets(filter: { nameContains: "alpha" }) { edges { node { id } } } }`,
    );
    const id = dataset.data?.datasets.edges[0].node.id;
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page += 1) {
      const response: any = await api.gql(
        `query($id: ID!, $after: String) { dataset(id: $id) { instances(first: 7, after: $after) {
          edges { node { id externalId } } pageInfo { hasNextPage endCursor } } } }`,
        { id, after },
      );
      const connection = response.data.dataset.instances;
      seen.push(...connection.edges.map((edge: any) => edge.node.externalId));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => String(i)));
  });

  it("answers a nested list query with a fixed number of SQL statements, however many datasets", async () => {
    const query = `{ datasets(first: 10) { edges { node { name instanceCount labels { label count }
      sources { fileName } instances(first: 3) { edges { node { id dataset { name } } } } } } } }`;
    api.resetQueries();
    const response = await api.gql(query);
    expect(response.errors).toBeUndefined();
    expect(response.data?.datasets.edges).toHaveLength(3);
    // datasets page, counts, labels, sources, instance pages, instance -> dataset: one statement each (the
    // metric rows' background refresher, every 2 s, may read its state meanwhile: not this request's)
    const statements = api.queries.filter(
      (sql) => /^\s*(SELECT|WITH)/i.test(sql) && !sql.includes("metric_state"),
    );
    expect(statements).toHaveLength(6);
  });

  it("reports an unknown id as NOT_FOUND and a foreign cursor as BAD_USER_INPUT", async () => {
    const missing = await api.gql(`{ dataset(id: "00000000-0000-0000-0000-000000000000") { name } }`);
    expect(missing.errors?.[0].extensions?.code).toBe("NOT_FOUND");
    const garbage = await api.gql(`{ dataset(id: "not-a-uuid") { name } }`);
    expect(garbage.errors?.[0].extensions?.code).toBe("NOT_FOUND");
    const cursor = await api.gql(`{ datasets(after: "bm9wZQ") { edges { cursor } } }`);
    expect(cursor.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    const tooMany = await api.gql(`{ datasets(first: 100000) { edges { cursor } } }`);
    expect(tooMany.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("rejects invalid input with BAD_USER_INPUT and names the field", async () => {
    const response = await api.gql(IMPORT_MUTATION, {
      input: { name: "bad name!", content: "x", format: "xml" },
    });
    expect(response.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(response.errors?.[0].message).toMatch(/name/);
  });

  it("names the line of a malformed row and keeps nothing of that import", async () => {
    const broken = `${nliCsv(5)}"only one column"\n`;
    const response = await api.gql(IMPORT_MUTATION, {
      input: { name: "delta-broken", content: broken, format: "csv" },
    });
    expect(response.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", line: 7 });
    const count = await api.gql(`{ datasetCount(filter: { nameContains: "delta" }) }`);
    expect(count.data?.datasetCount).toBe(0);
  });

  it("refuses a file whose labels the dataset does not have, unless asked, and keeps nothing of it", async () => {
    const counts = async () =>
      (
        await api.gql(
          `{ datasets(first: 10, filter: { nameContains: "gamma" }) { edges { node { instanceCount } } } }`,
        )
      ).data!.datasets.edges[0].node.instanceCount;
    const before = await counts();
    const foreign = {
      name: "gamma-cls",
      content: classificationJsonl(6, ["entailment", "x"]),
      format: "jsonl",
      split: "test",
    };
    const refused = await api.gql(IMPORT_MUTATION, { input: foreign });
    expect(refused.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", line: 1 });
    expect(refused.errors?.[0].message).toMatch(
      /label "entailment" is not one of dataset "gamma-cls"'s labels \(x, y\).*--allow-new-labels/,
    );
    expect(await counts()).toBe(before);
    const accepted = await api.gql(IMPORT_MUTATION, { input: { ...foreign, allowNewLabels: true } });
    expect(accepted.errors).toBeUndefined();
    expect(await counts()).toBe(before + 6);
  });

  it("refuses queries deeper than the limit", async () => {
    const deep = `{ datasets { edges { node { instances { edges { node { dataset { instances { edges { node { dataset {
      instances { edges { node { id } } } } } } } } } } } } } } }`;
    const response = await api.gql(deep);
    expect(response.errors?.[0].extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  it("masks unexpected errors: no SQL, no stack", async () => {
    await api.database.dataSource.query("ALTER TABLE dataset_source RENAME TO dataset_source_moved");
    try {
      const response = await api.gql(`{ datasets { edges { node { sources { fileName } } } } }`);
      expect(response.errors?.[0]).toMatchObject({
        message: "Internal server error",
        extensions: { code: "INTERNAL_SERVER_ERROR" },
      });
      expect(JSON.stringify(response)).not.toMatch(/dataset_source|SELECT|at /);
    } finally {
      await api.database.dataSource.query("ALTER TABLE dataset_source_moved RENAME TO dataset_source");
    }
  });
});
