import fs from "node:fs";
import path from "node:path";
import { EXPORT_COLUMNS } from "../../../src/report/export.service";
import { comparisonCsv, REPORT_CSV_COLUMNS, reportCsv } from "../../../src/report/report-csv";
import { FORMER_ROW_NAMES, ROW_NAMES } from "../../../src/report/report-rows";
import { StudyReport } from "../../../src/report/study-report";
import { REPORT_TABLES } from "../../../src/report/tables";

const METRICS_DOC = fs.readFileSync(path.resolve(__dirname, "../../../docs/REPORT-ROWS.md"), "utf8");
const section = METRICS_DOC.slice(METRICS_DOC.indexOf("## Every column a notebook sees"));

/** docs/REPORT-ROWS.md names every column of the flat forms that leave memicl: the page and the code agree. */
describe("the documented columns", () => {
  it("list the completions export's columns, in order", () => {
    const listed = section.slice(section.indexOf("**The completions export**"));
    const names = [...listed.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]);
    expect(names.filter((name) => (EXPORT_COLUMNS as readonly string[]).includes(name))).toEqual([
      ...EXPORT_COLUMNS,
    ]);
  });

  it("list the report CSV's header, which is the flat rows'", () => {
    const empty = Object.fromEntries(REPORT_TABLES.map((table) => [table.field, table.nullable ? null : []]));
    const header = reportCsv({ experimentId: "e", subject: null, ...empty } as unknown as StudyReport)
      .trim()
      .split(",");
    expect(header).toEqual([...REPORT_CSV_COLUMNS]);
    for (const column of header) expect(section).toContain(`| \`${column}\``);
  });

  it("name every statistic of the flat rows and the CSV, and every former name", () => {
    for (const name of ROW_NAMES) expect(METRICS_DOC).toContain(`\`${name}\``);
    for (const former of FORMER_ROW_NAMES.keys()) expect(METRICS_DOC).toContain(`\`${former}\``);
  });

  it("list the comparison CSV's header", () => {
    const listed = section.slice(section.indexOf("**A comparison as one long CSV**"));
    const header = comparisonCsv({ experiments: [], rows: [] } as never)
      .trim()
      .split(",");
    for (const column of header) expect(listed.slice(0, 600)).toContain(`\`${column}\``);
  });
});
