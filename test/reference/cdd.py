"""Reference values for CDD's peakedness (src/sampling/cdd.ts), computed independently: the token edit distance
by the textbook dynamic programme over lists, the peak as Dong et al. define it (the share of samples within
alpha x l of the greedy output, l the longest output's length).

Regenerate with: python3 test/reference/cdd.py > test/reference/cdd.json
(test/unit/methods/cdd.test.ts compares against this file).
"""

import json

import numpy as np


def edit_distance(a, b):
    d = np.zeros((len(a) + 1, len(b) + 1), dtype=int)
    d[:, 0] = np.arange(len(a) + 1)
    d[0, :] = np.arange(len(b) + 1)
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + (a[i - 1] != b[j - 1]))
    return int(d[len(a), len(b)])


def case(rng, vocabulary, greedy_length, samples, noise, alpha, xi):
    greedy = [int(t) for t in rng.integers(0, vocabulary, greedy_length)]
    drawn = []
    for _ in range(samples):
        sample = [t if rng.random() > noise else int(rng.integers(0, vocabulary)) for t in greedy]
        if rng.random() < 0.3:
            sample = sample[: int(rng.integers(0, len(sample) + 1))]
        if rng.random() < 0.3:
            sample = sample + [int(t) for t in rng.integers(0, vocabulary, int(rng.integers(1, 6)))]
        drawn.append(sample)
    distances = [edit_distance(greedy, s) for s in drawn]
    longest = max([len(greedy)] + [len(s) for s in drawn])
    peak = float(np.mean([d <= alpha * longest for d in distances]))
    return {
        "greedy": greedy,
        "samples": drawn,
        "alpha": alpha,
        "xi": xi,
        "distances": distances,
        "longest": longest,
        "peakedness": peak,
        "leaked": bool(peak > xi),
    }


rng = np.random.default_rng(20261206)
cases = [
    case(rng, vocabulary, length, samples, noise, alpha, xi)
    for vocabulary, length, samples, noise, alpha, xi in [
        (5, 12, 8, 0.1, 0.05, 0.01),
        (50000, 30, 20, 0.02, 0.05, 0.01),
        (3, 20, 10, 0.3, 0.2, 0.2),
        (1000, 0, 5, 0.5, 0.05, 0.01),
        (200000, 40, 12, 0.0, 0.0, 0.2),
        (8, 25, 15, 0.05, 0.1, 0.5),
    ]
]
print(json.dumps({"cases": cases}))
