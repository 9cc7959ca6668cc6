"""Reference values for the verdict statistics (src/statistics/tests.ts), computed independently with scipy.

Regenerate with: python3 test/reference/verdicts.py > test/reference/verdicts.json
(test/unit/report/verdict.test.ts compares against this file).
"""

import itertools
import json
import math

from scipy import stats


def binomial_greater(x, n, p0):
    return stats.binomtest(x, n, p0, alternative="greater").pvalue


def critical_count(n, p0, alpha):
    for c in range(n + 1):
        if stats.binom.sf(c - 1, n, p0) <= alpha:
            return c
    return None


def minimum_detectable_rate(n, p0, alpha, power):
    c = critical_count(n, p0, alpha)
    if c is None:
        return None
    # scipy's root finder on P(X >= c | n, p) = power.
    from scipy.optimize import brentq

    return brentq(lambda p: stats.binom.sf(c - 1, n, p) - power, p0, 1 - 1e-12)


def minimum_detectable_rate_with_control(n, m, p0, control_rate, alpha, power):
    # Brute force: P(both tests reject) summed over every (x, y), scipy's binomial test and Fisher's exact test.
    from scipy.optimize import brentq

    rejects = [
        [
            x > 0
            and stats.binomtest(x, n, p0, alternative="greater").pvalue <= alpha
            and x + y > 0
            and (n - x) + (m - y) > 0
            and stats.fisher_exact([[x, n - x], [y, m - y]], alternative="greater").pvalue <= alpha
            for x in range(n + 1)
        ]
        for y in range(m + 1)
    ]

    def power_at(rate):
        return sum(
            stats.binom.pmf(y, m, control_rate) * stats.binom.pmf(x, n, rate)
            for y in range(m + 1)
            for x in range(n + 1)
            if rejects[y][x]
        )

    if power_at(1.0) < power:
        return None
    return brentq(lambda r: power_at(r) - power, p0, 1.0)


def rule_false_positive_rate(population, exact, near, draws):
    # Brute force over the multivariate hypergeometric: P(>= 1 exact or >= 2 near-exact among draws).
    rest = population - exact - near
    take = min(draws, population)
    quiet = 0.0
    for e in range(0, 1):
        for m in range(0, 2):
            if take - e - m < 0:
                continue
            quiet += math.comb(exact, e) * math.comb(near, m) * math.comb(rest, take - e - m)
    return 1 - quiet / math.comb(population, take)


binomial_cases = [(0, 50, 0.02), (1, 200, 0.02), (3, 30, 0.02), (7, 90, 0.02), (12, 90, 0.02), (40, 200, 0.02), (5, 10, 0.5)]
fisher_cases = [[[8, 2], [1, 5]], [[3, 97], [1, 99]], [[0, 30], [5, 25]], [[20, 70], [4, 86]]]
power_cases = [(90, 0.02, 0.01), (20, 0.02, 0.025), (200, 0.02, 0.01), (5, 0.02, 0.05)]
control_cases = [(89, 30, 0.02, 0.02, 0.05 / 4), (200, 100, 0.02, 0.02, 0.05 / 3), (60, 10, 0.02, 0.05, 0.05), (40, 3, 0.02, 0.02, 0.05)]
rule_cases = [(200, 0, 0, 10), (200, 5, 0, 10), (90, 0, 6, 10), (30, 2, 3, 10), (8, 1, 1, 10), (100, 10, 20, 10)]

print(
    json.dumps(
        {
            "generator": "scipy " + __import__("scipy").__version__,
            "binomial_greater": [{"x": x, "n": n, "p0": p0, "p": binomial_greater(x, n, p0)} for x, n, p0 in binomial_cases],
            "fisher_greater": [
                {"table": t, "p": stats.fisher_exact(t, alternative="greater").pvalue} for t in fisher_cases
            ],
            "minimum_detectable_rate": [
                {
                    "n": n,
                    "p0": p0,
                    "alpha": a,
                    "critical": critical_count(n, p0, a),
                    "rate": minimum_detectable_rate(n, p0, a, 0.8),
                }
                for n, p0, a in power_cases
            ],
            "minimum_detectable_rate_with_control": [
                {"n": n, "m": m, "p0": p0, "control_rate": c, "alpha": a, "rate": minimum_detectable_rate_with_control(n, m, p0, c, a, 0.8)}
                for n, m, p0, c, a in control_cases
            ],
            "rule_false_positive_rate": [
                {"population": p, "exact": e, "near": m, "draws": d, "rate": rule_false_positive_rate(p, e, m, d)}
                for p, e, m, d in rule_cases
            ],
        },
        indent=1,
    )
)
