"""Reference values for CoDeC (src/logprob/codec.ts and src/report/analyses/codec.ts), computed independently with
numpy and scipy: each instance's mean log-probability alone and over the same last tokens in context, the change,
the share that drop, and the one-sided Mann-Whitney U test of the drops against a control's.

Regenerate with: python3 test/reference/codec.py > test/reference/codec.json
(test/unit/methods/codec.test.ts compares against this file).
"""

import json
import random

import numpy as np
from scipy.stats import mannwhitneyu

rng = random.Random(20261206)


def instance():
    n = rng.randint(2, 12)
    alone = [round(rng.uniform(-6, 0), 4) for _ in range(n - 1)]
    context = [round(rng.uniform(-6, 0), 4) for _ in range(rng.randint(1, 8))]
    shift = rng.uniform(-0.8, 0.8)
    own = [round(min(0.0, v + shift + rng.gauss(0, 0.4)), 4) for v in alone]
    # The in-context pass also scores the instance's first token, which the alone pass cannot.
    return {"alone": alone, "inContext": context + [round(rng.uniform(-6, 0), 4)] + own}


def score(case):
    alone = np.array(case["alone"])
    tail = np.array(case["inContext"][-len(alone) :])
    return {"alone": float(alone.mean()), "inContext": float(tail.mean()), "delta": float(tail.mean() - alone.mean())}


cases = []
for _ in range(4):
    own = [instance() for _ in range(rng.randint(10, 16))]
    control = [instance() for _ in range(rng.randint(10, 16))]
    own_scores = [score(c) for c in own]
    control_scores = [score(c) for c in control]
    drops = [-s["delta"] for s in own_scores]
    control_drops = [-s["delta"] for s in control_scores]
    test = mannwhitneyu(drops, control_drops, alternative="greater", method="asymptotic", use_continuity=True)
    cases.append(
        {
            "instances": own,
            "control": control,
            "scores": own_scores,
            "dropShare": float(np.mean([s["delta"] < 0 for s in own_scores])),
            "controlDropShare": float(np.mean([s["delta"] < 0 for s in control_scores])),
            "auc": float(test.statistic / (len(drops) * len(control_drops))),
            "pValue": float(test.pvalue),
        }
    )
print(json.dumps({"cases": cases}, indent=1))
