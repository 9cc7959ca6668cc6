import fc from "fast-check";
import { judgeHeuristically } from "../../../src/judge/heuristic-judge";
import {
  copiesCouldMatch,
  copyAnswers,
  demonstrationFloorShots,
  indexForMatching,
} from "../../../src/judge/no-memory";
import { EDIT_KINDS, editOf, type Passage, poolsOf, sharedPassages } from "../../support/sentence-edits";
import { describeWithSharedData } from "../../support/shared-data";

/**
 * The no-memory floor skips an instance's copied answers where `copiesCouldMatch` says none could be near-exact:
 * the bound must never skip an answer the judge would call exact or near-exact. Instances are cut from the shared
 * texts at any point, also from a text and its near-copy (the reference's words moved into the input).
 */
describeWithSharedData("the no-memory floor's bound on copied answers", () => {
  let passages: Passage[];
  beforeAll(() => {
    passages = sharedPassages().filter((passage) => passage.text.split(/\s+/).length >= 8);
  });

  it("never rules out a copy the judge would match", () => {
    let ruledOut = 0;
    fc.assert(
      fc.property(
        fc.nat(),
        fc.double({ min: 0.3, max: 0.9, noNaN: true }),
        fc.boolean(),
        (pick, share, echo) => {
          const words = passages[pick % passages.length].text.split(/\s+/);
          const cut = Math.max(1, Math.min(words.length - 1, Math.round(words.length * share)));
          const reference = words.slice(cut).join(" ");
          // Half the time the input holds the reference's words too (a text that repeats itself).
          const input = echo
            ? `${words.slice(0, cut).join(" ")}, ${reference.toLowerCase()}`
            : words.slice(0, cut).join(" ");
          if (copiesCouldMatch({ input, reference })) return true;
          ruledOut += 1;
          return copyAnswers(input).every(
            (answer) =>
              judgeHeuristically(reference, answer, undefined, [], { context: { firstPiece: input } })
                .verdict === "INEXACT",
          );
        },
      ),
      { numRuns: 400 },
    );
    // The bound does rule answers out (it is not "always true").
    expect(ruledOut).toBeGreaterThan(40);
  });

  it("never rules out a copy the judge would match in long texts (passages run together, words recurring)", () => {
    let ruledOut = 0;
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { minLength: 3, maxLength: 8 }),
        fc.double({ min: 0.5, max: 0.85, noNaN: true }),
        fc.nat(),
        (picks, share, echoAt) => {
          const words = picks.flatMap((pick) => passages[pick % passages.length].text.split(/\s+/));
          const cut = Math.max(1, Math.min(words.length - 1, Math.round(words.length * share)));
          const reference = words.slice(cut).join(" ");
          // Some of the reference's words moved into the input: a run of it, at any point.
          const run = words.slice(cut, cut + 5 + (echoAt % 20));
          const head = words.slice(0, cut);
          const at = echoAt % head.length;
          const input = [...head.slice(0, at), ...run, ...head.slice(at)].join(" ");
          if (copiesCouldMatch({ input, reference })) return true;
          ruledOut += 1;
          return copyAnswers(input).every(
            (answer) =>
              judgeHeuristically(reference, answer, undefined, [], { context: { firstPiece: input } })
                .verdict === "INEXACT",
          );
        },
      ),
      {
        numRuns: Number(process.env.MEMICL_FLOOR_RUNS ?? 40),
        seed: Number(process.env.MEMICL_FLOOR_SEED ?? 11),
      },
    );
    expect(ruledOut).toBeGreaterThan(5);
  }, 120_000);

  it("never changes a demonstration floor: every continuation indexed gives the floor judging each one gives", () => {
    const pools = poolsOf(passages);
    let found = 0;
    let spared = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            passage: fc.nat(),
            start: fc.nat(),
            length: fc.nat(),
            slot: fc.nat(),
            other: fc.nat(),
            kind: fc.nat(),
            // An edit of the instance's reference (any kind, at any place), the reference itself, or another text.
            as: fc.constantFrom("edit", "edit", "same", "other"),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        fc.nat(),
        fc.double({ min: 0.3, max: 0.9, noNaN: true }),
        (draws, pick, share) => {
          const passage = passages[pick % passages.length];
          const words = passage.text.split(/\s+/);
          const cut = Math.max(1, Math.min(words.length - 1, Math.round(words.length * share)));
          const instance = { input: words.slice(0, cut).join(" "), reference: words.slice(cut).join(" ") };
          const referenceWords = words.length - cut;
          const demonstrations = draws.map((draw, rank) => {
            const other = passages[draw.passage % passages.length].text;
            // The whole reference edited (a window of all its words), at the slot the draws pick.
            const edit =
              draw.as === "edit"
                ? editOf(
                    EDIT_KINDS[draw.kind % EDIT_KINDS.length],
                    { dataset: passage.dataset, before: instance.input, text: instance.reference },
                    { ...draw, start: 0, length: Math.max(0, referenceWords - 5) },
                    pools,
                  )
                : null;
            const continuation =
              draw.as === "same"
                ? instance.reference
                : draw.as === "edit"
                  ? (edit?.candidate ?? other)
                  : other;
            return { rank, continuation };
          });
          const indexes = demonstrations.map((d) => indexForMatching(d.continuation));
          const judged = demonstrationFloorShots(instance, demonstrations);
          const bounded = demonstrationFloorShots(instance, demonstrations, undefined, undefined, indexes);
          if (judged !== null) found += 1;
          if (judged === null || judged > 1) spared += 1;
          return bounded === judged;
        },
      ),
      { numRuns: 300, seed: Number(process.env.MEMICL_FLOOR_SEED ?? 11) },
    );
    // Both kinds of sample were drawn: floors found, and continuations the bound could spare.
    expect(found).toBeGreaterThan(30);
    expect(spared).toBeGreaterThan(30);
  });
});
