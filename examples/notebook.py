#!/usr/bin/env python3
"""From a finished memicl study to pandas DataFrames and one of the study's figures.

Run against a live memicl (`npm start`, or `memicl serve`):

    python3 examples/notebook.py --url http://localhost:4000 --experiment <id> [--compare <other id>] --out out/

It reads the study report and the completions through the HTTP exports (CSV, no joins needed), the flat report
rows through GraphQL, and, given a second experiment, the comparison of the two; then it draws memorization
against k per setting (exact or near-exact, with 95% intervals) as out/memorization.png. Needs pandas and
matplotlib (Debian: python3-pandas python3-matplotlib). Set MEMICL_API_KEY when the server has API keys.
"""

import argparse
import io
import json
import os
import urllib.parse
import urllib.request

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402


def request(url, body=None):
    headers = {"content-type": "application/json"}
    if os.environ.get("MEMICL_API_KEY"):
        headers["authorization"] = f"Bearer {os.environ['MEMICL_API_KEY']}"
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers)) as response:
        return response.read().decode()


def graphql(base, query, variables):
    answer = json.loads(request(f"{base}/graphql", {"query": query, "variables": variables}))
    if answer.get("errors"):
        raise SystemExit(f"GraphQL: {answer['errors'][0]['message']}")
    return answer["data"]


def csv(base, path):
    return pd.read_csv(io.StringIO(request(f"{base}{path}")))


ROWS = """query($filter: ReportRowFilter!, $after: String) {
  reportRows(filter: $filter, first: 500, after: $after) {
    edges { node { name value numerator denominator ciLow ciHigh
      scope { dataset sampleId setting shots regime measure otherSetting otherShots otherDataset group } } }
    pageInfo { hasNextPage endCursor } } }"""


def report_rows(base, experiment):
    rows, after = [], None
    while True:
        page = graphql(base, ROWS, {"filter": {"experimentId": experiment}, "after": after})["reportRows"]
        for edge in page["edges"]:
            node = edge["node"]
            rows.append({**{k: v for k, v in node.items() if k != "scope"}, **node["scope"]})
        if not page["pageInfo"]["hasNextPage"]:
            return pd.DataFrame(rows)
        after = page["pageInfo"]["endCursor"]


def memorization_figure(report, path):
    """Memorization (exact or near-exact) against k, one line per setting, for the first dataset."""
    rows = report[(report["name"] == "memorization.rate") & (report["measure"] == "EXACT_OR_NEAR_EXACT")]
    dataset = sorted(rows["dataset"].dropna().unique())[0]
    wide = (
        rows[rows["dataset"] == dataset]
        .groupby(["setting", "shots"])[["value", "ci_low", "ci_high"]]
        .first()
        .rename(columns={"value": "rate"})
    )
    figure, axes = plt.subplots(figsize=(7, 4))
    for setting, part in wide.groupby(level="setting"):
        part = part.droplevel("setting").sort_index()
        axes.errorbar(
            part.index.astype(str),
            part["rate"] * 100,
            yerr=[(part["rate"] - part["ci_low"]) * 100, (part["ci_high"] - part["rate"]) * 100],
            marker="o",
            capsize=3,
            label=setting,
        )
    axes.set_title(f"{dataset}: memorization (exact or near-exact) vs k")
    axes.set_xlabel("k (demonstrations; evenly spaced)")
    axes.set_ylabel("memorized (%)")
    axes.set_ylim(0, 100)
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    return dataset


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://localhost:4000")
    parser.add_argument("--experiment", required=True)
    parser.add_argument("--compare", help="a second experiment on the same datasets")
    parser.add_argument("--out", default="out")
    args = parser.parse_args()
    base = args.url.rstrip("/")
    os.makedirs(args.out, exist_ok=True)

    report = csv(base, f"/export/experiments/{args.experiment}/report.csv")
    completions = csv(base, f"/export/experiments/{args.experiment}/completions.csv")
    rows = report_rows(base, args.experiment)
    tables = sorted(report["name"].str.split(".").str[0].unique())
    print(f"report: {len(report)} rows, tables {', '.join(tables)}")
    print(f"completions: {len(completions)} rows, {completions['effective_verdict'].notna().sum()} with a verdict")
    print(f"report rows: {len(rows)} rows, {rows['name'].nunique()} names")
    if args.compare:
        ids = urllib.parse.quote(f"{args.experiment},{args.compare}")
        comparison = csv(base, f"/export/comparison.csv?experiments={ids}")
        differences = comparison[comparison["statistic"] == "difference"]
        print(f"comparison: {len(comparison)} rows, {len(differences)} paired cells")
    dataset = memorization_figure(report, os.path.join(args.out, "memorization.png"))
    print(f"figure: {os.path.join(args.out, 'memorization.png')} ({dataset})")


if __name__ == "__main__":
    main()
