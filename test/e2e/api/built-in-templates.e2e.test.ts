import { BUILT_IN_TEMPLATES as BUILT_INS, TemplateService } from "../../../src/template/template.service";
import { BACKENDS, createTestDatabase, TestDatabase } from "../../support/databases";

describe.each(BACKENDS)("the built-in templates, written once per database (%s)", (backend) => {
  let database: TestDatabase;
  const queries: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(backend, { onQuery: (sql) => queries.push(sql) });
  });
  afterAll(() => database.close());

  const stored = async () =>
    (await database.dataSource.query(
      "SELECT key, version, note, body FROM prompt_template ORDER BY key, version",
    )) as { key: string; version: number; note: string; body: object }[];

  it("writes every built-in version, exactly once, when several processes start on an empty database", async () => {
    // Each service stands for a process of its own (its own memory of what it ensured).
    await Promise.all(
      Array.from({ length: 4 }, () => new TemplateService(database.dataSource).ensureDefaults()),
    );
    const rows = await stored();
    expect(rows).toHaveLength(BUILT_INS.length);
    for (const builtIn of BUILT_INS)
      expect(rows).toContainEqual({
        key: builtIn.key,
        version: builtIn.version,
        note: builtIn.note,
        body: JSON.parse(JSON.stringify(builtIn.body)),
      });
  });

  it("reads once and writes nothing when they are all there", async () => {
    queries.length = 0;
    await new TemplateService(database.dataSource).ensureDefaults();
    expect(queries).toHaveLength(1);
    expect(queries[0]).toMatch(/^\s*SELECT/);
    expect(await stored()).toHaveLength(BUILT_INS.length);
  });

  it("adds a changed built-in as the next version of its key, leaving the stored versions as they are", async () => {
    const [changed] = BUILT_INS;
    // A database written by an earlier memicl whose built-in differed: the stored version keeps its text.
    await database.dataSource.query(
      'UPDATE prompt_template SET body = body || \'{"note": "older"}\'::jsonb WHERE key = $1 AND version = $2',
      [changed.key, changed.version],
    );
    await new TemplateService(database.dataSource).ensureDefaults();
    const versions = (await stored()).filter((row) => row.key === changed.key);
    const latest = Math.max(...versions.map((row) => row.version));
    expect(versions.find((row) => row.version === changed.version)?.body).toMatchObject({ note: "older" });
    expect(versions.find((row) => row.version === latest)).toEqual({
      key: changed.key,
      version: latest,
      note: changed.note,
      body: JSON.parse(JSON.stringify(changed.body)),
    });
    expect(await stored()).toHaveLength(BUILT_INS.length + 1);
  });
});
