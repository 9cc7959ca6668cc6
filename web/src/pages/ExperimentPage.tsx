import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { gql, subscribe } from "../api";
import { ErrorBox, money, number, ProgressBar, percent, pValue, Section, Status } from "../components/common";
import { Figure } from "../components/Figure";
import { correlationRows, datasetsOf, Report, SETTING_LABELS, SETTINGS } from "../figures/data";
import { figuresOf } from "../figures/plots";
import {
  CancelRunDocument,
  ExperimentDocument,
  ExperimentLiveDocument,
  type ExperimentLiveSubscription,
  type ExperimentQuery,
  ReportDocument,
  ResumeRunDocument,
  RetryFailedCompletionsDocument,
  SetBudgetDocument,
} from "../generated/operations";

type Experiment = ExperimentQuery["experiment"];
/** A run as the page shows it: the live updates carry no sample, so it is kept from the first read. */
type RunItem = ExperimentLiveSubscription["experimentProgress"]["runs"][number] & {
  sample?: Experiment["runs"][number]["sample"];
};

type RunAction = "cancelRun" | "resumeRun" | "retryFailedCompletions";
type LiveEvent = ExperimentLiveSubscription["experimentProgress"];

/** The runs with a live event's fields over them. */
const withLive = (runs: RunItem[], event: LiveEvent): RunItem[] =>
  runs.map((run) => ({ ...run, ...(event.runs.find((r) => r.id === run.id) ?? {}) }));

/** What a run does, in the table's words: the quiz's runs are named as the quiz's, not as performance. */
const runKindLabel = (run: { kind: string; quizPosition?: string | null }): string =>
  run.kind === "MEMORIZATION"
    ? "memorization"
    : run.kind === "PERFORMANCE"
      ? "performance"
      : run.kind === "QUIZ_OPTIONS"
        ? "quiz: options"
        : run.kind === "QUIZ"
          ? run.quizPosition
            ? `quiz: compensator ${run.quizPosition}`
            : "quiz: bias detector"
          : run.kind.toLowerCase();

const ACTIVE = new Set(["QUEUED", "RUNNING"]);
/** Runs that can be cancelled: active, or paused by a budget. */
const CANCELLABLE = new Set(["QUEUED", "RUNNING", "PAUSED_BUDGET"]);

/** One experiment: its runs with live progress and controls, then the study's figures from its report. */
export function ExperimentPage({ id }: { id: string }) {
  const [experiment, setExperiment] = useState<Experiment | null>(null);
  const [runs, setRuns] = useState<RunItem[]>([]);
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [dataset, setDataset] = useState<string | null>(null);
  const lastReportAt = useRef(0);
  // The runs' table: folded when every run has succeeded as the page opens; opened (never folded behind the
  // reader's back) when one has not.
  const [runsOpen, setRunsOpen] = useState(false);
  const unfinished = runs.some((run) => run.status !== "SUCCEEDED");
  useEffect(() => {
    if (unfinished) setRunsOpen(true);
  }, [unfinished]);
  // A subscription ends when every run has finished; resuming or retrying starts a new one.
  const [generation, setGeneration] = useState(0);

  const loadReport = () => {
    lastReportAt.current = Date.now();
    return gql(ReportDocument, { id })
      .then((data) => setReport(data.studyReport))
      .catch(setError);
  };
  // The latest live event, numbered. A query's answer can be older than an event that arrived while it was on
  // its way (a run that pauses on its budget within milliseconds of its start): the event's progress wins then,
  // since the subscription sends each later change anyway. An event that arrives before the first answer is kept
  // here, not lost.
  const lastEvent = useRef<{ number: number; event: LiveEvent } | null>(null);
  const load = () => {
    const seen = lastEvent.current?.number ?? 0;
    return gql(ExperimentDocument, { id })
      .then((data) => {
        const newer = lastEvent.current && lastEvent.current.number > seen ? lastEvent.current.event : null;
        setExperiment(newer ? { ...data.experiment, progress: newer.progress } : data.experiment);
        setRuns(newer ? withLive(data.experiment.runs, newer) : data.experiment.runs);
      })
      .catch(setError);
  };

  useEffect(() => {
    load();
    loadReport();
    // Live progress: the current state first, then each change; the report is re-read at most every 3 s meanwhile
    // and once more when the experiment finishes.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = subscribe(
      ExperimentLiveDocument,
      { id },
      {
        next: (data) => {
          const event = data.experimentProgress;
          lastEvent.current = { number: (lastEvent.current?.number ?? 0) + 1, event };
          setExperiment((current) => (current ? { ...current, progress: event.progress } : current));
          setRuns((current) => withLive(current, event));
          clearTimeout(timer);
          timer = setTimeout(loadReport, Math.max(0, 3_000 - (Date.now() - lastReportAt.current)));
        },
        error: setError,
        complete: () => {
          clearTimeout(timer);
          loadReport();
        },
      },
    );
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [id, generation]);

  const act = async (mutation: RunAction, runId: string) => {
    setBusy(runId);
    try {
      const variables = { input: { runId } };
      if (mutation === "cancelRun") await gql(CancelRunDocument, variables);
      else if (mutation === "resumeRun") await gql(ResumeRunDocument, variables);
      else await gql(RetryFailedCompletionsDocument, variables);
      await load();
      setGeneration((value) => value + 1);
      setError(null);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };

  const [budgetText, setBudgetText] = useState("");
  const setBudget = async (event: Event) => {
    event.preventDefault();
    setBusy("budget");
    try {
      const text = budgetText.trim();
      await gql(SetBudgetDocument, {
        input: { experimentId: id, maxCostUsd: text === "" ? null : Number(text) },
      });
      setBudgetText("");
      await load();
      setGeneration((value) => value + 1);
      setError(null);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };

  const datasets = useMemo(() => (report ? datasetsOf(report) : []), [report]);
  const shown = dataset && datasets.includes(dataset) ? dataset : (datasets[0] ?? null);
  const figures = useMemo(() => (report && shown ? figuresOf(report, shown) : []), [report, shown]);

  if (!experiment)
    return <Section title="Experiment">{error ? <ErrorBox error={error} /> : <p>Loading…</p>}</Section>;
  const progress = experiment.progress;
  return (
    <>
      <Section
        title={experiment.name}
        actions={
          <span>
            <a class="button" href={`#/contamination/${id}`}>
              Contamination evidence
            </a>{" "}
            <a class="button" href={`#/review/${id}`}>
              Review judgments
            </a>
          </span>
        }
      >
        <p class="muted">
          {experiment.provider} / {experiment.model} · started{" "}
          {new Date(experiment.createdAt).toLocaleString()} · <Status status={progress.status} /> · cost so
          far {money(progress.costUsd)}
          {progress.cacheHits > 0 ? ` · ${progress.cacheHits} from the cache` : ""}
          {progress.maxCostUsd != null ? (
            <span data-budget={progress.maxCostUsd}>
              {" "}
              · budget {money(progress.maxCostUsd)}, {money(progress.budgetRemainingUsd)} left
            </span>
          ) : null}
        </p>
        {progress.status === "PAUSED_BUDGET" ? (
          <p class="paused" role="status">
            Paused: {progress.waitingReason ?? "the budget is reached"}
          </p>
        ) : null}
        <form class="toolbar budget" onSubmit={setBudget}>
          <label>
            {progress.maxCostUsd != null ? "New budget" : "Budget"} ($){" "}
            <input
              inputMode="decimal"
              name="budget"
              placeholder={progress.maxCostUsd != null ? "empty: none" : "e.g. 25"}
              value={budgetText}
              onInput={(e) => setBudgetText((e.target as HTMLInputElement).value)}
            />
          </label>
          <button type="submit" disabled={busy === "budget"}>
            {progress.status === "PAUSED_BUDGET" ? "Raise and resume" : "Set budget"}
          </button>
        </form>
        <ProgressBar
          label="experiment progress"
          done={progress.done}
          failed={progress.failed}
          expected={progress.expected}
        />
        {progress.lastError ? <p class="last-error">Last error: {progress.lastError}</p> : null}
        <ErrorBox error={error} />
      </Section>
      <Section
        title="Decision"
        actions={
          <a class="button" href={`#/contamination/${id}`}>
            Each method's evidence
          </a>
        }
      >
        {report === null ? <p>Loading the report…</p> : <DecisionTable rows={report.decisions} />}
      </Section>
      <Section
        title="The study's figures"
        actions={
          datasets.length > 1 ? (
            <label>
              Dataset{" "}
              <select value={shown ?? ""} onChange={(e) => setDataset((e.target as HTMLSelectElement).value)}>
                {datasets.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          ) : null
        }
      >
        {report === null ? <p>Loading the report…</p> : null}
        {report && !shown ? <p class="empty">No results yet.</p> : null}
        {report ? (
          <p class="muted" data-computed-at={report.computedAt}>
            Results as of {new Date(report.computedAt).toLocaleTimeString()} (while a run is going, the report
            is recomputed in the background and may lag its newest answers by a few seconds).
          </p>
        ) : null}
        {shown ? (
          <div class="figures" data-dataset={shown}>
            {figures.map((spec) => (
              <Figure key={`${shown}-${spec.key}`} spec={spec} dataset={shown} />
            ))}
            <CorrelationTable rows={report ? correlationRows(report, shown) : []} />
            <ControlTable rows={report ? report.versusControl.filter((row) => row.dataset === shown) : []} />
          </div>
        ) : null}
      </Section>
      <Section title={`Runs (${runs.length})`}>
        {/* Folded when the page opens on runs that all succeeded; open while one has anything left to do or look at. */}
        <details
          class="runs"
          open={runsOpen}
          onToggle={(e) => setRunsOpen((e.currentTarget as HTMLDetailsElement).open)}
        >
          <summary>
            {runs.filter((run) => run.status === "SUCCEEDED").length} of {runs.length} succeeded
          </summary>
          <table class="runs">
            <thead>
              <tr>
                <th>Dataset</th>
                <th>Kind</th>
                <th>Setting</th>
                <th>k</th>
                <th>Status</th>
                <th class="wide">Progress</th>
                <th>Cost</th>
                <th>Last error / waiting</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {[...runs].sort(byGridOrder).map((run) => (
                <tr key={run.id} data-run={run.id}>
                  <td>
                    {run.sample?.dataset.name}
                    <div class="muted">seed {run.sample?.seed}</div>
                  </td>
                  <td>{runKindLabel(run)}</td>
                  <td>{run.setting ? (SETTING_LABELS[run.setting] ?? run.setting) : "–"}</td>
                  <td>{run.shots}</td>
                  <td>
                    <Status status={run.status} />
                  </td>
                  <td>
                    <ProgressBar
                      label={`run ${run.id}`}
                      done={run.doneCount}
                      failed={run.failedCount}
                      expected={run.expectedCount}
                    />
                  </td>
                  <td>{money(run.costUsd)}</td>
                  <td class="last-error">
                    {run.status === "PAUSED_BUDGET" && run.waitingReason === progress.waitingReason
                      ? "paused by the budget (above)"
                      : (run.lastError ?? run.waitingReason ?? "")}
                  </td>
                  <td class="actions">
                    {CANCELLABLE.has(run.status) ? (
                      <button
                        type="button"
                        disabled={busy === run.id}
                        onClick={() => act("cancelRun", run.id)}
                      >
                        Cancel
                      </button>
                    ) : null}
                    {run.status === "CANCELLED" || run.status === "FAILED" ? (
                      <button
                        type="button"
                        disabled={busy === run.id}
                        onClick={() => act("resumeRun", run.id)}
                      >
                        Resume
                      </button>
                    ) : null}
                    {!ACTIVE.has(run.status) && run.failedCount > 0 ? (
                      <button
                        type="button"
                        disabled={busy === run.id}
                        onClick={() => act("retryFailedCompletions", run.id)}
                      >
                        Retry failed
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </Section>
    </>
  );
}

/** Each sample's decision per method: the report's first table, as the markdown report opens. */
function DecisionTable({ rows }: { rows: Report["decisions"] }) {
  if (rows.length === 0) return <p class="empty">No method's results yet: no decision.</p>;
  return (
    <table class="decisions">
      <thead>
        <tr>
          <th>Sample</th>
          <th>Method</th>
          <th>Decision</th>
          <th>False positives without memory</th>
          <th>Minimum detectable rate</th>
          <th>No-memory floor</th>
          <th>Headline rate (95%)</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={`${row.sampleId}-${row.method}`}
            data-decision={row.method}
            data-dataset={row.dataset}
            data-verdict={row.verdict ?? ""}
          >
            <td>
              {row.dataset}
              {row.split ? ` (${row.split})` : ""}
              <div class="muted">seed {row.sampleSeed}</div>
            </td>
            <td>{row.methodName}</td>
            <td>
              <strong>{row.decision}</strong>
              <div class="muted">{row.meaning}</div>
              {row.note ? <div class="note">{row.note}</div> : null}
            </td>
            <td data-error-rate={row.errorRate ?? ""}>
              {row.errorRate === null ? "–" : percent(row.errorRate)}
              <div class="muted">{row.errorRateBasis}</div>
            </td>
            <td data-mdr={row.minimumDetectableRate ?? ""}>{percent(row.minimumDetectableRate)}</td>
            <td data-floor={row.floorRate ?? ""}>{percent(row.floorRate)}</td>
            <td>
              {row.rate !== null ? percent(row.rate) : ""}
              {row.rateLow !== null ? ` [${percent(row.rateLow)}, ${percent(row.rateHigh)}]` : ""}
              <div class="muted">{row.rateLabel}</div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Runs in the grid's order: dataset, memorization before performance, setting, k. */
function byGridOrder(a: RunItem, b: RunItem): number {
  return (
    (a.sample?.dataset.name ?? "").localeCompare(b.sample?.dataset.name ?? "") ||
    (a.sample?.seed ?? "").localeCompare(b.sample?.seed ?? "") ||
    a.kind.localeCompare(b.kind) ||
    SETTINGS.indexOf(a.setting ?? "") - SETTINGS.indexOf(b.setting ?? "") ||
    a.shots - b.shots
  );
}

/** A control: the dataset's memorization against its control dataset's, per setting and k. */
function ControlTable({ rows }: { rows: Report["versusControl"] }) {
  if (rows.length === 0) return null;
  return (
    <figure class="figure" data-figure="control" data-points={rows.length}>
      <figcaption>
        <h3>Control: against data the model cannot have seen</h3>
        <p>
          Memorization (exact or near-exact, each instance once) of this dataset and of its control dataset,
          their difference with Newcombe's 95% interval, and Fisher's p, Holm-adjusted.
        </p>
      </figcaption>
      <table>
        <thead>
          <tr>
            <th>Control</th>
            <th>Setting</th>
            <th>k</th>
            <th>Rate</th>
            <th>Control rate</th>
            <th>Difference</th>
            <th>95% interval</th>
            <th>p (Holm)</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.controlDataset}-${row.setting}-${row.shots}`}>
              <td>{row.controlDataset}</td>
              <td>{SETTING_LABELS[row.setting] ?? row.setting}</td>
              <td>{row.shots}</td>
              <td>{percent(row.rate)}</td>
              <td>{percent(row.controlRate)}</td>
              <td>{percent(row.difference)}</td>
              <td>
                {row.differenceCiLow == null
                  ? "–"
                  : `${percent(row.differenceCiLow)} to ${percent(row.differenceCiHigh)}`}
              </td>
              <td>{pValue(row.pValueHolm ?? null)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

function CorrelationTable({ rows }: { rows: ReturnType<typeof correlationRows> }) {
  return (
    <figure class="figure" data-figure="correlations" data-points={rows.length}>
      <figcaption>
        <h3>Memorization and performance across k</h3>
        <p>
          Pearson's r (95% bootstrap interval) and Spearman's rho between mean accuracy and memorization rate
          across k; p-values Holm-adjusted over the report's tests.
        </p>
      </figcaption>
      {rows.length === 0 ? (
        <p class="empty">No data yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Setting</th>
              <th>Measure</th>
              <th>k values</th>
              <th>Pearson r</th>
              <th>95% interval</th>
              <th>p (Holm)</th>
              <th>Spearman rho</th>
              <th>p (Holm)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.setting}-${row.measure}`}>
                <td>{row.setting}</td>
                <td>{row.measure}</td>
                <td>{row.points}</td>
                <td>{number(row.pearson)}</td>
                <td>
                  {row.pearsonCiLow === null
                    ? "–"
                    : `${number(row.pearsonCiLow, 2)} to ${number(row.pearsonCiHigh, 2)}`}
                </td>
                <td>{number(row.pearsonPHolm)}</td>
                <td>{number(row.spearman)}</td>
                <td>{number(row.spearmanPHolm)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}
