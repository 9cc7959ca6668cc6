import fs from "node:fs";
import { parse } from "csv-parse/sync";
import { agreement } from "../../../src/judge/agreement";
import { readGoldCsv } from "../../../src/judge/gold-file";
import { judgeHeuristically } from "../../../src/judge/heuristic-judge";
import { formCanonical, oneEdit } from "../../../src/judge/meaning";
import { cutRows, keepsFact, ONE_SLOT_KINDS, oneSlotEdits } from "../../../src/judge/one-slot-edits";
import { describeWithSharedData, sharedFile } from "../../support/shared-data";

const judge = (reference: string, candidate: string, version?: "heuristic-6" | "heuristic-7") =>
  judgeHeuristically(reference, candidate, undefined, [], { version }).verdict;

describe("heuristic-7: meaning over form", () => {
  it.each([
    // a content word replaced by another of its kind changes the fact
    [
      "Doctors say breast cancer killed many women in the region.",
      "Doctors say breast diabetes killed many women in the region.",
      "INEXACT",
    ],
    [
      "The doctors examined the patient before the operation began.",
      "The lawyers examined the patient before the operation began.",
      "INEXACT",
    ],
    [
      "Police said the gunman killed three people at the school.",
      "Police said the gunman injured three people at the school.",
      "INEXACT",
    ],
    [
      "The police arrested two protesters outside the embassy on Monday.",
      "The police released two protesters outside the embassy on Monday.",
      "INEXACT",
    ],
    // the same fact in another form keeps the match
    [
      "The earthquake left 250,000 people homeless in the province.",
      "The earthquake left 250000 people homeless in the province.",
      "NEAR_EXACT",
    ],
    ["Five soldiers were wounded.", "5 soldiers were wounded.", "NEAR_EXACT"],
    ["He did not attend the meeting.", "He didn't attend the meeting.", "NEAR_EXACT"],
    ["Begum was not able to feed herself.", "Begum wasn't able to feed herself.", "NEAR_EXACT"],
    ["Margaret Thatcher resigned in 1990.", "Magraret Thatcher resigned in 1990.", "NEAR_EXACT"],
    ["It is a well-known fact.", "It is a wellknown fact.", "NEAR_EXACT"],
    // forms of one lemma and synonyms are not a changed fact; digits in a year are
    [
      "The company bought a small firm in Ohio last year.",
      "The company buys a small firm in Ohio last year.",
      "NEAR_EXACT",
    ],
    ["Zorrilla started the revolution of 1868.", "Zorrilla started the revolution of 1886.", "INEXACT"],
    // two words, both known ("casual" / "causal"), are not a typo
    ["The link between them was causal.", "The link between them was casual.", "INEXACT"],
  ])("%p against %p: %s", (reference, candidate, verdict) => {
    expect(judge(reference, candidate)).toBe(verdict);
  });

  it("keeps earlier versions as they were", () => {
    expect(
      judge(
        "Doctors say breast cancer killed many women in the region.",
        "Doctors say breast diabetes killed many women in the region.",
        "heuristic-6",
      ),
    ).toBe("NEAR_EXACT");
    expect(
      judge(
        "The earthquake left 250,000 people homeless in the province.",
        "The earthquake left 250000 people homeless in the province.",
        "heuristic-6",
      ),
    ).toBe("INEXACT");
  });

  it("reads exactness on the texts as written", () => {
    expect(judge("He did not go.", "He did not go")).toBe("EXACT");
    expect(judge("He did not go.", "He didn't go.")).toBe("NEAR_EXACT");
  });

  it("writes numbers without separators and contractions out", () => {
    expect(formCanonical("About 1,234,567 people, not 1, 2 or 3.")).toBe(
      "About 1234567 people, not 1, 2 or 3.",
    );
    expect(formCanonical("They can't, won't and didn't; it's theirs.")).toBe(
      "They can not, will not and did not; it is theirs.",
    );
  });

  it("tells one transposition from other edits", () => {
    expect(oneEdit("margaret", "magraret")).toBe("transposition");
    expect(oneEdit("margaret", "margarett")).toBe("edit");
    expect(oneEdit("margaret", "margerat")).toBeNull();
    expect(oneEdit("same", "same")).toBeNull();
  });
});

describe("one-slot edits", () => {
  const rows = [
    {
      firstPiece: "x",
      reference: "The doctors said 12,500 patients did not recover after the operation in Boston.",
    },
    { firstPiece: "y", reference: "The lawyers argued that five judges rejected the appeal in Chicago." },
  ];

  it("edits one slot of each kind a row has, the same way for the same seed", () => {
    const edits = oneSlotEdits(rows, { perKind: 5, seed: 3 });
    expect(oneSlotEdits(rows, { perKind: 5, seed: 3 })).toEqual(edits);
    const kinds = new Set(edits.map((edit) => edit.kind));
    for (const kind of ["noun", "thousands", "number-word", "contraction", "transposition"])
      expect(kinds).toContain(kind);
    for (const edit of edits) expect(edit.candidate).not.toBe(edit.reference);
    expect(edits.find((edit) => edit.kind === "thousands")?.candidate).toContain("12500");
    expect(edits.find((edit) => edit.kind === "contraction")?.candidate).toContain("didn't");
  });

  it("cuts single texts as the study does", () => {
    expect(cutRows(["one two three four five six seven eight nine ten"])).toEqual([
      { firstPiece: "one two three four five six seven", reference: "eight nine ten" },
    ]);
  });
});

describeWithSharedData("heuristic-7 where it was not tuned (docs/JUDGING.md)", () => {
  const read = (file: string, options: object): unknown => parse(fs.readFileSync(file, "utf8"), options);
  const sets = () => [
    {
      name: "rte",
      nli: true,
      rows: (
        read(sharedFile("datasets", "rte", "train.tsv"), {
          columns: true,
          delimiter: "\t",
          quote: false,
          relax_column_count: true,
        }) as { sentence1: string; sentence2: string }[]
      ).map((row) => ({ firstPiece: row.sentence1, reference: row.sentence2 })),
    },
    {
      name: "dbpedia",
      nli: false,
      rows: cutRows(
        (read(sharedFile("datasets", "dbpedia", "sample.csv"), {}) as string[][]).map((row) => row[1]),
      ),
    },
  ];

  it("is right on at least 90% of each kind of one-slot edit of RTE and DBpedia, on three seeds", () => {
    for (const seed of [1, 2, 3])
      for (const { name, nli, rows } of sets()) {
        const edits = oneSlotEdits(rows, { perKind: 200, seed });
        for (const kind of ONE_SLOT_KINDS) {
          const ofKind = edits.filter((edit) => edit.kind === kind);
          // Every kind is built from at least 40 rows of each dataset (RTE has 41 with thousands).
          expect({ name, kind, n: ofKind.length >= 40 }).toEqual({ name, kind, n: true });
          const right = ofKind.filter((edit) => {
            const { verdict } = judgeHeuristically(edit.reference, edit.candidate, undefined, [], {
              context: { firstPiece: edit.firstPiece, nli },
            });
            return keepsFact(kind) ? verdict !== "INEXACT" : verdict === "INEXACT";
          }).length;
          expect({ seed, name, kind, share: right / ofKind.length >= 0.9 }).toEqual({
            seed,
            name,
            kind,
            share: true,
          });
        }
      }
  });

  it("agrees with the gold file's humans no worse than heuristic-6, in each later version (binary kappa >= 0.855)", () => {
    const gold = readGoldCsv(
      fs.readFileSync(sharedFile("judge-gold", "time-travel-human-labels.csv"), "utf8"),
    );
    const kappa = (version: "heuristic-6" | "heuristic-7" | "heuristic-8") =>
      agreement(
        gold.map((pair) => [
          pair.human,
          judgeHeuristically(pair.reference, pair.candidate, undefined, [], {
            version,
            context: { firstPiece: pair.firstPiece, nli: pair.nli },
          }).verdict,
        ]),
      ).kappaBinary;
    expect(kappa("heuristic-6")).toBeCloseTo(0.855, 3);
    expect(kappa("heuristic-7")).toBeGreaterThanOrEqual(0.855);
    expect(kappa("heuristic-8")).toBeGreaterThanOrEqual(0.855);
  });
});
