import fc from "fast-check";
import {
  HEURISTIC_JUDGE_VERSION,
  type HeuristicJudgeVersion,
  judgeHeuristically,
} from "../../../src/judge/heuristic-judge";
import {
  EDIT_KINDS,
  type EditKind,
  editOf,
  keepsFactOf,
  type Passage,
  poolsOf,
  type SentenceEdit,
  sharedPassages,
} from "../../support/sentence-edits";
import { describeWithSharedData } from "../../support/shared-data";

/**
 * The default judge on one-slot edits of every shared dataset's texts that fast-check draws: any window of 5 to 100
 * words, any occurrence of the word edited (also one that recurs), two words that trade places, a word of the passage
 * moved into another's place. Changed-fact kinds must be INEXACT, same-fact kinds EXACT or NEAR_EXACT, on at least
 * 90% of each kind's edits; where a kind falls short, the failing edit fast-check shrinks to is printed. Each run
 * draws afresh (the seed is printed on failure): the margin above 90% is wide (docs/JUDGING.md has the shares),
 * so a run falls short by chance far less than once in ten thousand.
 *
 * `MEMICL_EDIT_TABLE=1 npx jest test/unit/judge/sentence-edits.test.ts` prints each kind's share (docs/JUDGING.md);
 * `MEMICL_EDIT_JUDGE=heuristic-7` measures an earlier version (it fails where that one falls short), and
 * `MEMICL_EDIT_SEED=1` draws the same edits each run.
 */
const EDITS_PER_KIND = 150;
const VERSION = (process.env.MEMICL_EDIT_JUDGE ?? HEURISTIC_JUDGE_VERSION) as HeuristicJudgeVersion;

const right = (edit: SentenceEdit) => {
  const { verdict } = judgeHeuristically(edit.reference, edit.candidate, undefined, [], {
    version: VERSION,
    context: { firstPiece: edit.firstPiece, nli: edit.firstPiece !== "" },
  });
  return keepsFactOf(edit.kind) ? verdict !== "INEXACT" : verdict === "INEXACT";
};

describeWithSharedData(`${VERSION} on sentence edits fast-check draws`, () => {
  let byDataset: Passage[][];
  let pools: ReturnType<typeof poolsOf>;
  const table: string[] = [];

  beforeAll(() => {
    const passages = sharedPassages();
    const datasets = [...new Set(passages.map((passage) => passage.dataset))].sort();
    expect(datasets).toEqual(["dbpedia", "rte", "trec", "wnli"]);
    byDataset = datasets.map((dataset) => passages.filter((passage) => passage.dataset === dataset));
    pools = poolsOf(passages);
  });

  afterAll(() => {
    if (process.env.MEMICL_EDIT_TABLE)
      console.log(`| kind | right | of |\n|---|---|---|\n${table.join("\n")}`);
  });

  /** Edits of one kind: a dataset drawn first (each as likely), then a passage of it, a window and the slot. */
  const editsOf = (kind: EditKind) =>
    fc
      .record({
        dataset: fc.nat(),
        passage: fc.nat(),
        start: fc.nat(),
        length: fc.nat(),
        slot: fc.nat(),
        other: fc.nat(),
      })
      .map((draws) => {
        const passages = byDataset[draws.dataset % byDataset.length];
        return editOf(kind, passages[draws.passage % passages.length], draws, pools);
      })
      .filter((edit): edit is SentenceEdit => edit !== null);

  it("says why: a near-exact verdict shows no changed fact, an inexact one on an edit names the fact or is unsure", () => {
    const seed = Date.now() ^ (Math.random() * 2 ** 31);
    fc.assert(
      fc.property(fc.constantFrom(...EDIT_KINDS).chain(editsOf), (edit) => {
        const { verdict, scores, unsure } = judgeHeuristically(
          edit.reference,
          edit.candidate,
          undefined,
          [],
          { context: { firstPiece: edit.firstPiece, nli: edit.firstPiece !== "" } },
        );
        const facts = (scores.spans?.classedSpans ?? []).filter((span) => span.reading === "fact");
        if (verdict === "NEAR_EXACT") return facts.length === 0;
        // An inexact verdict decided past a span the judge cannot class says so (unsure: the report's bounds
        // count it) instead of naming a fact.
        if (verdict === "INEXACT")
          return unsure || (facts.length > 0 && facts.every((span) => span.kind !== null));
        return true;
      }),
      {
        seed,
        numRuns: 500,
        // Found by a run of this property: two spellings of one name swapped, which no reading can class.
        examples: [
          [
            {
              kind: "swap-names",
              dataset: "dbpedia",
              firstPiece: "",
              reference: "Friedrich August Bouterwek (or Buterweck)",
              candidate: "Friedrich August Buterweck (or Bouterwek)",
            } as SentenceEdit,
          ],
        ],
      },
    );
  });

  it.each(EDIT_KINDS)("%s: right on at least 90% of edits", (kind) => {
    const seed = process.env.MEMICL_EDIT_SEED
      ? Number(process.env.MEMICL_EDIT_SEED)
      : Date.now() ^ (Math.random() * 2 ** 31);
    const edits = fc.sample(editsOf(kind), { numRuns: EDITS_PER_KIND, seed });
    const share = edits.filter(right).length / edits.length;
    table.push(`| ${kind} | ${(share * 100).toFixed(1)}% | ${edits.length} |`);
    let failing: unknown = null;
    if (share < 0.9) {
      // The smallest edit of this kind the judge gets wrong, as fast-check shrinks it.
      const result = fc.check(fc.property(editsOf(kind), right), { seed, numRuns: 1000 });
      failing = result.counterexample?.[0] ?? null;
    }
    expect({ kind, seed, share: share >= 0.9 ? "at least 90%" : share, failing }).toEqual({
      kind,
      seed,
      share: "at least 90%",
      failing: null,
    });
  });
});
