"""Reference values for n-gram coverage (src/sampling/ngram.ts), computed independently: every reference position
checked against every window of n to n_max words that contains it, with plain Python lists (no sets of joined
strings).

Regenerate with: python3 test/reference/ngram.py > test/reference/ngram.json
(test/unit/methods/ngram.test.ts compares against this file).
"""

import json
import random
import re


def words(text):
    return re.findall(r"[^\W_]+", text.lower())


def occurs(needle, haystack):
    return any(haystack[i : i + len(needle)] == needle for i in range(len(haystack) - len(needle) + 1))


def coverage(reference, sample, n):
    if len(reference) < n or len(sample) < n:
        return 0.0
    covered = 0
    for position in range(len(reference)):
        hit = False
        for start in range(max(0, position - n + 1), position + 1):
            window = reference[start : start + n]
            if len(window) == n and occurs(window, sample):
                hit = True
                break
        covered += hit
    return covered / len(reference)


rng = random.Random(20261206)
vocabulary = "the a river old man stone bright quietly ran over under seven green house market letter of sold".split()
cases = []
for n, length, samples, keep in [(3, 20, 5, 0.9), (3, 12, 4, 0.5), (2, 15, 3, 0.7), (4, 30, 6, 0.8), (3, 2, 2, 1.0), (5, 25, 4, 0.95)]:
    reference = " ".join(rng.choice(vocabulary) for _ in range(length))
    ref_words = words(reference)
    drawn = []
    for _ in range(samples):
        sample = [w if rng.random() < keep else rng.choice(vocabulary) for w in ref_words]
        if rng.random() < 0.5:
            sample = sample[rng.randrange(0, len(sample) + 1) :]
        drawn.append(" ".join(sample).upper() if rng.random() < 0.2 else ", ".join(sample))
    coverages = [coverage(ref_words, words(s), n) for s in drawn]
    cases.append(
        {
            "reference": reference,
            "samples": drawn,
            "n": n,
            "coverages": coverages,
            "max": max(coverages),
            "mean": sum(coverages) / len(coverages),
        }
    )
print(json.dumps({"cases": cases}))
