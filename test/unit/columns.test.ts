import fs from "node:fs";
import path from "node:path";
import { EXPORT_COLUMNS } from "../../src/report/export.service";
import { StudyReport } from "../../src/report/report.types";
import { comparisonCsv, reportCsv } from "../../src/report/report-csv";

const METRICS_DOC = fs.readFileSync(path.resolve(__dirname, "../../docs/METRICS.md"), "utf8");
const section = METRICS_DOC.slice(METRICS_DOC.indexOf("## Every column a notebook sees"));

/** docs/METRICS.md names every column of the flat forms that leave memicl: the page and the code agree. */
describe("the documented columns", () => {
  it("list the completions export's columns, in order", () => {
    const listed = section.slice(section.indexOf("**The completions export**"));
    const names = [...listed.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]);
    expect(names.filter((name) => (EXPORT_COLUMNS as readonly string[]).includes(name))).toEqual([
      ...EXPORT_COLUMNS,
    ]);
  });

  it("list the report CSV's header and every table it writes", () => {
    const empty = { memorization: [], memorizationExactOnly: [] } as unknown as StudyReport;
    const header = reportCsv(new Proxy(empty, { get: (target, key) => (target as never)[key] ?? [] }))
      .trim()
      .split("\n")[0]
      .split(",");
    for (const column of header) expect(section).toContain(`| \`${column}\``);
    const source = fs.readFileSync(path.resolve(__dirname, "../../src/report/report-csv.ts"), "utf8");
    const tables = new Set([...source.matchAll(/(?:push\(|\[)"([a-z_]+)"/g)].map((match) => match[1]));
    for (const table of tables) if (!header.includes(table)) expect(section).toContain(`\`${table}\``);
  });

  it("list the comparison CSV's header", () => {
    const listed = section.slice(section.indexOf("**A comparison as one long CSV**"));
    const header = comparisonCsv({ experiments: [], rows: [] } as never)
      .trim()
      .split(",");
    for (const column of header) expect(listed.slice(0, 600)).toContain(`\`${column}\``);
  });
});
