import { DataSource } from "typeorm";
import { BadInputError, NotFoundError } from "../common/errors";
import { isUuid } from "../common/ids";
import { NO_MEMORY_FLOOR_VERSION } from "../judge/no-memory";
import { rougeLFMeasure, roundScore } from "../judge/rouge-score";
import { resultsComputations, resultsComputingSeconds } from "../observability/metrics";
import { optionSetCounts } from "../option-set/option-set.sql";
import type { NoMemoryFloors } from "../sample/no-memory-floors";
import { CDD_DEFAULTS } from "../sampling/cdd";
import { NGRAM_DEFAULTS } from "../sampling/ngram";
import { holmAdjust } from "../statistics/tests";
import { BreakdownGroup, MemorizationMeasure } from "../study/measures";
import { StudyMethod } from "../study/methods";
import { OptionLetter } from "../study/quiz-letters";
import { MemorizationSetting } from "../study/settings";
import {
  breakdown,
  CddThresholds,
  CellCount,
  ComparedData,
  ContinuationRunState,
  CoverageItem,
  cddEvidence,
  codecEvidence,
  compareExperiments,
  comparisonWarnings,
  contamination,
  contaminationSubset,
  guessingEvidence,
  guidedGeneralCells,
  guidedVsGeneral,
  InstanceOutcome,
  InstancePerformance,
  InstanceScore,
  logprobEvidence,
  MembershipLabel,
  needsInstanceOutcomes,
  ngramEvidence,
  orderGuidedGeneralRows,
  performanceRows,
  quizRanges,
  RepeatPerformance,
  ReviewRating,
  reviewSummary,
  SampleInfo,
  SummaryRuns,
  sharedDatasets,
  TargetInfo,
} from "./analyses";
import type { ResultFilter } from "./report.inputs";
import * as sql from "./report.sql";
import { ExperimentComparison, ModelComparisonRow, ReportSubject } from "./report.types";
import { ReadOptions, ReportCache, ResultsVersion } from "./report-cache";
import type { CddEvidence } from "./rows/cdd";
import type { CodecEvidence } from "./rows/codec";
import type { NgramEvidence } from "./rows/ngram";
import type { GuessingEvidence } from "./rows/ts-guessing";
import { SampledInstanceFacts, SampleInstances } from "./sample-instances";
import { adjustForMultipleComparisons, StudyReport } from "./study-report";
import { REPORT_TABLES } from "./tables";
import { ContaminationRow } from "./tables/contamination";
import { ContaminationSummaryRow } from "./tables/contamination-summary";
import { GuidedGeneralRow } from "./tables/guided-general";
import { LogprobEvidence } from "./tables/logprob";
import { MemorizationBreakdownRow } from "./tables/memorization";
import { PerformanceRow } from "./tables/performance";
import { QuizRangeRow } from "./tables/quiz";
import type {
  OwnRead,
  OwnReads,
  ReportField,
  ReportInputs,
  ReportTableOf,
  ReportValue,
} from "./tables/table";
import { TransitionRow } from "./tables/transitions";

interface CellCountRow {
  sample_id: string;
  setting: MemorizationSetting;
  shots: number;
  runs: number;
  max_repeats: number;
  exact: number;
  near_exact: number;
  inexact: number;
  unjudged: number;
  unsure_near_exact: number;
  unsure_inexact: number;
}

interface InstanceOutcomeRow {
  sample_id: string;
  setting: MemorizationSetting;
  shots: number;
  sampled_instance_id: string;
  judged: number;
  exact: number;
  near_exact: number;
}

interface RepeatRow {
  sample_id: string;
  shots: number;
  repeat: number;
  n: number;
  correct: number;
  unparseable: number;
  failed: number;
}

interface InstancePerformanceRow {
  sample_id: string;
  shots: number;
  sampled_instance_id: string;
  n: number;
  correct: number;
}

/** The rows every analysis is computed from, read once per request. */
class ExperimentData {
  private samplesRead?: Promise<Map<string, SampleInfo>>;
  private cellsRead?: Promise<CellCount[]>;
  private instancesRead?: Promise<InstanceOutcome[]>;
  private repeatsRead?: Promise<RepeatPerformance[]>;
  private instancePerformanceRead?: Promise<InstancePerformance[]>;
  private sampledInstancesRead?: Promise<Map<string, SampledInstanceFacts[]>>;

  constructor(
    private readonly dataSource: DataSource,
    readonly experimentId: string,
    private readonly sampleInstances: SampleInstances,
  ) {}

  /** The sampled instances of the experiment's samples (read once per process: they never change). */
  sampledInstances(): Promise<Map<string, SampledInstanceFacts[]>> {
    this.sampledInstancesRead ??= this.samples().then((samples) =>
      this.sampleInstances.of([...samples.keys()]),
    );
    return this.sampledInstancesRead;
  }

  samples(): Promise<Map<string, SampleInfo>> {
    this.samplesRead ??= this.dataSource.query(sql.samplesOfExperiment, [this.experimentId]).then(
      (
        rows: {
          sample_id: string;
          sample_name: string | null;
          sample_seed: string;
          dataset: string;
          control_of: string | null;
          split: string;
        }[],
      ) =>
        new Map(
          rows.map((row) => [
            row.sample_id,
            {
              sampleId: row.sample_id,
              sampleName: row.sample_name,
              sampleSeed: row.sample_seed,
              dataset: row.dataset,
              controlOf: row.control_of,
              split: row.split,
            },
          ]),
        ),
    );
    return this.samplesRead;
  }

  cells(): Promise<CellCount[]> {
    this.cellsRead ??= this.dataSource
      .query(sql.memorizationCounts, [this.experimentId])
      .then((rows: CellCountRow[]) =>
        rows.map((row) => ({
          sampleId: row.sample_id,
          setting: row.setting,
          shots: row.shots,
          runs: row.runs,
          maxRepeats: row.max_repeats,
          exact: row.exact,
          nearExact: row.near_exact,
          inexact: row.inexact,
          unjudged: row.unjudged,
          unsureNearExact: row.unsure_near_exact,
          unsureInexact: row.unsure_inexact,
        })),
      );
    return this.cellsRead;
  }

  instances(): Promise<InstanceOutcome[]> {
    this.instancesRead ??= Promise.all([
      this.dataSource.query(sql.memorizationByInstance, [this.experimentId]) as Promise<InstanceOutcomeRow[]>,
      this.sampledInstances(),
    ]).then(([rows, sampled]) => {
      const instanceOf = new Map<string, string>();
      for (const facts of sampled.values())
        for (const fact of facts) instanceOf.set(fact.sampledInstanceId, fact.instanceId);
      return rows.map((row) => ({
        sampleId: row.sample_id,
        setting: row.setting,
        shots: row.shots,
        sampledInstanceId: row.sampled_instance_id,
        instanceId: instanceOf.get(row.sampled_instance_id),
        judged: row.judged,
        exact: row.exact,
        nearExact: row.near_exact,
      }));
    });
    return this.instancesRead;
  }

  repeats(): Promise<RepeatPerformance[]> {
    this.repeatsRead ??= this.dataSource
      .query(sql.performanceByRepeat, [this.experimentId])
      .then((rows: RepeatRow[]) =>
        rows.map((row) => ({
          sampleId: row.sample_id,
          shots: row.shots,
          repeat: row.repeat,
          n: row.n,
          correct: row.correct,
          unparseable: row.unparseable,
          failed: row.failed,
        })),
      );
    return this.repeatsRead;
  }

  instancePerformance(): Promise<InstancePerformance[]> {
    this.instancePerformanceRead ??= this.dataSource
      .query(sql.performanceByInstance, [this.experimentId])
      .then((rows: InstancePerformanceRow[]) =>
        rows.map((row) => ({
          sampleId: row.sample_id,
          shots: row.shots,
          sampledInstanceId: row.sampled_instance_id,
          n: row.n,
          correct: row.correct,
        })),
      );
    return this.instancePerformanceRead;
  }
}

export const DEFAULT_BREAKDOWN_GROUPS = [
  BreakdownGroup.DATASET,
  BreakdownGroup.SAMPLE,
  BreakdownGroup.SETTING,
  BreakdownGroup.SHOTS,
];

/**
 * The study's analyses: SQL reads a few kinds of rows (counts per cell, outcomes per instance, performance per
 * repeat and per instance); the pure functions of analyses.ts turn them into the report's tables.
 */
export class ReportService {
  /**
   * The report, breakdowns and comparisons computed, each kept until a write changes the results it came from
   * (report-cache.ts): a finished experiment's report is computed once, not once per read.
   */
  private readonly cache: ReportCache;
  /** The sampled instances of the samples reports read, kept: they never change. */
  private readonly sampleInstances: SampleInstances;
  /** Algorithm 1's rows per experiment, with the state of the runs they were computed from. */
  private readonly guidedGeneral = new Map<string, { state: string; rows: GuidedGeneralRow[] }>();

  constructor(
    private readonly dataSource: DataSource,
    /** The no-memory floor of each sample's instances, stored once per sample (sample/no-memory-floors.ts). */
    private readonly floors: NoMemoryFloors,
    /** `spacingOf`'s factor (`MEMICL_RESULTS_SPACING_FACTOR`); the default when not given. */
    spacingFactor?: number,
  ) {
    this.sampleInstances = new SampleInstances(dataSource);
    this.cache = new ReportCache({
      spacingFactor,
      computed: (ms, failed) => {
        resultsComputations.inc({ outcome: failed ? "error" : "ok" });
        resultsComputingSeconds.inc(ms / 1000);
      },
    });
  }

  /** The state of an experiment's results now (report.sql.ts `resultsVersion`); NotFoundError when there is none. */
  async versionOf(experimentId: string): Promise<ResultsVersion & { active: boolean }> {
    const [row]: { found: boolean; read_at: Date; active: boolean; fingerprint: string }[] = isUuid(
      experimentId,
    )
      ? await this.dataSource.query(sql.resultsVersion, [experimentId])
      : [];
    if (!row?.found) throw new NotFoundError("Experiment", experimentId);
    return { fingerprint: row.fingerprint, readAt: row.read_at, active: row.active };
  }

  /**
   * A value of the experiment's results from the cache, computed when the results changed since. While a run is
   * going (results change all the time) a reader that does not ask for `fresh` may get the value of the state
   * before the one being computed; once the runs are done every read waits for the current state.
   */
  private async cached<T>(
    experimentId: string,
    key: string,
    compute: (data: ExperimentData, version: ResultsVersion) => Promise<T>,
    options: ReadOptions,
  ): Promise<T> {
    const version = await this.versionOf(experimentId);
    return this.readAt(
      experimentId,
      key,
      version,
      () => compute(new ExperimentData(this.dataSource, experimentId, this.sampleInstances), version),
      options.fresh || !version.active,
    );
  }

  /** A value of one experiment from the cache at `version`; its values are one group (they share one spacing). */
  private async readAt<T>(
    experimentId: string,
    key: string,
    version: ResultsVersion,
    compute: () => Promise<T>,
    fresh: boolean,
  ): Promise<T> {
    // One group: a dashboard reading an experiment's report and a breakdown is one reader.
    const computed = await this.cache.read(`${experimentId} ${key}`, version, compute, {
      fresh,
      group: experimentId,
    });
    return computed.value;
  }

  /**
   * A breakdown of an experiment's results, from the cache when it was computed for these results (by a reader of
   * it, or by the study report, whose memorization tables are breakdowns), else computed and kept there.
   */
  private breakdownAt(
    data: ExperimentData,
    filter: Omit<ResultFilter, "experimentId">,
    groupBy: BreakdownGroup[],
    measure: MemorizationMeasure,
    version: ResultsVersion,
  ): Promise<MemorizationBreakdownRow[]> {
    return this.readAt(
      data.experimentId,
      breakdownKey(filter, groupBy, measure),
      version,
      () => this.breakdownOf(data, filter, groupBy, measure, version.readAt),
      true,
    );
  }

  async memorizationBreakdown(
    filter: ResultFilter,
    groupBy: BreakdownGroup[],
    measure: MemorizationMeasure,
    options: ReadOptions = {},
  ): Promise<MemorizationBreakdownRow[]> {
    return this.cached(
      filter.experimentId,
      breakdownKey(filter, groupBy, measure),
      (data, version) => this.breakdownOf(data, filter, groupBy, measure, version.readAt),
      options,
    );
  }

  private async breakdownOf(
    data: ExperimentData,
    filter: Omit<ResultFilter, "experimentId">,
    groupBy: BreakdownGroup[],
    measure: MemorizationMeasure,
    computedAt: Date,
  ): Promise<MemorizationBreakdownRow[]> {
    const [cells, samples] = await Promise.all([data.cells(), data.samples()]);
    // Instance outcomes are read only when an instance can count more than once in a row (a cluster interval).
    const instances = needsInstanceOutcomes(cells, groupBy, samples) ? await data.instances() : null;
    return breakdown(cells, samples, instances, filter, groupBy, measure).map((row) => ({
      ...row,
      computedAt,
    }));
  }

  /**
   * One table of an experiment's report on its own (its p-values raw: Holm's adjustment is over the whole report),
   * computed from the experiment's rows as they are now.
   */
  async table<F extends ReportField>(experimentId: string, table: ReportTableOf<F>): Promise<ReportValue<F>> {
    const version = await this.versionOf(experimentId);
    const data = new ExperimentData(this.dataSource, experimentId, this.sampleInstances);
    return this.inputsOf(data, version).inputs.table(table);
  }

  private async performanceOf(data: ExperimentData): Promise<PerformanceRow[]> {
    const [repeats, samples] = await Promise.all([data.repeats(), data.samples()]);
    const instances = repeats.some((row) => row.repeat > 0) ? await data.instancePerformance() : [];
    return performanceRows(repeats, instances, samples);
  }

  private async transitionsOf(experimentId: string): Promise<TransitionRow[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(sql.nearExactToExact, [experimentId]);
    return rows.map((row) => ({
      dataset: row.dataset as string,
      setting: row.setting as MemorizationSetting,
      fromShots: row.from_shots as number,
      toShots: row.to_shots as number,
      sampledInstanceId: row.sampled_instance_id as string,
      initialSegment: row.initial_segment as string,
      subsequentSegment: row.subsequent_segment as string,
      nearExactOutput: row.near_exact_output as string | null,
      exactOutput: row.exact_output as string | null,
    }));
  }

  /** Time Travel's rule per cell, with the pools its subsets are drawn from (the summary reads them too). */
  private async contaminationOf(
    data: ExperimentData,
  ): Promise<{ rows: ContaminationRow[]; pools: Map<string, string[]> }> {
    const [outcomes, samples] = await Promise.all([data.instances(), data.samples()]);
    const pools = await this.rulePools(data);
    const subsets = new Map<string, Set<string>>();
    for (const [sampleId, info] of samples)
      subsets.set(sampleId, contaminationSubset(info.sampleSeed, pools.get(sampleId) ?? []));
    return { rows: contamination(outcomes, subsets, samples), pools };
  }

  /** Each sample's non-trivial sampled instances in their order: what Time Travel's rule draws its 10 from. */
  private async rulePools(data: ExperimentData): Promise<Map<string, string[]>> {
    const pools = new Map<string, string[]>();
    for (const [sampleId, facts] of await data.sampledInstances())
      pools.set(
        sampleId,
        facts.filter((fact) => !fact.trivial).map((fact) => fact.sampledInstanceId),
      );
    return pools;
  }

  /** The reference and label of each sampled instance of the experiment's samples. */
  private async targetsOf(
    data: ExperimentData,
  ): Promise<{ trivial: Set<string>; targets: Map<string, TargetInfo> }> {
    const trivial = new Set<string>();
    const targets = new Map<string, TargetInfo>();
    for (const facts of (await data.sampledInstances()).values())
      for (const fact of facts) {
        // Trivial references (src/study/targets.ts), by the sample's own minimum where it has one.
        if (fact.trivial) trivial.add(fact.sampledInstanceId);
        targets.set(fact.sampledInstanceId, { label: fact.label, words: fact.words });
      }
    return { trivial, targets };
  }

  /** A sampling method's runs and continuations (CDD's or n-gram coverage's), and the experiment's parameters. */
  private async continuationsOf(data: ExperimentData, method: StudyMethod) {
    const runs: ContinuationRunState[] = (
      await this.dataSource.query(sql.continuationRuns, [data.experimentId, method])
    ).map((row: Record<string, string | number>) => ({
      runId: String(row.run_id),
      sampleId: String(row.sample_id),
      provider: String(row.provider),
      model: String(row.model),
      prompt: String(row.prompt),
      instances: Number(row.instances),
    }));
    if (runs.length === 0) return null;
    const rows: Record<string, string | number>[] = await this.dataSource.query(sql.continuationItems, [
      data.experimentId,
      method,
    ]);
    const [experiment]: { provider: string; model: string; parameters: Record<string, unknown> }[] =
      await this.dataSource.query(sql.experimentModel, [data.experimentId]);
    const items: CoverageItem[] = rows.map((row) => ({
      runId: String(row.run_id),
      sampleId: String(row.sample_id),
      provider: String(row.provider),
      model: String(row.model),
      item: String(row.item),
      temperature: Number(row.temperature),
      text: String(row.text),
      reference: String(row.reference),
    }));
    return {
      runs,
      items,
      examined: { provider: experiment.provider, model: experiment.model },
      parameters: experiment?.parameters ?? {},
      samples: await data.samples(),
    };
  }

  /** The CDD method's evidence per sample (analyses/cdd.ts), by the thresholds the experiment named. */
  private async cddOf(data: ExperimentData): Promise<Map<string, CddEvidence>> {
    const read = await this.continuationsOf(data, StudyMethod.CDD);
    if (!read) return new Map();
    const named = (read.parameters.cdd ?? {}) as Partial<CddThresholds>;
    return cddEvidence(read.items, read.examined, read.runs, read.samples, {
      alpha: named.alpha ?? CDD_DEFAULTS.alpha,
      xi: named.xi ?? CDD_DEFAULTS.xi,
    });
  }

  /** N-gram coverage's evidence per sample (analyses/ngram.ts), by the n the experiment named. */
  private async ngramOf(data: ExperimentData): Promise<Map<string, NgramEvidence>> {
    const read = await this.continuationsOf(data, StudyMethod.NGRAM_COVERAGE);
    if (!read) return new Map();
    const named = (read.parameters.ngramCoverage ?? {}) as { n?: number };
    return ngramEvidence(read.items, read.examined, read.runs, read.samples, named.n ?? NGRAM_DEFAULTS.n);
  }

  /** TS-Guessing's evidence per sample (analyses/ts-guessing.ts). */
  private async guessingOf(data: ExperimentData): Promise<Map<string, GuessingEvidence>> {
    const runs: Record<string, string | number>[] = await this.dataSource.query(sql.guessingRuns, [
      data.experimentId,
    ]);
    if (runs.length === 0) return new Map();
    const items: Record<string, string | boolean | null>[] = await this.dataSource.query(sql.guessingItems, [
      data.experimentId,
    ]);
    const [experiment]: { provider: string; model: string }[] = await this.dataSource.query(
      sql.experimentModel,
      [data.experimentId],
    );
    return guessingEvidence(
      items.map((row) => ({
        runId: String(row.run_id),
        sampleId: String(row.sample_id),
        provider: String(row.provider),
        model: String(row.model),
        item: String(row.item),
        guess: row.guess === null ? null : String(row.guess),
        matched: row.matched === true,
      })),
      { provider: experiment.provider, model: experiment.model },
      runs.map((row) => ({
        runId: String(row.run_id),
        sampleId: String(row.sample_id),
        provider: String(row.provider),
        model: String(row.model),
        instances: Number(row.instances),
      })),
      await data.samples(),
    );
  }

  /** CoDeC's evidence per sample (analyses/codec.ts). */
  private async codecOf(data: ExperimentData): Promise<Map<string, CodecEvidence>> {
    const runs: Record<string, string | number>[] = await this.dataSource.query(sql.codecRuns, [
      data.experimentId,
    ]);
    if (runs.length === 0) return new Map();
    const items: Record<string, string | boolean | null>[] = await this.dataSource.query(sql.codecItems, [
      data.experimentId,
    ]);
    const [experiment]: { provider: string; model: string }[] = await this.dataSource.query(
      sql.experimentModel,
      [data.experimentId],
    );
    return codecEvidence(
      items.map((row) => ({
        runId: String(row.run_id),
        sampleId: String(row.sample_id),
        provider: String(row.provider),
        model: String(row.model),
        item: String(row.item),
        inContext: row.in_context === true,
        output: row.output === null ? null : String(row.output),
      })),
      { provider: experiment.provider, model: experiment.model },
      runs.map((row) => ({
        runId: String(row.run_id),
        sampleId: String(row.sample_id),
        provider: String(row.provider),
        model: String(row.model),
        instances: Number(row.instances),
      })),
      await data.samples(),
    );
  }

  /** The LOGPROB method's evidence per sample (analyses/logprob.ts). */
  private async logprobOf(data: ExperimentData): Promise<Map<string, LogprobEvidence>> {
    const items: Record<string, string | null>[] = await this.dataSource.query(sql.logprobItems, [
      data.experimentId,
    ]);
    const runs: {
      run_id: string;
      sample_id: string;
      provider: string;
      model: string;
      status: string;
      expected: number;
      done: number;
      failed: number;
      last_error: string | null;
      reasons: { reason: string | null; items: number }[];
    }[] = await this.dataSource.query(sql.logprobRuns, [data.experimentId]);
    if (items.length === 0 && runs.length === 0) return new Map();
    const [experiment]: { provider: string; model: string; parameters: Record<string, unknown> }[] =
      await this.dataSource.query(sql.experimentModel, [data.experimentId]);
    const parameters = experiment?.parameters ?? {};
    const reference = parameters.logprobReference as { provider: string; model: string } | undefined;
    const labels = (parameters.membership as MembershipLabel[] | undefined) ?? [];
    return logprobEvidence(
      items.map((row) => ({
        runId: row.run_id!,
        sampleId: row.sample_id!,
        provider: row.provider!,
        model: row.model!,
        item: row.item!,
        text: row.text ?? "",
        output: row.output,
      })),
      { provider: experiment.provider, model: experiment.model },
      reference ?? null,
      labels,
      await data.samples(),
      runs.map((run) => ({
        runId: run.run_id,
        sampleId: run.sample_id,
        provider: run.provider,
        model: run.model,
        status: run.status,
        expected: run.expected,
        done: run.done,
        failed: run.failed,
        lastError: run.last_error,
        reasons: run.reasons,
      })),
    );
  }

  private async quizOf(data: ExperimentData): Promise<QuizRangeRow[]> {
    const [answers, samples] = await Promise.all([
      this.dataSource.query(sql.quizAnswers, [data.experimentId]) as Promise<Record<string, unknown>[]>,
      data.samples(),
    ]);
    const sets: Record<string, unknown>[] =
      answers.length === 0
        ? []
        : await this.dataSource.query(optionSetCounts, [
            [...new Set(answers.map((row) => row.option_set_id))],
          ]);
    return quizRanges(
      answers.map((row) => ({
        sampleId: row.sample_id as string,
        optionSetId: row.option_set_id as string,
        position: (row.quiz_position as OptionLetter | null) ?? null,
        runEnded: row.run_ended as boolean,
        letters: {
          A: row.a as number,
          B: row.b as number,
          C: row.c as number,
          D: row.d as number,
          E: row.e as number,
          unreadable: row.unreadable as number,
        },
        failed: row.failed as number,
        waiting: row.waiting as number,
      })),
      sets.map((row) => ({
        optionSetId: row.option_set_id as string,
        sampleId: row.sample_id as string,
        provider: row.provider as string,
        model: row.model as string,
        templateVersion: row.template_version as number,
        maxGenerations: row.max_generations as number,
        instances: row.instances as number,
        valid: row.valid as number,
        givenUp: row.given_up as number,
        rejectedGenerations: row.rejected_generations as number,
        originalAmongOptions: row.original_among_options as number,
      })),
      samples,
    );
  }

  /** Every method's evidence per sample, side by side (from the study report's tables). */
  async contaminationSummary(
    experimentId: string,
    options: ReadOptions = {},
  ): Promise<ContaminationSummaryRow[]> {
    return (await this.studyReport(experimentId, options)).contaminationSummary;
  }

  /**
   * Algorithm 1 reads the answers' texts: its rows are kept per experiment while the state of its guided and
   * general runs (their ids and last updates) is the same, so a finished study's report does not read them again.
   */
  private async guidedVsGeneralOf(data: ExperimentData): Promise<GuidedGeneralRow[]> {
    const [{ state }]: { state: string }[] = await this.dataSource.query(sql.guidedGeneralState, [
      data.experimentId,
    ]);
    const cached = this.guidedGeneral.get(data.experimentId);
    if (cached && cached.state === state) return structuredClone(cached.rows);
    const rows = await this.computeGuidedVsGeneral(data);
    this.guidedGeneral.delete(data.experimentId);
    this.guidedGeneral.set(data.experimentId, { state, rows: structuredClone(rows) });
    if (this.guidedGeneral.size > 100) this.guidedGeneral.delete(this.guidedGeneral.keys().next().value!);
    return rows;
  }

  private async computeGuidedVsGeneral(data: ExperimentData): Promise<GuidedGeneralRow[]> {
    const [rows, samples] = await Promise.all([
      this.dataSource.query(sql.guidedGeneralAnswers, [data.experimentId]) as Promise<
        {
          sample_id: string;
          setting: MemorizationSetting;
          shots: number;
          sampled_instance_id: string;
          rouge_l: number | null;
          /** Read only where `rouge_l` is null. */
          answer: string | null;
          reference: string | null;
        }[]
      >,
      data.samples(),
    ]);
    const scores: InstanceScore[] = rows.map((row) => ({
      sampleId: row.sample_id,
      setting: row.setting,
      shots: row.shots,
      sampledInstanceId: row.sampled_instance_id,
      // Stored with the answer; computed here for answers stored before it was.
      score: row.rouge_l ?? roundScore(rougeLFMeasure(row.reference ?? "", row.answer ?? "")),
    }));
    // A cell at a time, the event loop let go between cells.
    const computed: GuidedGeneralRow[] = [];
    for (const cell of guidedGeneralCells(scores)) {
      computed.push(...guidedVsGeneral(cell, samples));
      await new Promise((resolve) => setImmediate(resolve));
    }
    return orderGuidedGeneralRows(computed);
  }

  /**
   * Two or more experiments side by side (`analyses/comparison.ts`): every pair, cell by cell on the dataset
   * instances both ran, Holm over every test of the comparison. Refuses experiments that share no dataset.
   */
  async compare(experimentIds: readonly string[], options: ReadOptions = {}): Promise<ExperimentComparison> {
    const ids = [...new Set(experimentIds)];
    if (ids.length < 2 || ids.length > 10)
      throw new BadInputError("compare 2 to 10 distinct experiments", { field: "experimentIds" });
    const versions = await Promise.all(ids.map((id) => this.versionOf(id)));
    const version = {
      fingerprint: versions.map((v) => v.fingerprint).join(" "),
      readAt: new Date(Math.min(...versions.map((v) => v.readAt.getTime()))),
    };
    const computed = await this.cache.read(
      `compare ${ids.join(" ")}`,
      version,
      () => this.computeComparison(ids, version.readAt),
      { fresh: options.fresh || !versions.some((v) => v.active) },
    );
    return computed.value;
  }

  private async computeComparison(ids: string[], computedAt: Date): Promise<ExperimentComparison> {
    const compared: ComparedData[] = [];
    for (const id of ids) {
      const data = new ExperimentData(this.dataSource, id, this.sampleInstances);
      const [outcomes, performance, samples] = await Promise.all([
        data.instances(),
        data.instancePerformance(),
        data.samples(),
      ]);
      compared.push({ experimentId: id, outcomes, performance, samples });
    }
    const rows: ModelComparisonRow[] = [];
    let datasets: string[] | null = null;
    for (let i = 0; i < compared.length; i += 1)
      for (let j = i + 1; j < compared.length; j += 1) {
        const shared = sharedDatasets(compared[i], compared[j]);
        if (shared.length === 0)
          throw new BadInputError(
            `experiments ${compared[i].experimentId} and ${compared[j].experimentId} share no dataset: nothing to compare`,
            { field: "experimentIds" },
          );
        datasets = (datasets ?? shared).filter((name) => shared.includes(name));
        rows.push(...compareExperiments(compared[i], compared[j]));
      }
    if (rows.length === 0)
      throw new BadInputError(
        `experiments ${ids.join(", ")} share datasets but no instance ran (and was judged) in both: nothing is ` +
          "paired. Compare experiments on one sample.",
        { field: "experimentIds" },
      );
    const adjusted = holmAdjust(rows.map((row) => row.pValue));
    rows.forEach((row, index) => {
      row.pValueHolm = adjusted[index];
    });
    const tests = adjusted.filter((p) => p !== null).length;
    return {
      experiments: await Promise.all(
        ids.map(async (experimentId) => ({ experimentId, subject: await this.subjectOf(experimentId) })),
      ),
      datasets: datasets ?? [],
      rows,
      warnings: comparisonWarnings(compared, rows),
      computedAt,
      hypothesisTests: tests,
      multipleComparisons:
        tests === 0
          ? "No McNemar test ran in this comparison (no instance both experiments ran has a discordant pair)."
          : `Holm's step-down adjustment over the ${tests} McNemar p-value${tests === 1 ? "" : "s"} of this ` +
            "comparison (memorized or not, and correct or not, on the instances both experiments ran), " +
            "family-wise error rate 5%.",
    };
  }

  /** The experiment a report is about, its model as asked and as reported, its templates and judges. */
  async subjectOf(experimentId: string): Promise<ReportSubject> {
    const [row]: {
      name: string;
      provider: string;
      model: string;
      reported: string[];
      templates: string[];
      judges: { kind?: string; provider?: string; model?: string; promptVersion?: number }[];
    }[] = await this.dataSource.query(
      `SELECT e.name, e.provider, e.model,
              coalesce(array_agg(DISTINCT r.reported_model ORDER BY r.reported_model)
                       FILTER (WHERE r.reported_model IS NOT NULL), '{}') AS reported,
              coalesce(array_agg(DISTINCT r.template_key || ' v' || r.template_version ORDER BY r.template_key || ' v' || r.template_version)
                       FILTER (WHERE r.id IS NOT NULL), '{}') AS templates,
              coalesce(json_agg(DISTINCT r.judge::text) FILTER (WHERE r.kind = 'MEMORIZATION'), '[]') AS judges
       FROM experiment e LEFT JOIN run r ON r.experiment_id = e.id
       WHERE e.id = $1 GROUP BY e.id`,
      [experimentId],
    );
    if (!row) throw new NotFoundError("Experiment", experimentId);
    const judges = (row.judges as unknown as string[])
      .map(
        (text) =>
          JSON.parse(text) as { kind?: string; provider?: string; model?: string; promptVersion?: number },
      )
      .map((judge) =>
        judge.kind === "LLM"
          ? `llm ${judge.provider}/${judge.model} (judge prompt v${judge.promptVersion})`
          : "heuristic",
      );
    return {
      experimentName: row.name,
      provider: row.provider,
      requestedModel: row.model,
      reportedModels: row.reported,
      templateVersions: row.templates,
      judges: [...new Set(judges)].sort(),
    };
  }

  /** The review section (`analyses/review.ts`): null when no human reviewed any of the experiment's completions. */
  private async reviewOf(experimentId: string): Promise<StudyReport["review"]> {
    const ratings: ReviewRating[] = await this.dataSource.query(sql.reviewRatings, [experimentId]);
    if (ratings.length === 0) return null;
    const summary = reviewSummary(ratings);
    const finite = (value: number) => (Number.isFinite(value) ? value : null);
    return {
      ...summary,
      reviewers: {
        ...summary.reviewers,
        kappa: finite(summary.reviewers.kappa),
        kappaBinary: finite(summary.reviewers.kappaBinary),
        percentAgreement: finite(summary.reviewers.percentAgreement),
      },
      judgeVsHumanAgreement: finite(summary.judgeVsHumanAgreement),
      judgeVsHumanKappa: finite(summary.judgeVsHumanKappa),
      judgeVsHumanKappaBinary: finite(summary.judgeVsHumanKappaBinary),
    };
  }

  async studyReport(experimentId: string, options: ReadOptions = {}): Promise<StudyReport> {
    return this.cached(
      experimentId,
      "report",
      (data, version) => this.computeStudyReport(data, version),
      options,
    );
  }

  /** What the tables are computed from: each read at most once per report, each table computed once. */
  /**
   * What the tables are computed from, each read at most once (and each table computed once) per report; `prefetch`
   * starts every read at once, so the database works while the tables compute.
   */
  private inputsOf(
    data: ExperimentData,
    version: ResultsVersion,
  ): { inputs: ReportInputs; prefetch(): void } {
    const once = <T>(read: () => Promise<T>): (() => Promise<T>) => {
      let value: Promise<T> | undefined;
      return () => {
        value ??= read();
        return value;
      };
    };
    const targets = once(() => this.targetsOf(data));
    const floors = once(async () => this.floors.of([...(await data.samples()).keys()]));
    const runs = once(async () => {
      const rows: (Omit<SummaryRuns, "ids"> & { ids: string })[] = await this.dataSource.query(
        sql.runsOfExperiment,
        [data.experimentId],
      );
      return rows.map((row) => ({ ...row, ids: row.ids.split(",") }));
    });
    const own: { [K in OwnRead]: () => Promise<OwnReads[K]> } = {
      performance: once(() => this.performanceOf(data)),
      guidedVsGeneral: once(() => this.guidedVsGeneralOf(data)),
      nearExactToExact: once(() => this.transitionsOf(data.experimentId)),
      contamination: once(() => this.contaminationOf(data)),
      quiz: once(() => this.quizOf(data)),
      logprob: once(() => this.logprobOf(data)),
      cdd: once(() => this.cddOf(data)),
      ngramCoverage: once(() => this.ngramOf(data)),
      codec: once(() => this.codecOf(data)),
      tsGuessing: once(() => this.guessingOf(data)),
      review: once(() => this.reviewOf(data.experimentId)),
    };
    const tables = new Map<string, Promise<unknown>>();
    const inputs: ReportInputs = {
      experimentId: data.experimentId,
      computedAt: version.readAt,
      floorVersion: NO_MEMORY_FLOOR_VERSION,
      samples: () => data.samples(),
      cells: () => data.cells(),
      instances: () => data.instances(),
      instancePerformance: () => data.instancePerformance(),
      targets,
      floors,
      runs,
      breakdown: (groupBy, measure) => this.breakdownAt(data, {}, groupBy, measure, version),
      read: (what) => own[what](),
      table: <F extends ReportField>(table: ReportTableOf<F>) => {
        let value = tables.get(table.field) as Promise<ReportValue<F>> | undefined;
        if (!value) {
          // Computed after the event loop is let go: a process serving requests while it computes a large report
          // (tens of milliseconds a table at a million completions) keeps answering the others.
          value = new Promise((resolve) => setImmediate(resolve)).then(() => table.compute(inputs));
          tables.set(table.field, value);
        }
        return value;
      },
    };
    const prefetch = () => {
      const reads = [
        inputs.instances,
        inputs.instancePerformance,
        inputs.cells,
        runs,
        targets,
        ...Object.values(own),
      ];
      // Awaited by the tables that need them; this only keeps an early failure from being "unhandled".
      for (const read of reads) read().catch(() => {});
    };
    return { inputs, prefetch };
  }

  private async computeStudyReport(data: ExperimentData, version: ResultsVersion): Promise<StudyReport> {
    const { inputs, prefetch } = this.inputsOf(data, version);
    prefetch();
    const report = {
      experimentId: data.experimentId,
      computedAt: version.readAt,
      subject: await this.subjectOf(data.experimentId),
      hypothesisTests: 0,
      multipleComparisons: "",
    } as StudyReport;
    // One table at a time, in the report's order.
    for (const table of REPORT_TABLES)
      (report as unknown as Record<string, unknown>)[table.field] = await inputs.table(
        table as ReportTableOf<ReportField>,
      );
    return adjustForMultipleComparisons(report);
  }
}

/**
 * A breakdown's cache key: what narrows it (the lists given, in one order; a list given as null or left out is
 * the same breakdown), how it groups and what it counts. The experiment is the key's prefix.
 */
export function breakdownKey(
  filter: Omit<ResultFilter, "experimentId">,
  groupBy: readonly BreakdownGroup[],
  measure: MemorizationMeasure,
): string {
  const narrowed = {
    datasets: filter.datasets ?? null,
    settings: filter.settings ?? null,
    shots: filter.shots ?? null,
    regimes: filter.regimes ?? null,
  };
  return `breakdown ${JSON.stringify([narrowed, groupBy, measure])}`;
}
