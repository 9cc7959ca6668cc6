import { useEffect, useMemo, useState } from "preact/hooks";
import { gql } from "../api";
import { ErrorBox, percent, pValue, Section } from "../components/common";
import { Figure } from "../components/Figure";
import { Comparison, comparisonFigure, modelLabels } from "../figures/compare";
import { SETTING_LABELS } from "../figures/data";
import { CompareDocument } from "../generated/operations";
import { latestOnly } from "../latest";

/** Experiments side by side: a figure per dataset with models as series, and the paired tests. */
export function ComparePage({ ids }: { ids: string[] }) {
  const [comparison, setComparison] = useState<Comparison | null>(null);
  const [error, setError] = useState<unknown>(null);
  const comparisons = useMemo(latestOnly, []);
  useEffect(() => {
    comparisons(gql(CompareDocument, { ids }), (data) => setComparison(data.compareExperiments), setError);
  }, [ids.join(",")]);
  const labels = comparison ? modelLabels(comparison) : new Map<string, string>();
  return (
    <Section title="Experiments compared">
      <ErrorBox error={error} />
      {comparison === null && !error ? <p>Loading the comparison…</p> : null}
      {comparison ? (
        <>
          <ul class="compared">
            {comparison.experiments.map((e) => (
              <li key={e.experimentId} data-compared={e.experimentId}>
                <a href={`#/experiments/${e.experimentId}`}>{e.subject.experimentName}</a>:{" "}
                {labels.get(e.experimentId)}
              </li>
            ))}
          </ul>
          {comparison.warnings.map((warning) => (
            <p class="warning" key={warning}>
              {warning}
            </p>
          ))}
          {comparison.datasets.map((dataset) => (
            <div class="figures" key={dataset} data-dataset={dataset}>
              <Figure spec={comparisonFigure(comparison, dataset)} dataset={dataset} />
              <figure class="figure" data-figure="compare-tests">
                <figcaption>
                  <h3>Paired on the instances both ran: {dataset}</h3>
                  <p>{comparison.multipleComparisons}</p>
                </figcaption>
                <table>
                  <thead>
                    <tr>
                      <th>A</th>
                      <th>B</th>
                      <th>Kind</th>
                      <th>Setting</th>
                      <th>k</th>
                      <th>Measure</th>
                      <th>Pairs</th>
                      <th>A</th>
                      <th>B</th>
                      <th>A − B</th>
                      <th>p (Holm)</th>
                    </tr>
                  </thead>
                  <tbody>
                    {comparison.rows
                      .filter((row) => row.dataset === dataset)
                      .map((row) => (
                        <tr
                          key={`${row.experimentA}-${row.experimentB}-${row.kind}-${row.measure}-${row.setting}-${row.shots}`}
                        >
                          <td>{labels.get(row.experimentA)}</td>
                          <td>{labels.get(row.experimentB)}</td>
                          <td>{row.kind === "MEMORIZATION" ? "memorization" : "performance"}</td>
                          <td>{row.setting ? (SETTING_LABELS[row.setting] ?? row.setting) : "–"}</td>
                          <td>{row.shots}</td>
                          <td>{row.measure ?? "accuracy"}</td>
                          <td>{row.pairs}</td>
                          <td>{percent(row.rateA)}</td>
                          <td>{percent(row.rateB)}</td>
                          <td>{percent(row.difference)}</td>
                          <td>{pValue(row.pValueHolm)}</td>
                        </tr>
                      ))}
                  </tbody>
                </table>
              </figure>
            </div>
          ))}
        </>
      ) : null}
    </Section>
  );
}
