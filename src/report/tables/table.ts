import type { InstanceFloor } from "../../judge/no-memory";
import type { BreakdownGroup, MemorizationMeasure } from "../../study/measures";
import type { Regime } from "../../study/regime";
import type { MemorizationSetting } from "../../study/settings";
import type {
  CellCount,
  InstanceOutcome,
  InstancePerformance,
  SampleInfo,
  SummaryRuns,
  TargetInfo,
} from "../analyses";

// What a table of the study report is: one file per table in this folder holds how it is computed from the
// experiment's inputs (by its pure analysis in ../analyses), its Markdown section and its flat rows; its GraphQL row
// type is in ../rows (which the analyses read: rows <- analyses <- tables, never back); index.ts lists the tables
// in the report's order. The study report's GraphQL type, its Markdown, its flat
// rows and its CSV are loops over that list.

/** What a table is computed from: the experiment's rows, each read once per report (report.service.ts). */
export interface ReportInputs {
  readonly experimentId: string;
  /** When the results were read. */
  readonly computedAt: Date;
  samples(): Promise<ReadonlyMap<string, SampleInfo & { split?: string }>>;
  /** Verdict counts per memorization cell. */
  cells(): Promise<CellCount[]>;
  /** Each instance's verdicts per memorization cell. */
  instances(): Promise<InstanceOutcome[]>;
  /** Each instance's performance answers per k. */
  instancePerformance(): Promise<InstancePerformance[]>;
  /** The sampled instances whose reference is trivial, and each one's label and length. */
  targets(): Promise<{ trivial: ReadonlySet<string>; targets: ReadonlyMap<string, TargetInfo> }>;
  /** Each sampled instance's no-memory floor. */
  floors(): Promise<ReadonlyMap<string, InstanceFloor>>;
  /** The version of the no-memory floors read. */
  readonly floorVersion: string;
  /** The experiment's runs, as the contamination summary links them. */
  runs(): Promise<SummaryRuns[]>;
  /** A memorization breakdown of the whole experiment (kept where a breakdown reader finds it). */
  breakdown(groupBy: BreakdownGroup[], measure: MemorizationMeasure): Promise<ReportValue<"memorization">>;
  /** Reads of one table's own (answers' texts, quiz letters, log-probabilities, reviews): see report.service.ts. */
  read<K extends OwnRead>(what: K): Promise<OwnReads[K]>;
  /** Another table's value, computed once per report. */
  table<F extends ReportField>(table: ReportTableOf<F>): Promise<ReportValue<F>>;
}

/** The reads only one table needs, each behind a name (report.service.ts answers them). */
export interface OwnReads {
  performance: ReportValue<"performance">;
  guidedVsGeneral: ReportValue<"guidedVsGeneral">;
  nearExactToExact: ReportValue<"nearExactToExact">;
  /** Time Travel's rule per cell, with the pools its subsets are drawn from. */
  contamination: { rows: ReportValue<"contamination">; pools: ReadonlyMap<string, readonly string[]> };
  quiz: ReportValue<"quiz">;
  logprob: ReadonlyMap<string, import("../rows/logprob").LogprobEvidence>;
  cdd: ReadonlyMap<string, import("../rows/cdd").CddEvidence>;
  ngramCoverage: ReadonlyMap<string, import("../rows/ngram").NgramEvidence>;
  codec: ReadonlyMap<string, import("../rows/codec").CodecEvidence>;
  tsGuessing: ReadonlyMap<string, import("../rows/ts-guessing").GuessingEvidence>;
  review: ReportValue<"review">;
}
export type OwnRead = keyof OwnReads;

/**
 * Each table's field and value type in the study report: empty here, every table file adds its own field
 * (`declare module "./table" { interface ReportTables { zeroVsK: PairedComparisonRow[] } }`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by each table's file
export interface ReportTables {}
export type ReportField = keyof ReportTables;
/** The tables of a report as a section reads them: those its query asked for (a GraphQL read may hold a few). */
export type ReportTablesRead = Readonly<Partial<ReportTables>>;
export type ReportValue<F extends ReportField> = ReportTables[F];
export type ReportTableOf<F extends ReportField> = ReportTable<F, ReportValue<F>>;

/** A p-value of the report's Holm family, and where its adjusted value goes. */
export interface HolmSlot {
  p: number | null;
  adjusted(p: number | null): void;
}

/** A flat row's scope beyond the experiment's (which every row has); what does not apply is left out. */
export interface FlatScope {
  sampleId: string | null;
  sampleName: string | null;
  sampleSeed: string | null;
  dataset?: string | null;
  setting?: MemorizationSetting | null;
  shots?: number | null;
  regime?: Regime | null;
  measure?: MemorizationMeasure | null;
  /** Whose verdicts a memorization figure counts: EFFECTIVE_JUDGE. */
  judge?: string | null;
  otherSetting?: MemorizationSetting | null;
  otherShots?: number | null;
  otherDataset?: string | null;
  group?: string | null;
}

/** A flat row's counts and interval beside its value. */
export interface FlatCounts {
  numerator?: number | null;
  denominator?: number | null;
  ciLow?: number | null;
  ciHigh?: number | null;
}

/** Writes one flat row of a table: `<table>.<statistic>` (the table's name is its field's, in snake case). */
export type Emit = (
  statistic: string,
  scope: FlatScope,
  value: number | boolean | null,
  counts?: FlatCounts,
) => void;

/** The verdicts the report counts: human reviews first, then the automatic judge. */
export const EFFECTIVE_JUDGE = "effective";

/** One table of the study report. */
export interface ReportTable<F extends string = string, V = unknown> {
  /** The study report's field (GraphQL and JSON); its snake case is the table's name in flat rows and the CSV. */
  field: F;
  /**
   * The table's name in flat rows and the CSV when it is not its field's: a table that is another's under a
   * different measure shares its name (`memorizationExactOnly` is `memorization`, measure EXACT_ONLY).
   */
  name?: string;
  /** The field's GraphQL type (TypeGraphQL's type function: `() => [Row]`, or `() => Row`). */
  type: () => unknown;
  nullable?: boolean;
  description?: string;
  /** The table's value, from the experiment's inputs (its pure analysis does the work). */
  compute(inputs: ReportInputs): Promise<V>;
  /** Its p-values in the report's Holm family, and the family's name for them ("correlations: Pearson"). */
  tests?: { family: string; slots(value: V): HolmSlot[] };
  /** Its Markdown section: a heading and a body (a table, or a sentence when there is nothing to show). */
  markdown?: { title: string; body(value: V, report: ReportTablesRead): string };
  /** Every statistic its flat rows may carry (the names docs/REPORT-ROWS.md lists), and how it writes them. */
  statistics: readonly string[];
  flat?(value: V, emit: Emit): void;
  /** Flat names this table's statistics had before, deprecated: old name -> statistic. */
  formerNames?: Readonly<Record<string, string>>;
}

/** Any table of the list (index.ts), its value unknown to the loops that go over them. */
export type AnyReportTable = ReportTable<ReportField, unknown>;

/** A table, typed by its field: `defineTable<"zeroVsK">({...})`. */
export function defineTable<F extends ReportField>(table: ReportTableOf<F>): ReportTableOf<F> {
  return table;
}

/** The table's name in flat rows and the CSV: its field in snake case (`zeroVsK` -> `zero_vs_k`), unless named. */
export const tableName = (table: { field: string; name?: string }) =>
  table.name ?? table.field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** A p-value and its Holm twin on a row. */
export function holmSlot<R>(row: R, p: keyof R, holm: keyof R): HolmSlot {
  return { p: row[p] as number | null, adjusted: (value) => ((row[holm] as number | null) = value) };
}

// The Markdown every section is written with.

export const pct = (value: number | null | undefined) =>
  value == null ? "" : `${(value * 100).toFixed(1)}%`;
export const num = (value: number | null | undefined, digits = 3) =>
  value == null ? "" : value.toFixed(digits);
export const pValue = (value: number | null | undefined) =>
  value == null ? "" : value === 0 ? "< 0.0001" : value < 0.0001 ? value.toExponential(1) : value.toFixed(4);
export const interval = (low: number | null | undefined, high: number | null | undefined, format = pct) =>
  low == null || high == null ? "" : `${format(low)} - ${format(high)}`;
export const intervalMethod = (value: string | null | undefined) =>
  value === "CLUSTER_BOOTSTRAP"
    ? "cluster bootstrap"
    : value === "WILSON"
      ? "Wilson"
      : value === "WILSON_BY_INSTANCE"
        ? "Wilson by instance (the bootstrap has no width here)"
        : "";
export const verdictWord = (verdict: string) =>
  verdict === "CONTAMINATED" ? "contaminated" : verdict === "NO_EVIDENCE" ? "no evidence" : "cannot tell";

/** "name (seed 42)" for a sample's row; "pooled (2 samples)" for a row over several. */
export function sampleLabel(row: {
  sampleId: string | null;
  sampleName: string | null;
  sampleSeed: string | null;
  samples?: number;
}): string {
  if (row.sampleId === null) return row.samples && row.samples > 1 ? `pooled (${row.samples} samples)` : "";
  return `${row.sampleName ?? row.sampleId.slice(0, 8)} (seed ${row.sampleSeed})`;
}

export type MarkdownCell = string | number | boolean | null;

/** A Markdown table. */
export function markdownTable(headers: string[], rows: MarkdownCell[][]): string {
  const line = (cells: MarkdownCell[]) => `| ${cells.map((cell) => String(cell ?? "")).join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}
