import * as Plot from "@observablehq/plot";
import {
  correlationRows,
  floorPoints,
  MEASURE_LABELS,
  memorizationPoints,
  memorizedVsNotPoints,
  PALETTE,
  performancePoints,
  Report,
  SETTING_LABELS,
  transitionCells,
} from "./data";

/**
 * The study's figures as Observable Plot charts. Colour is never the only cue: each series also has its own
 * symbol and a text label at its last point. Points are marks of class "point" (the browser tests count them).
 */

export interface FigureSpec {
  key: string;
  title: string;
  caption: string;
  rows: Record<string, unknown>[];
  render(width: number): SVGSVGElement | HTMLElement;
  /** The chart draws its own title and dataset inside its SVG: an export adds no header. */
  titled?: boolean;
}

const settingColor = {
  domain: Object.values(SETTING_LABELS),
  range: PALETTE.slice(0, 4),
  legend: true,
};
const settingSymbol = {
  domain: Object.values(SETTING_LABELS),
  range: ["circle", "triangle", "square", "diamond"],
};

export function figuresOf(report: Report, dataset: string): FigureSpec[] {
  const memorization = memorizationPoints(report, dataset);
  const floor = floorPoints(report, dataset);
  const performance = performancePoints(report, dataset);
  const groups = memorizedVsNotPoints(report, dataset);
  const transitions = transitionCells(report, dataset);
  return [
    {
      key: "memorization",
      title: "Memorization rate vs k",
      caption:
        "Share of judged completions that are exact or near-exact (left) and exact only (right), per setting, " +
        "with 95% intervals. The dashed grey line is the no-memory floor (a control): the share an answer " +
        "without memory (the input copied, a constant, a shown demonstration's continuation) gets exact or " +
        "near-exact. A point's tip gives its floor, the rate above it and the rate over non-trivial targets " +
        "outside it (what the replication verdict tests).",
      rows: memorization,
      render: (width) =>
        Plot.plot({
          width,
          height: 300,
          marginRight: 40,
          marginTop: 48,
          x: { type: "point", label: "k (demonstrations; evenly spaced, not to scale)", inset: 20 },
          y: { domain: [0, 100], percent: true, label: "memorized (%)", grid: true },
          fx: { domain: [MEASURE_LABELS.both, MEASURE_LABELS.exact], label: null },
          color: settingColor,
          symbol: settingSymbol,
          marks: [
            Plot.frame({ stroke: "#ddd" }),
            // The title inside the SVG, so an exported file says what it shows.
            Plot.text(
              [{ measure: MEASURE_LABELS.both, title: `${dataset}: memorization vs k, by setting` }],
              {
                text: "title",
                fx: "measure",
                frameAnchor: "top-left",
                dy: -30,
                fontWeight: "bold",
                fontSize: 12,
              },
            ),
            Plot.line(floor, {
              x: "shots",
              y: "rate",
              fx: "measure",
              stroke: "#888",
              strokeDasharray: "4 3",
              className: "floor",
            }),
            Plot.ruleX(memorization, {
              x: "shots",
              y1: "ciLow",
              y2: "ciHigh",
              stroke: "setting",
              fx: "measure",
              strokeOpacity: 0.6,
            }),
            Plot.line(memorization, { x: "shots", y: "rate", stroke: "setting", fx: "measure" }),
            Plot.dot(memorization, {
              x: "shots",
              y: "rate",
              stroke: "setting",
              symbol: "setting",
              fill: "white",
              r: 4,
              fx: "measure",
              className: "point",
              tip: true,
              channels: {
                memorized: "memorized",
                n: "n",
                "no-memory floor": "floor",
                "above the floor": "aboveFloor",
                "non-trivial, outside the floor": "nonTrivialOutsideFloor",
              },
            }),
            // One end label per setting, each nudged by its own offset: coinciding series stay readable.
            ...Object.values(SETTING_LABELS).map((setting, index, all) =>
              Plot.text(
                memorization.filter((point) => point.setting === setting),
                Plot.selectLast({
                  x: "shots",
                  y: "rate",
                  z: "measure",
                  fx: "measure",
                  text: "label",
                  dx: 8,
                  dy: (index - (all.length - 1) / 2) * 11,
                  textAnchor: "start",
                  fill: "setting",
                }),
              ),
            ),
          ],
        }),
    },
    {
      key: "performance",
      title: "Performance vs k",
      caption:
        "Accuracy of the performance runs: mean over repeats, with ± one standard deviation between repeats.",
      rows: performance,
      render: (width) =>
        Plot.plot({
          width,
          height: 260,
          x: { type: "point", label: "k (demonstrations; evenly spaced, not to scale)", inset: 20 },
          y: { domain: [0, 100], percent: true, label: "accuracy (%)", grid: true },
          marks: [
            Plot.frame({ stroke: "#ddd" }),
            Plot.ruleX(performance, {
              x: "shots",
              y1: "sdLow",
              y2: "sdHigh",
              stroke: PALETTE[0],
              strokeWidth: 2,
            }),
            Plot.line(performance, { x: "shots", y: "meanAccuracy", stroke: PALETTE[0] }),
            Plot.dot(performance, {
              x: "shots",
              y: "meanAccuracy",
              fill: PALETTE[0],
              r: 4,
              className: "point",
              tip: true,
              channels: { repeats: "repeats", n: "n" },
            }),
            Plot.text(
              performance,
              Plot.selectLast({
                x: "shots",
                y: "meanAccuracy",
                text: () => "mean ± SD",
                dx: 8,
                textAnchor: "start",
              }),
            ),
          ],
        }),
    },
    {
      key: "memorized-vs-not",
      title: "Accuracy on memorized vs not memorized instances",
      caption:
        "Performance accuracy (same k, all repeats) on instances memorized in each setting at that k, and on the rest.",
      rows: groups,
      render: (width) =>
        Plot.plot({
          width,
          height: 280,
          marginRight: 30,
          x: { type: "point", label: "k", inset: 16 },
          y: { domain: [0, 100], percent: true, label: "accuracy (%)", grid: true },
          fx: {
            domain: Object.values(SETTING_LABELS).filter((s) => groups.some((g) => g.setting === s)),
            label: null,
          },
          color: { domain: ["memorized", "not memorized"], range: [PALETTE[5], PALETTE[4]], legend: true },
          symbol: { domain: ["memorized", "not memorized"], range: ["diamond", "circle"] },
          marks: [
            Plot.frame({ stroke: "#ddd" }),
            Plot.line(groups, { x: "shots", y: "accuracy", stroke: "group", fx: "setting" }),
            Plot.dot(groups, {
              x: "shots",
              y: "accuracy",
              stroke: "group",
              symbol: "group",
              fill: "white",
              r: 4,
              fx: "setting",
              className: "point",
              tip: true,
              channels: { instances: "instances", difference: "difference", "p (Holm)": "pValueHolm" },
            }),
            Plot.text(
              groups,
              Plot.selectLast({
                x: "shots",
                y: "accuracy",
                z: "group",
                fx: "setting",
                text: (d: { group: string }) => (d.group === "memorized" ? "mem." : "not"),
                dx: 8,
                textAnchor: "start",
              }),
            ),
          ],
        }),
    },
    {
      key: "transitions",
      title: "Near-exact → exact transitions",
      caption:
        "Of the instances near-exact at the smaller k (rows), the share exact at the larger k (columns); the text " +
        "gives the counts.",
      rows: transitions,
      render: (width) =>
        Plot.plot({
          width,
          height: 220,
          marginLeft: 60,
          x: { label: "exact at", domain: orderedKs(transitions.map((t) => [t.to, t.toShots])) },
          y: { label: "near-exact at", domain: orderedKs(transitions.map((t) => [t.from, t.fromShots])) },
          fx: {
            domain: Object.values(SETTING_LABELS).filter((s) => transitions.some((t) => t.setting === s)),
            label: null,
          },
          color: {
            type: "linear",
            domain: [0, 1],
            scheme: "cividis",
            legend: true,
            label: "share exact",
            percent: true,
          },
          marks: [
            Plot.cell(transitions, {
              x: "to",
              y: "from",
              fx: "setting",
              fill: "rate",
              className: "point",
              tip: true,
            }),
            Plot.text(transitions, {
              x: "to",
              y: "from",
              fx: "setting",
              text: "text",
              fill: (d: { rate: number | null }) => (d.rate !== null && d.rate > 0.6 ? "black" : "white"),
            }),
          ],
        }),
    },
  ];
}

function orderedKs(pairs: [string, number][]): string[] {
  return [...new Map(pairs.sort((a, b) => a[1] - b[1])).keys()];
}

export { correlationRows };
