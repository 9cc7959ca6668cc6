import { useEffect, useState } from "preact/hooks";
import { gql, subscribe } from "../api";
import { ErrorBox, money, ProgressBar, Section, Status } from "../components/common";
import { ExperimentsDocument, ExperimentsLiveDocument, type ExperimentsQuery } from "../generated/operations";

type ExperimentItem = ExperimentsQuery["experiments"]["edges"][number]["node"];

/** Every experiment with live progress: running ones are subscribed to; the list is re-read every few seconds. */
export function ExperimentsPage() {
  const [items, setItems] = useState<ExperimentItem[] | null>(null);
  const [count, setCount] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [picked, setPicked] = useState<string[]>([]);

  useEffect(() => {
    let alive = true;
    const load = () =>
      gql(ExperimentsDocument)
        .then((data) => {
          if (!alive) return;
          setItems(data.experiments.edges.map((edge) => edge.node));
          setCount(data.experimentCount);
          setError(null);
        })
        .catch((e) => alive && setError(e));
    load();
    // New experiments (started from the CLI, say) show without a reload.
    const timer = setInterval(load, 3_000);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, []);

  const running = (items ?? []).filter((item) => item.progress.status === "RUNNING").map((item) => item.id);
  const runningKey = running.join(",");
  useEffect(() => {
    const stops = running.map((id) =>
      subscribe(
        ExperimentsLiveDocument,
        { id },
        {
          next: (data) => {
            const event = data.experimentProgress;
            setItems((current) =>
              (current ?? []).map((item) =>
                item.id === event.experimentId ? { ...item, progress: event.progress } : item,
              ),
            );
          },
          error: setError,
        },
      ),
    );
    return () => {
      for (const stop of stops) stop();
    };
  }, [runningKey]);

  return (
    <Section title={`Experiments${items ? ` (${count})` : ""}`}>
      <ErrorBox error={error} />
      {items === null ? <p>Loading…</p> : null}
      {items?.length === 0 ? (
        <p class="empty">
          No experiments yet. Start one from the <a href="#/preview">prompt preview</a>, or with{" "}
          <code>memicl experiment --sample &lt;id&gt; --provider simulated --model demo</code>.
        </p>
      ) : null}
      {items && items.length > 1 ? (
        <p class="compare-bar">
          {picked.length >= 2 ? (
            <a class="compare-link" href={`#/compare/${picked.join(",")}`}>
              Compare the {picked.length} experiments picked
            </a>
          ) : (
            <span class="muted">Pick two or more experiments to compare their models.</span>
          )}
        </p>
      ) : null}
      {items && items.length > 0 ? (
        <table class="experiments">
          <thead>
            <tr>
              <th aria-label="compare" />
              <th>Experiment</th>
              <th>Model</th>
              <th>Status</th>
              <th class="wide">Progress</th>
              <th>Cost</th>
              <th>Last error</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id} data-experiment={item.id}>
                <td>
                  <input
                    type="checkbox"
                    class="compare-pick"
                    aria-label={`compare ${item.name}`}
                    checked={picked.includes(item.id)}
                    onChange={(e) =>
                      setPicked((current) =>
                        (e.target as HTMLInputElement).checked
                          ? [...current, item.id]
                          : current.filter((id) => id !== item.id),
                      )
                    }
                  />
                </td>
                <td>
                  <a href={`#/experiments/${item.id}`}>{item.name}</a>
                  <div class="muted">{new Date(item.createdAt).toLocaleString()}</div>
                </td>
                <td>
                  {item.provider} / {item.model}
                </td>
                <td>
                  <Status status={item.progress.status} />
                  <div class="muted">
                    {item.progress.runs} runs
                    {item.progress.activeRuns > 0 ? `, ${item.progress.activeRuns} active` : ""}
                  </div>
                </td>
                <td>
                  <ProgressBar
                    label={`progress of ${item.name}`}
                    done={item.progress.done}
                    failed={item.progress.failed}
                    expected={item.progress.expected}
                  />
                </td>
                <td>{money(item.progress.costUsd)}</td>
                <td class="last-error">{item.progress.lastError ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Section>
  );
}
