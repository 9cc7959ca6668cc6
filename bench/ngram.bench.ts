import fs from "node:fs";
import path from "node:path";
import { RandomStream } from "../src/common/random";
import { NGRAM_DEFAULTS, ngramInstance, ngramWords } from "../src/sampling/ngram";
import { SHARED } from "./grid.bench";
import { geometricMeanInterval } from "./interleave";

/**
 * N-gram coverage of a study-sized sample and its control (400 instances, 20 sampled continuations each, n = 3):
 * `ngramInstance` against the definition written plainly (every window of both texts joined into a string, as
 * memicl computed it before), alternated round by round in one process, on RTE's passages: each reference is the
 * second half of a passage, each sample either a run of its reference with other words around it or other passages'
 * words (so words recur across texts). Prints each round's times and the paired ratio.
 */
export async function benchNgram(args: string[]) {
  const rounds = Number(args[args.indexOf("--rounds") + 1] || 7);
  const passages = fs
    .readFileSync(path.join(SHARED, "rte", "train.tsv"), "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.split("\t")[1])
    .filter((text): text is string => Boolean(text) && text.split(/\s+/).length >= 16)
    .slice(0, 400);
  const random = RandomStream.derive(1, "ngram-bench");
  const pick = (words: readonly string[], length: number) => {
    const from = random.integer(0, Math.max(0, words.length - length));
    return words.slice(from, from + length);
  };
  const instances = passages.map((passage) => {
    const words = passage.split(/\s+/);
    const reference = words.slice(Math.floor(words.length / 2)).join(" ");
    const samples = Array.from({ length: NGRAM_DEFAULTS.samples }, () => {
      const other = passages[random.integer(0, passages.length - 1)].split(/\s+/);
      const body = random.integer(0, 9) < 3 ? pick(reference.split(" "), random.integer(3, 12)) : [];
      return [...pick(other, random.integer(4, 10)), ...body, ...pick(other, random.integer(4, 10))].join(
        " ",
      );
    });
    return { reference, samples };
  });
  const n = NGRAM_DEFAULTS.n;
  const indexed = () =>
    instances.map(({ reference, samples }) => ngramInstance(reference, samples, n)?.maxCoverage);
  const plain = () =>
    instances.map(({ reference, samples }) => {
      const words = ngramWords(reference);
      return Math.max(...samples.map((sample) => plainCoverage(words, ngramWords(sample), n)));
    });
  const a = indexed();
  const b = plain();
  if (a.some((value, i) => value !== b[i])) throw new Error("the two computations disagree");
  const time = (run: () => unknown) => {
    const start = process.hrtime.bigint();
    run();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  for (let i = 0; i < 2; i++) {
    time(indexed); // warm both
    time(plain);
  }
  const rows: string[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const [first, second] = round % 2 === 0 ? [indexed, plain] : [plain, indexed];
    const firstMs = time(first);
    const secondMs = time(second);
    const [indexedMs, plainMs] = round % 2 === 0 ? [firstMs, secondMs] : [secondMs, firstMs];
    ratios.push(plainMs / indexedMs);
    rows.push(`| ${round + 1} | ${indexedMs.toFixed(1)} | ${plainMs.toFixed(1)} |`);
  }
  const ratio = geometricMeanInterval(ratios);
  process.stdout.write(
    [
      `N-gram coverage, ${instances.length} instances x ${NGRAM_DEFAULTS.samples} samples, n = ${n} (ms per pass)`,
      "",
      "| round | indexed | plain |",
      "| --- | --- | --- |",
      ...rows,
      "",
      `plain / indexed: ${ratio.mean.toFixed(2)}x (95% interval ${ratio.low.toFixed(2)}-${ratio.high.toFixed(2)})`,
      "",
    ].join("\n"),
  );
}

/** The definition as memicl computed it before: every n-word window of both texts joined into a string. */
function plainCoverage(reference: readonly string[], sample: readonly string[], n: number): number {
  if (reference.length < n || sample.length < n) return 0;
  const grams = new Set<string>();
  for (let i = 0; i + n <= sample.length; i++) grams.add(sample.slice(i, i + n).join(" "));
  const covered = new Array<boolean>(reference.length).fill(false);
  for (let i = 0; i + n <= reference.length; i++)
    if (grams.has(reference.slice(i, i + n).join(" "))) for (let j = i; j < i + n; j++) covered[j] = true;
  return covered.filter(Boolean).length / reference.length;
}
