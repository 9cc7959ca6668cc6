"""Reference values for the logprob scores (src/logprob/scores.ts) and the membership statistics
(src/statistics/membership.ts), computed independently with numpy, scipy and zlib.

Regenerate with: python3 test/reference/logprob.py > test/reference/logprob.json
(test/unit/methods/logprob.test.ts compares against this file).
"""

import json
import zlib

import numpy as np
import scipy
from scipy import stats


def scores(text, logprobs, means, deviations, ref_logprobs, share=0.2):
    lp = np.array(logprobs, dtype=float)
    ll = lp.mean()
    k = max(1, int(len(lp) * share))
    z = (lp - np.array(means)) / np.array(deviations)
    return {
        "loss": ll,
        "zlib": ll / len(zlib.compress(text.encode("utf-8"))),
        "minK": np.sort(lp)[:k].mean(),
        "minKPlusPlus": np.sort(z)[:k].mean(),
        "reference": ll - np.mean(ref_logprobs),
    }


def moments(alternatives):
    a = np.array(alternatives, dtype=float)
    p = np.exp(a - a.max())
    p /= p.sum()
    mean = (p * a).sum()
    return {"mean": mean, "deviation": float(np.sqrt((p * (a - mean) ** 2).sum()))}


def auc(members, non_members):
    # The probabilistic definition, pair by pair (independent of the rank formula the code uses).
    total = 0.0
    for m in members:
        for n in non_members:
            total += 1.0 if m > n else 0.5 if m == n else 0.0
    return total / (len(members) * len(non_members))


def hanley_mcneil(a, n1, n2):
    q1 = a / (2 - a)
    q2 = 2 * a * a / (1 + a)
    se = np.sqrt((a * (1 - a) + (n1 - 1) * (q1 - a * a) + (n2 - 1) * (q2 - a * a)) / (n1 * n2))
    z = stats.norm.ppf(0.975)
    if se == 0:
        # AUC 0 or 1: the Wilson score interval over the smaller group's size (scipy's own).
        count = min(n1, n2)
        ci = stats.binomtest(int(round(a * count)), count).proportion_ci(method="wilson")
        return [float(ci.low), float(ci.high)]
    return [max(0.0, a - z * se), min(1.0, a + z * se)]


def tpr_at_fpr(members, non_members, fpr):
    # Every threshold that keeps the false-positive rate at or under fpr; the best true-positive rate among them.
    best = 0.0
    for t in sorted(set(non_members)) + [float("inf")]:
        flagged_non = sum(1 for s in non_members if s > t) / len(non_members)
        if flagged_non <= fpr:
            best = max(best, sum(1 for s in members if s > t) / len(members))
    if fpr * len(non_members) >= len(non_members):
        best = 1.0
    return best


rng = np.random.default_rng(7)
cases = []
for n1, n2, shift, ties in [(30, 30, 1.0, False), (40, 25, 0.3, False), (12, 15, 0.0, True), (50, 50, 2.5, False)]:
    members = rng.normal(shift, 1.0, n1)
    non_members = rng.normal(0.0, 1.0, n2)
    if ties:
        members = np.round(members, 1)
        non_members = np.round(non_members, 1)
    members = [float(v) for v in members]
    non_members = [float(v) for v in non_members]
    a = auc(members, non_members)
    mw = stats.mannwhitneyu(members, non_members, alternative="greater", method="asymptotic", use_continuity=True)
    cases.append(
        {
            "members": members,
            "nonMembers": non_members,
            "auc": a,
            "interval": hanley_mcneil(a, n1, n2),
            "tpr01": tpr_at_fpr(members, non_members, 0.01),
            "tpr05": tpr_at_fpr(members, non_members, 0.05),
            "u": float(mw.statistic),
            "p": float(mw.pvalue),
        }
    )

# Perfect separation (AUC 1): its own generator, so the cases above keep their draws.
separated = np.random.default_rng(11)
members = [float(v) for v in separated.normal(10.0, 1.0, 20)]
non_members = [float(v) for v in separated.normal(0.0, 1.0, 15)]
a = auc(members, non_members)
mw = stats.mannwhitneyu(members, non_members, alternative="greater", method="asymptotic", use_continuity=True)
cases.append(
    {
        "members": members,
        "nonMembers": non_members,
        "auc": a,
        "interval": hanley_mcneil(a, 20, 15),
        "tpr01": tpr_at_fpr(members, non_members, 0.01),
        "tpr05": tpr_at_fpr(members, non_members, 0.05),
        "u": float(mw.statistic),
        "p": float(mw.pvalue),
    }
)

texts = []
for text, n in [("The cat sat on the mat and looked at the dog.", 12), ("Weapons of Mass Destruction Found in Iraq.", 9)]:
    logprobs = [float(v) for v in -rng.gamma(1.5, 1.0, n)]
    alternatives = [[float(v) for v in -rng.gamma(1.0, 2.0, 5)] + [lp] for lp in logprobs]
    m = [moments(a) for a in alternatives]
    ref = [float(v) for v in -rng.gamma(2.0, 1.0, n)]
    texts.append(
        {
            "text": text,
            "logprobs": logprobs,
            "alternatives": alternatives,
            "moments": m,
            "reference": ref,
            "scores": scores(text, logprobs, [x["mean"] for x in m], [x["deviation"] for x in m], ref),
        }
    )

print(json.dumps({"generator": f"scipy {scipy.__version__}, numpy {np.__version__}", "membership": cases, "texts": texts}, indent=1))
