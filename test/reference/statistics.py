"""Reference values for memicl's statistics, computed independently with scipy and numpy.

Regenerate with: python3 test/reference/statistics.py > test/reference/statistics.json
(scipy 1.17.1, numpy; the unit tests in test/unit/report/statistics.test.ts compare against this file).
"""

import itertools
import json
import math

import numpy as np
from scipy import stats

Z = stats.norm.ppf(0.975)


def wilson(x, n):
    # Wilson (1927), written out from the formula; scipy's binomtest(...).proportion_ci(method="wilson") agrees.
    ci = stats.binomtest(x, n).proportion_ci(confidence_level=0.95, method="wilson")
    return [ci.low, ci.high]


def newcombe(x1, n1, x2, n2):
    # Newcombe (1998), method 10, from scipy's Wilson intervals.
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1)
    l2, u2 = wilson(x2, n2)
    d = p1 - p2
    return [d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)]


def holm(ps):
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    m = len(ps)
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out


def spearman_exact(x, y):
    # Brute force over every pairing, two-sided as |rho| >= |observed|.
    observed = stats.spearmanr(x, y).statistic
    count = total = 0
    for perm in itertools.permutations(y):
        rho = stats.spearmanr(x, perm).statistic
        total += 1
        if abs(rho) >= abs(observed) - 1e-9:
            count += 1
    return [observed, count / total]


def spearman_permutation_test(x, y):
    # scipy's own exact permutation test (pairings), for data whose null distribution is symmetric.
    res = stats.permutation_test(
        (x,), lambda a: stats.spearmanr(a, y).statistic, permutation_type="pairings", n_resamples=math.inf
    )
    return res.pvalue


def pearson_bootstrap(x, y):
    res = stats.bootstrap(
        (np.array(x), np.array(y)),
        lambda a, b: stats.pearsonr(a, b).statistic,
        paired=True,
        vectorized=False,
        method="percentile",
        n_resamples=20000,
        rng=np.random.default_rng(1),
    )
    return [res.confidence_interval.low, res.confidence_interval.high]


def cluster_bootstrap(successes, trials):
    rng = np.random.default_rng(2)
    s, t = np.array(successes, float), np.array(trials, float)
    idx = rng.integers(0, len(s), size=(20000, len(s)))
    rates = s[idx].sum(axis=1) / t[idx].sum(axis=1)
    return [float(np.percentile(rates, 2.5)), float(np.percentile(rates, 97.5))]


wilson_cases = [[8, 10], [0, 20], [20, 20], [37, 200], [1, 3]]
newcombe_cases = [[56, 70, 48, 80], [9, 10, 3, 10], [0, 10, 0, 20], [120, 150, 30, 50], [5, 5, 0, 7]]
fisher_cases = [[8, 2, 1, 5], [3, 1, 1, 3], [10, 10, 10, 10], [0, 5, 5, 0], [120, 30, 30, 20], [1, 9, 11, 3]]
mcnemar_cases = [[10, 2], [3, 3], [0, 5], [25, 40], [1, 0]]
holm_case = [0.01, 0.04, 0.03, 0.005, 0.2]
spearman_cases = [
    [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]],
    [[0.61, 0.64, 0.7, 0.69, 0.72], [0.1, 0.3, 0.35, 0.5, 0.62]],
    [[1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 6, 5]],
    [[1, 2, 3, 4, 5], [5, 6, 7, 8, 7]],
    [[0.5, 0.6, 0.6, 0.7, 0.8, 0.9, 0.95], [0.2, 0.1, 0.4, 0.3, 0.6, 0.5, 0.9]],
]
x20 = [0.50, 0.52, 0.55, 0.56, 0.58, 0.60, 0.61, 0.63, 0.65, 0.66, 0.68, 0.70, 0.71, 0.73, 0.75, 0.76, 0.78, 0.80, 0.82, 0.85]
y20 = [0.10, 0.15, 0.12, 0.20, 0.18, 0.25, 0.22, 0.30, 0.28, 0.35, 0.31, 0.40, 0.33, 0.45, 0.41, 0.50, 0.47, 0.52, 0.58, 0.55]
pearson_permutation_cases = [
    ([0.52, 0.61, 0.58, 0.70, 0.74], [0.10, 0.22, 0.18, 0.35, 0.31]),
    ([1, 2, 3, 4, 5, 6, 7], [2, 1, 4, 3, 7, 5, 6]),
    ([0.5, 0.6, 0.55], [0.3, 0.1, 0.2]),
    ([0.61, 0.64, 0.66, 0.70, 0.69, 0.75, 0.73, 0.80], [0.40, 0.38, 0.45, 0.41, 0.52, 0.50, 0.58, 0.55]),
]
def rouge_score_tokens(text):
    # rouge_score's tokenize.tokenize without a stemmer, written out (the package is not installed here).
    import re

    text = re.sub(r"[^a-z0-9]+", " ", text.lower())
    return [token for token in re.split(r"\s+", text) if re.match(r"^[a-z0-9]+$", token)]


def rouge_l(reference, candidate):
    ref, cand = rouge_score_tokens(reference), rouge_score_tokens(candidate)
    if not ref or not cand:
        return 0.0
    table = [[0] * (len(cand) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(cand) + 1):
            table[i][j] = table[i - 1][j - 1] + 1 if ref[i - 1] == cand[j - 1] else max(table[i - 1][j], table[i][j - 1])
    lcs = table[-1][-1]
    if lcs == 0:
        return 0.0
    precision, recall = lcs / len(cand), lcs / len(ref)
    return 2 * precision * recall / (precision + recall)


rouge_cases = [
    ["The cat sat on the mat.", "the cat sat on a mat"],
    ["Foreign oil reserves will be made available to the U.S.", "Oil reserves will be made available to the US."],
    ["What is a fear of shadows ?", "shadows?"],
    ["", "anything"],
    ["Don't stop-believing, 1999!", "dont stop believing 1999"],
]


def bootstrap_p(guided, general, resamples=200_000, seed=11):
    # Time Travel's Algorithm 1, one-sided: paired (resampled mean differences <= 0) and unpaired
    # (1 - share of resamples where the guided mean beats the general mean, each list resampled on its own).
    rng = np.random.default_rng(seed)
    guided, general = np.asarray(guided), np.asarray(general)
    d = guided - general
    paired = np.mean(rng.choice(d, size=(resamples, len(d)), replace=True).mean(axis=1) <= 1e-12)
    g = rng.choice(guided, size=(resamples, len(guided)), replace=True).mean(axis=1)
    h = rng.choice(general, size=(resamples, len(general)), replace=True).mean(axis=1)
    return [float(paired), float(1 - np.mean(g > h))]


_rng = np.random.default_rng(5)
_base = np.round(_rng.uniform(0.1, 0.6, 40), 2)
bootstrap_cases = [
    [list(np.round(np.clip(_base + _rng.normal(0.06, 0.12, 40), 0, 1), 2)), list(_base)],
    [list(np.round(np.clip(_base + _rng.normal(0.0, 0.15, 40), 0, 1), 2)), list(_base)],
]

cluster_successes = [(i * 7) % 5 for i in range(200)]
cluster_trials = [4] * 200

def fleiss(table):
    # Fleiss (1971), from the formula with numpy: P_i per item, p_j per category.
    counts = np.array(table, dtype=float)
    items, _ = counts.shape
    m = counts[0].sum()
    p = counts.sum(axis=0) / (items * m)
    per_item = ((counts * counts).sum(axis=1) - m) / (m * (m - 1))
    chance = float((p * p).sum())
    return float((per_item.mean() - chance) / (1 - chance))


def cohen(a, b):
    # Cohen (1960): observed agreement against the product of the two raters' marginals.
    labels = sorted(set(a) | set(b))
    n = len(a)
    observed = np.mean([x == y for x, y in zip(a, b)])
    chance = sum((a.count(c) / n) * (b.count(c) / n) for c in labels)
    return float((observed - chance) / (1 - chance))


# Fleiss' own example (Wikipedia's table: 10 items, 14 raters, 5 categories; kappa 0.210) and seeded random ones.
fleiss_cases = [
    [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
     [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]],
]
fleiss_rng = np.random.default_rng(24)
for raters in (3, 4, 5):
    rows = []
    for _ in range(12):
        row = np.bincount(fleiss_rng.choice(3, size=raters, p=[0.2, 0.3, 0.5]), minlength=3)
        rows.append([int(x) for x in row])
    fleiss_cases.append(rows)
cohen_rng = np.random.default_rng(7)
cohen_cases = []
for n in (10, 25):
    a = [str(x) for x in cohen_rng.choice(["EXACT", "NEAR_EXACT", "INEXACT"], size=n, p=[0.2, 0.3, 0.5])]
    b = [x if cohen_rng.random() < 0.7 else str(cohen_rng.choice(["EXACT", "NEAR_EXACT", "INEXACT"])) for x in a]
    cohen_cases.append((a, b))

# The benchmarks' interleaved readers (bench/interleave.ts): Student's t quantiles and the 95% interval of a
# geometric mean of ratios (a one-sample t interval on their logarithms, exponentiated).
t_quantile_cases = [(0.975, 1), (0.975, 6), (0.975, 30), (0.05, 9), (0.995, 3)]
geometric_rng = np.random.default_rng(28)
geometric_cases = [[0.9, 0.95, 0.88], [float(x) for x in np.round(geometric_rng.lognormal(-0.08, 0.06, size=14), 4)]]


def geometric_mean_interval(ratios):
    logs = np.log(ratios)
    ci = stats.ttest_1samp(logs, 0.0).confidence_interval(0.95)
    return [float(np.exp(logs.mean())), float(np.exp(ci.low)), float(np.exp(ci.high))]


print(
    json.dumps(
        {
            "generator": "python3 test/reference/statistics.py (scipy %s, numpy %s)" % (stats.__name__ and __import__("scipy").__version__, np.__version__),
            "wilson": [{"x": x, "n": n, "interval": wilson(x, n)} for x, n in wilson_cases],
            "newcombe": [{"table": c, "result": newcombe(*c)} for c in newcombe_cases],
            "fisher": [
                {"table": c, "p": stats.fisher_exact([[c[0], c[1]], [c[2], c[3]]]).pvalue} for c in fisher_cases
            ],
            "mcnemar": [{"b": b, "c": c, "p": stats.binomtest(b, b + c, 0.5).pvalue} for b, c in mcnemar_cases],
            "holm": {"p": holm_case, "adjusted": holm(holm_case)},
            "spearman": [
                {
                    "x": x,
                    "y": y,
                    "rho_and_p": spearman_exact(x, y),
                    "scipy_permutation_test_p": spearman_permutation_test(x, y),
                }
                for x, y in spearman_cases
            ],
            "pearson_permutation": [
                {
                    "x": x,
                    "y": y,
                    "p": stats.pearsonr(x, y, method=stats.PermutationMethod(n_resamples=np.inf)).pvalue,
                }
                for x, y in pearson_permutation_cases
            ],
            "pearson_bootstrap": {"x": x20, "y": y20, "r": stats.pearsonr(x20, y20).statistic, "interval": pearson_bootstrap(x20, y20)},
            "rouge_l": [{"reference": r, "candidate": c, "f": rouge_l(r, c)} for r, c in rouge_cases],
            "guided_general_bootstrap": [
                {"guided": [float(x) for x in g], "general": [float(x) for x in h], "p": bootstrap_p(g, h)}
                for g, h in bootstrap_cases
            ],
            "fleiss_kappa": [{"table": t, "kappa": fleiss(t)} for t in fleiss_cases],
            "cohen_kappa": [{"a": a, "b": b, "kappa": cohen(a, b)} for a, b in cohen_cases],
            "cluster_bootstrap": {
                "successes": cluster_successes,
                "trials": cluster_trials,
                "interval": cluster_bootstrap(cluster_successes, cluster_trials),
            },
            "t_quantile": [{"p": p, "df": df, "q": float(stats.t.ppf(p, df))} for p, df in t_quantile_cases],
            "geometric_mean_interval": [
                {"ratios": r, "mean_low_high": geometric_mean_interval(r)} for r in geometric_cases
            ],
        },
        indent=1,
    )
)
