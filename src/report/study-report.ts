import { Field, ID, Int, ObjectType } from "../graphql/deferred-types";
import { holmAdjust } from "../statistics/tests";
import { ReportSubject } from "./report.types";
import { REPORT_TABLES } from "./tables";
import type { ReportTables } from "./tables/table";

/**
 * Every table of the study for one experiment: the fields below, and one field per table of tables/index.ts
 * (its type, description and value come from the table's own file).
 */
@ObjectType("StudyReport", {
  description: "Every table of the study for one experiment (and the data behind its figures).",
})
class StudyReportFields {
  @Field(() => ID)
  experimentId: string;

  @Field({
    description:
      "When the results this report shows were read. The report is computed once per change of its experiment's " +
      "results (a completion, judgment, review, rejudge or run status touches its run); while a run is going a " +
      "read may return a value that lags the writes by at most about 24 times (MEMICL_RESULTS_SPACING_FACTOR) what " +
      "the experiment's report and breakdowns take to compute (at least 1 s) plus one computation (`fresh: true` " +
      "waits for the current state).",
  })
  computedAt: Date;

  @Field(() => ReportSubject, { description: "Which experiment, provider, model, templates and judges." })
  subject: ReportSubject;

  @Field(() => Int, { description: "Hypothesis tests with a p-value in this report: the Holm family." })
  hypothesisTests: number;

  @Field({ description: "How the report's p-values are adjusted for multiple comparisons." })
  multipleComparisons: string;
}

// The tables' fields: declared by each table (tables/table.ts `ReportTables`), put on the GraphQL type here.
for (const table of REPORT_TABLES)
  Field(table.type as () => unknown as never, { nullable: table.nullable, description: table.description })(
    StudyReportFields.prototype,
    table.field,
  );

/** The study report: the fields above and every table's. */
export type StudyReport = StudyReportFields & ReportTables;
export const StudyReport = StudyReportFields;

/** Holm over every p-value of the report: each test's adjusted p is written beside its raw one. */
export function adjustForMultipleComparisons(report: StudyReport): StudyReport {
  const tested = REPORT_TABLES.filter((table) => table.tests);
  const slots = tested.flatMap((table) => table.tests!.slots(report[table.field]));
  const adjusted = holmAdjust(slots.map((slot) => slot.p));
  slots.forEach((slot, index) => {
    slot.adjusted(adjusted[index]);
  });
  const tests = adjusted.filter((p) => p !== null).length;
  report.hypothesisTests = tests;
  report.multipleComparisons =
    tests === 0
      ? "No hypothesis test ran in this report yet (nothing to adjust for multiple comparisons)."
      : `Holm's step-down adjustment over the ${tests} p-value${tests === 1 ? "" : "s"} of this report ` +
        `(${tested.map((table) => table.tests!.family).join("; ")}), family-wise error rate 5%. ` +
        "Each adjusted value is in the *Holm field beside the raw p.";
  return report;
}
