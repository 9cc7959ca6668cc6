import * as Plot from "@observablehq/plot";
import type { CompareQuery } from "../generated/operations";
import { headline, inSettingOrder, PALETTE, SETTING_LABELS, SETTING_SHORT } from "./data";
import type { FigureSpec } from "./plots";

export type Comparison = CompareQuery["compareExperiments"];

/** How a comparison names an experiment: its model, and its name when two ran the same model. */
export function modelLabels(comparison: Comparison): Map<string, string> {
  const models = comparison.experiments.map((e) => `${e.subject.provider}/${e.subject.requestedModel}`);
  return new Map(
    comparison.experiments.map((e, index) => [
      e.experimentId,
      models.filter((model) => model === models[index]).length > 1
        ? `${models[index]} (${e.subject.experimentName})`
        : models[index],
    ]),
  );
}

/** Memorization (exact or near-exact) vs k, one series per model, one panel per setting (pure). */
export function comparisonPoints(comparison: Comparison, dataset: string) {
  const labels = modelLabels(comparison);
  return comparison.reports.flatMap((report) =>
    headline(report.memorization, dataset)
      .filter((row) => row.rate !== null && row.shots !== null)
      .map((row) => ({
        model: labels.get(report.experimentId) ?? report.experimentId,
        setting: SETTING_LABELS[row.setting ?? ""] ?? row.setting,
        settingShort: SETTING_SHORT[row.setting ?? ""] ?? row.setting,
        shots: row.shots as number,
        rate: row.rate as number,
        ciLow: row.ciLow,
        ciHigh: row.ciHigh,
        memorized: row.memorized,
        n: row.n,
      })),
  );
}

const SYMBOLS = ["circle", "square", "triangle", "diamond", "cross", "star", "wye", "asterisk"];

/**
 * The comparison's figure for one dataset: models as series (colour, symbol and an end label each, nudged
 * apart so coinciding series stay readable), a panel per setting, and the title, dataset and measure inside
 * the SVG so an exported file says what it shows. k is spaced evenly, and the axis says so.
 */
export function comparisonFigure(comparison: Comparison, dataset: string): FigureSpec {
  const points = comparisonPoints(comparison, dataset);
  const models = [...new Set(points.map((point) => point.model))];
  const header = points.length
    ? [
        {
          setting: points[0].setting,
          title: `${dataset}: memorization (exact or near-exact) by model`,
          models: models.join("  ·  "),
        },
      ]
    : [];
  const nudge = (model: string) => (models.indexOf(model) - (models.length - 1) / 2) * 12;
  return {
    key: "compare-memorization",
    title: `Memorization vs k by model: ${dataset}`,
    titled: true,
    caption:
      "Exact or near-exact share of judged completions per model and setting, with 95% intervals; the table below " +
      "pairs the models on the instances both ran.",
    rows: points,
    render: (width) =>
      Plot.plot({
        width,
        height: 340,
        marginTop: 72,
        marginRight: 120,
        x: { type: "point", label: "k (demonstrations; evenly spaced, not to scale)", inset: 20 },
        y: { domain: [0, 100], percent: true, label: "memorized (%)", grid: true },
        // The settings in the study's order (the experiment page's), the control last, not alphabetically.
        fx: { label: null, domain: inSettingOrder(points.map((point) => point.setting)) },
        color: { domain: models, range: PALETTE.slice(0, models.length), legend: true },
        symbol: { domain: models, range: SYMBOLS.slice(0, models.length) },
        marks: [
          Plot.frame({ stroke: "#ddd" }),
          // The title and the models inside the SVG (in the first panel only), so an exported file says what it shows.
          Plot.text(header, {
            text: "title",
            fx: "setting",
            frameAnchor: "top-left",
            dy: -58,
            fontWeight: "bold",
            fontSize: 13,
          }),
          Plot.text(header, {
            text: "models",
            fx: "setting",
            frameAnchor: "top-left",
            dy: -42,
            fill: "#555",
          }),
          Plot.ruleX(points, {
            x: "shots",
            y1: "ciLow",
            y2: "ciHigh",
            stroke: "model",
            fx: "setting",
            strokeOpacity: 0.5,
          }),
          Plot.line(points, { x: "shots", y: "rate", stroke: "model", fx: "setting" }),
          Plot.dot(points, {
            x: "shots",
            y: "rate",
            stroke: "model",
            symbol: "model",
            fill: "white",
            r: 4,
            fx: "setting",
            className: "point",
            tip: true,
            channels: { model: "model", memorized: "memorized", n: "n" },
          }),
          // One end label per model, each nudged by its own offset, so coinciding series stay readable.
          ...models.map((model) =>
            Plot.text(
              points.filter((point) => point.model === model),
              Plot.selectLast({
                x: "shots",
                y: "rate",
                fx: "setting",
                text: "model",
                dx: 8,
                dy: nudge(model),
                textAnchor: "start",
                fill: "model",
                className: "series-label",
              }),
            ),
          ),
        ],
      }),
  };
}
