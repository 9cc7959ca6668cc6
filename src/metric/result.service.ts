import { DataSource } from "typeorm";
import { NotFoundError } from "../common/errors";
import { isUuid } from "../common/ids";
import { MemorizationSetting } from "../run/run.entity";
import * as sql from "./metric.sql";
import {
  BreakdownGroup,
  ContaminationRow,
  CorrelationRow,
  MemorizationBreakdownRow,
  MemorizationMeasure,
  MemorizedVsNotRow,
  PerformanceRow,
  RegimeName,
  ResultFilter,
  StudyReport,
  TransitionRow,
} from "./result.types";
import { meanAndSpread, pearson, regimeOf, spearman, wilsonInterval } from "./statistics";

interface CountRow {
  dataset: string;
  setting: MemorizationSetting;
  shots: number;
  n: number;
  exact: number;
  near_exact: number;
  inexact: number;
  unjudged: number;
}

/**
 * The study's analyses. Each SQL statement aggregates completions to dataset x setting x k (or finer) in the
 * database; what is left (grouping further, rates, intervals, correlations) is arithmetic on a few rows.
 */
export class ResultService {
  constructor(private readonly dataSource: DataSource) {}

  private async checkExperiment(id: string) {
    const rows = isUuid(id)
      ? await this.dataSource.query("SELECT 1 FROM experiment WHERE id = $1", [id])
      : [];
    if (rows.length === 0) throw new NotFoundError("Experiment", id);
  }

  async memorizationBreakdown(
    filter: ResultFilter,
    groupBy: BreakdownGroup[],
    measure: MemorizationMeasure,
  ): Promise<MemorizationBreakdownRow[]> {
    await this.checkExperiment(filter.experimentId);
    const counts: CountRow[] = await this.dataSource.query(sql.memorizationCounts, [filter.experimentId]);
    return breakdown(counts, filter, groupBy, measure);
  }

  async performance(experimentId: string): Promise<PerformanceRow[]> {
    await this.checkExperiment(experimentId);
    const rows: {
      dataset: string;
      shots: number;
      repeat: number;
      n: number;
      correct: number;
      unparseable: number;
    }[] = await this.dataSource.query(sql.performanceByRepeat, [experimentId]);
    const groups = new Map<string, typeof rows>();
    for (const row of rows) {
      const key = JSON.stringify([row.dataset, row.shots]);
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    return [...groups.values()]
      .map((repeats) => {
        const accuracies = repeats.map((row) => row.correct / row.n);
        const { mean, standardDeviation } = meanAndSpread(accuracies);
        return {
          dataset: repeats[0].dataset,
          shots: repeats[0].shots,
          repeats: repeats.length,
          n: sum(repeats.map((row) => row.n)),
          correct: sum(repeats.map((row) => row.correct)),
          unparseable: sum(repeats.map((row) => row.unparseable)),
          meanAccuracy: mean,
          accuracyStandardDeviation: standardDeviation,
        };
      })
      .sort((a, b) => a.dataset.localeCompare(b.dataset) || a.shots - b.shots);
  }

  async memorizedVsNot(experimentId: string): Promise<MemorizedVsNotRow[]> {
    await this.checkExperiment(experimentId);
    const rows: {
      dataset: string;
      setting: MemorizationSetting;
      shots: number;
      memorized: boolean;
      instances: number;
      n: number;
      correct: number;
    }[] = await this.dataSource.query(sql.performanceByMemorization, [experimentId]);
    const result = new Map<string, MemorizedVsNotRow>();
    const empty = () => ({ instances: 0, n: 0, correct: 0, accuracy: null });
    for (const row of rows) {
      const key = JSON.stringify([row.dataset, row.setting, row.shots]);
      const entry = result.get(key) ?? {
        dataset: row.dataset,
        setting: row.setting,
        shots: row.shots,
        memorized: empty(),
        notMemorized: empty(),
      };
      entry[row.memorized ? "memorized" : "notMemorized"] = {
        instances: row.instances,
        n: row.n,
        correct: row.correct,
        accuracy: row.n ? row.correct / row.n : null,
      };
      result.set(key, entry);
    }
    return [...result.values()].sort(byDatasetSettingShots);
  }

  async correlations(experimentId: string): Promise<CorrelationRow[]> {
    const performance = await this.performance(experimentId);
    const counts: CountRow[] = await this.dataSource.query(sql.memorizationCounts, [experimentId]);
    const rows: CorrelationRow[] = [];
    const keys = [...new Set(counts.map((row) => JSON.stringify([row.dataset, row.setting])))].sort();
    for (const key of keys) {
      const [dataset, setting] = JSON.parse(key) as [string, MemorizationSetting];
      for (const measure of [MemorizationMeasure.EXACT_OR_NEAR_EXACT, MemorizationMeasure.EXACT_ONLY]) {
        const points = counts
          .filter((row) => row.dataset === dataset && row.setting === setting)
          .map((row) => {
            const judged = row.exact + row.near_exact + row.inexact;
            const memorized =
              measure === MemorizationMeasure.EXACT_ONLY ? row.exact : row.exact + row.near_exact;
            const accuracy = performance.find(
              (entry) => entry.dataset === dataset && entry.shots === row.shots,
            )?.meanAccuracy;
            return judged > 0 && accuracy != null
              ? { shots: row.shots, memorization: memorized / judged, performance: accuracy }
              : null;
          })
          .filter(
            (point): point is { shots: number; memorization: number; performance: number } => point !== null,
          )
          .sort((a, b) => a.shots - b.shots);
        const xs = points.map((point) => point.performance);
        const ys = points.map((point) => point.memorization);
        const p = pearson(xs, ys);
        const s = spearman(xs, ys);
        rows.push({
          dataset,
          setting,
          measure,
          points,
          n: points.length,
          pearson: p.r,
          pearsonPValue: p.pValue,
          spearman: s.r,
          spearmanPValue: s.pValue,
        });
      }
    }
    return rows;
  }

  async transitions(experimentId: string): Promise<TransitionRow[]> {
    await this.checkExperiment(experimentId);
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

  async contamination(experimentId: string): Promise<ContaminationRow[]> {
    await this.checkExperiment(experimentId);
    const counts: CountRow[] = await this.dataSource.query(sql.memorizationCounts, [experimentId]);
    return counts
      .map((row) => ({
        dataset: row.dataset,
        setting: row.setting,
        shots: row.shots,
        exact: row.exact,
        nearExact: row.near_exact,
        contaminated: row.exact >= 1 || row.near_exact >= 2,
      }))
      .sort(byDatasetSettingShots);
  }

  async studyReport(experimentId: string): Promise<StudyReport> {
    const all: ResultFilter = { experimentId };
    const byDatasetSettingK = [BreakdownGroup.DATASET, BreakdownGroup.SETTING, BreakdownGroup.SHOTS];
    return {
      experimentId,
      memorization: await this.memorizationBreakdown(
        all,
        byDatasetSettingK,
        MemorizationMeasure.EXACT_OR_NEAR_EXACT,
      ),
      memorizationExactOnly: await this.memorizationBreakdown(
        all,
        byDatasetSettingK,
        MemorizationMeasure.EXACT_ONLY,
      ),
      memorizationByRegime: await this.memorizationBreakdown(
        all,
        [BreakdownGroup.DATASET, BreakdownGroup.SETTING, BreakdownGroup.REGIME],
        MemorizationMeasure.EXACT_OR_NEAR_EXACT,
      ),
      performance: await this.performance(experimentId),
      memorizedVsNotMemorized: await this.memorizedVsNot(experimentId),
      correlations: await this.correlations(experimentId),
      nearExactToExact: await this.transitions(experimentId),
      contamination: await this.contamination(experimentId),
    };
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

function byDatasetSettingShots<T extends { dataset: string; setting: string; shots: number }>(
  a: T,
  b: T,
): number {
  return a.dataset.localeCompare(b.dataset) || a.setting.localeCompare(b.setting) || a.shots - b.shots;
}

/** Groups dataset x setting x k counts further and turns them into rates with Wilson intervals (pure). */
export function breakdown(
  counts: readonly CountRow[],
  filter: Omit<ResultFilter, "experimentId">,
  groupBy: readonly BreakdownGroup[],
  measure: MemorizationMeasure,
): MemorizationBreakdownRow[] {
  const kept = counts.filter(
    (row) =>
      (!filter.datasets || filter.datasets.includes(row.dataset)) &&
      (!filter.settings || filter.settings.includes(row.setting)) &&
      (!filter.shots || filter.shots.includes(row.shots)) &&
      (!filter.regimes || filter.regimes.includes(regimeOf(row.shots) as RegimeName)),
  );
  const groups = new Map<string, MemorizationBreakdownRow>();
  for (const row of kept) {
    const keyParts = {
      dataset: groupBy.includes(BreakdownGroup.DATASET) ? row.dataset : null,
      setting: groupBy.includes(BreakdownGroup.SETTING) ? row.setting : null,
      shots: groupBy.includes(BreakdownGroup.SHOTS) ? row.shots : null,
      regime: groupBy.includes(BreakdownGroup.REGIME) ? (regimeOf(row.shots) as RegimeName) : null,
    };
    const key = JSON.stringify(keyParts);
    const group = groups.get(key) ?? {
      ...keyParts,
      n: 0,
      exact: 0,
      nearExact: 0,
      inexact: 0,
      unjudged: 0,
      memorized: 0,
      rate: null,
      ciLow: null,
      ciHigh: null,
    };
    group.exact += row.exact;
    group.nearExact += row.near_exact;
    group.inexact += row.inexact;
    group.unjudged += row.unjudged;
    groups.set(key, group);
  }
  const order = ["ZERO_SHOT", "FEW_SHOT", "MANY_SHOT"];
  return [...groups.values()]
    .map((group) => {
      const n = group.exact + group.nearExact + group.inexact;
      const memorized =
        measure === MemorizationMeasure.EXACT_ONLY ? group.exact : group.exact + group.nearExact;
      const interval = wilsonInterval(memorized, n);
      return {
        ...group,
        n,
        memorized,
        rate: n ? memorized / n : null,
        ciLow: interval?.low ?? null,
        ciHigh: interval?.high ?? null,
      };
    })
    .sort(
      (a, b) =>
        (a.dataset ?? "").localeCompare(b.dataset ?? "") ||
        (a.setting ?? "").localeCompare(b.setting ?? "") ||
        (a.shots ?? 0) - (b.shots ?? 0) ||
        order.indexOf(a.regime ?? "") - order.indexOf(b.regime ?? ""),
    );
}
