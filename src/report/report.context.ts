import { ReportService } from "./report.service";
import { ReportRowService } from "./report-row.service";

/** What the study report adds to the request context (src/graphql/context.ts). */
declare module "../graphql/context" {
  interface Services {
    report: ReportService;
    /** The report as flat rows, kept current. */
    reportRows: ReportRowService;
  }
}
