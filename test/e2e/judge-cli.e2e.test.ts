import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import {
  HEURISTIC_5_THRESHOLDS,
  HeuristicJudgeVersion,
  judgeHeuristically,
} from "../../src/judge/heuristic-judge";
import { runCli } from "../support/cli";
import { createTestDatabase } from "../support/databases";
import { FakeOpenAiServer } from "../support/fake-openai-server";
import { providersFile } from "../support/runs";
import { describeWithSharedData, sharedFile } from "../support/shared-data";

describe("memicl judge-agreement", () => {
  it("scores the heuristic judge on a gold CSV and ends with the summary line", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-gold-"));
    const file = path.join(dir, "gold.csv");
    fs.writeFileSync(
      file,
      [
        "reference,candidate,human",
        "The cat sat on the mat.,the cat sat on the mat,exact",
        "Prices rose sharply after the announcement.,The museum is closed on Mondays.,inexact",
        '"to reveal the amount it paid for technology to unlock an iPhone","to reveal how much it paid for technology to unlock an iPhone",near_exact',
        "Heavy rain fell.,Heavy rain fell all night long across the county.,near_exact",
      ].join("\n"),
    );
    const result = await runCli(["judge-agreement", file], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/n=4 excluded=0 accuracy=0\.750/);
    expect(result.stdout.trim().split("\n").at(-1)).toBe("kappa_binary=0.500 accuracy=0.750");
    expect(result.stdout).toMatch(/^held-out: the heuristic's thresholds were not fitted on this file$/m);
    fs.rmSync(dir, { recursive: true });
  });

  it("scores an LLM judge through a configured provider", async () => {
    const fake = new FakeOpenAiServer();
    const url = await fake.start();
    fake.answer = (request) => {
      const [, reference, candidate] =
        /Reference text: ([^\n]*)\nCandidate text: ([^\n]*)\nAnswer:$/.exec(
          request.messages.at(-1)!.content,
        ) ?? [];
      return reference === candidate ? "exact match" : "inexact match";
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-gold-"));
    const database = await createTestDatabase("embedded");
    const file = path.join(dir, "gold.csv");
    fs.writeFileSync(
      file,
      "reference,candidate,human\nA b c.,A b c.,exact\nA b c.,X y z.,inexact\nA b c d.,A b c e.,near_exact\n",
    );
    const providers = providersFile({ judge: { type: "openai", baseUrl: url } });
    try {
      const result = await runCli(["judge-agreement", file, "--judge", "llm:judge/judge-model"], {
        MEMICL_PROVIDERS_FILE: providers,
        DATABASE_URL: database.url,
      });
      expect(result.stdout.trim().split("\n").at(-1)).toBe("kappa_binary=0.400 accuracy=0.667");
      expect(fake.requests).toHaveLength(3);
    } finally {
      await fake.stop();
      await database.close();
      fs.rmSync(dir, { recursive: true });
    }
  });

  it("scores the method's authors' judge, word for word, reading its answers strictly", async () => {
    const fake = new FakeOpenAiServer();
    const url = await fake.start();
    // Their format: one user message ending in "REFERENCE TEXT:\n...\n\nCANDIDATE TEXT:\n...\n\nANSWER:".
    fake.answer = (request) => {
      const [, reference, candidate] =
        /Example 5:\n\nREFERENCE TEXT:\n([^\n]*)\n\nCANDIDATE TEXT:\n([^\n]*)\n\nANSWER:\n$/.exec(
          request.messages.at(-1)!.content,
        ) ?? [];
      if (reference === "A b c d.") return "Yes"; // not their format: unreadable
      return reference === candidate ? "Yes (exact match)" : "No";
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-gold-"));
    const database = await createTestDatabase("embedded");
    const file = path.join(dir, "gold.csv");
    fs.writeFileSync(
      file,
      "reference,candidate,human\nA b c.,A b c.,exact\nA b c.,X y z.,inexact\nA b c d.,A b c e.,near_exact\n",
    );
    try {
      const result = await runCli(
        ["judge-agreement", file, "--judge", "llm:judge/judge-model", "--judge-version", "time-travel-1"],
        {
          MEMICL_PROVIDERS_FILE: providersFile({ judge: { type: "openai", baseUrl: url } }),
          DATABASE_URL: database.url,
        },
      );
      expect(result.code).toBe(0);
      expect(fake.requests).toHaveLength(3);
      expect(
        fake.requests.every(
          (request) => request.messages.length === 1 && request.messages[0].role === "user",
        ),
      ).toBe(true);
      expect(fake.requests.every((request) => request.temperature === 0 && request.maxTokens === 10)).toBe(
        true,
      );
      expect(result.stdout).toMatch(/unparseable|UNPARSEABLE|unreadable/i);
      const wrong = await runCli(
        ["judge-agreement", file, "--judge", "llm:judge/m", "--judge-version", "gpt-5"],
        {},
      );
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toMatch(/--judge-version: for an LLM judge, one of llm-judge-1, time-travel-1/);
    } finally {
      await fake.stop();
      await database.close();
      fs.rmSync(dir, { recursive: true });
    }
  });

  it("names the row of a label it cannot read", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-gold-"));
    const file = path.join(dir, "gold.csv");
    fs.writeFileSync(file, "reference,candidate,human\na,b,maybe\n");
    const result = await runCli(["judge-agreement", file], {});
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/row 2: human label "maybe"/);
    fs.rmSync(dir, { recursive: true });
  });
});

describeWithSharedData("the judges on the shared gold file", () => {
  it("reports cross-validated figures for the heuristic judge, which docs/JUDGING.md quotes", async () => {
    const result = await runCli(
      ["calibrate-judge", sharedFile("judge-gold", "time-travel-human-labels.csv")],
      {},
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/held out wnli \(40 pairs\)/);
    // heuristic-8, the default (heuristic-7 scores the same here): held out above heuristic-6's 0.822 (docs/JUDGING.md)
    expect(result.stdout.trim().split("\n").at(-1)).toBe("kappa_binary=0.848 accuracy=0.982");
    expect(result.stdout).toMatch(
      /in-sample agreement[^\n]*\nn=280 excluded=0 accuracy=0\.982 kappa=0\.865 kappa_binary=0\.862/,
    );
    const six = await runCli(
      [
        "calibrate-judge",
        sharedFile("judge-gold", "time-travel-human-labels.csv"),
        "--judge-version",
        "heuristic-6",
      ],
      {},
    );
    expect(six.stdout.trim().split("\n").at(-1)).toBe("kappa_binary=0.822 accuracy=0.979");
    const five = await runCli(
      [
        "calibrate-judge",
        sharedFile("judge-gold", "time-travel-human-labels.csv"),
        "--judge-version",
        "heuristic-5",
      ],
      {},
    );
    expect(five.stdout.trim().split("\n").at(-1)).toBe("kappa_binary=0.787 accuracy=0.975");
  });

  it("catches every kind of hard negative at 90% or more, and WNLI's copied pronoun clause (docs/JUDGING.md)", async () => {
    const result = await runCli(
      [
        "hard-negatives",
        sharedFile("datasets", "wnli", "validation.csv"),
        sharedFile("datasets", "rte", "train.tsv"),
      ],
      {},
    );
    expect(result.code).toBe(0);
    const all = result.stdout.slice(result.stdout.indexOf("all files:"));
    const kinds = [...all.matchAll(/^\s+(\w+)\s+caught\s+(\d+) of\s+(\d+)/gm)].map(([, kind, caught, n]) => ({
      kind,
      rate: Number(caught) / Number(n),
    }));
    expect(kinds.map((kind) => kind.kind)).toEqual([
      "sibling",
      "number",
      "entity",
      "antonym",
      "referent",
      "pronoun",
    ]);

    expect(kinds.filter((kind) => kind.rate < 0.9)).toEqual([]);
    const wnli =
      /wnli[^\n]*\n(?:.*\n)*?\s+copy-the-pronoun-clause baseline: judged memorized (\d+) of (\d+)/.exec(
        result.stdout,
      );
    expect(wnli).not.toBeNull();
    expect(Number(wnli![1]) / Number(wnli![2])).toBeLessThanOrEqual(0.05);
    // heuristic-5 missed most of them: the set measures something
    const five = await runCli(
      ["hard-negatives", sharedFile("datasets", "wnli", "validation.csv"), "--judge-version", "heuristic-5"],
      {},
    );
    expect(five.stdout).toMatch(/entity\s+caught\s+0 of\s+10/);
  });

  it("says that the heuristic's figure on the file it was fitted on is in-sample", async () => {
    const result = await runCli(
      ["judge-agreement", sharedFile("judge-gold", "time-travel-human-labels.csv")],
      {},
    );
    expect(result.stdout).toMatch(/^IN-SAMPLE: the heuristic's thresholds were fitted on this very file/m);
    expect(result.stdout.trim().split("\n").at(-1)).toBe("kappa_binary=0.855 accuracy=0.982");
  });

  it("judges few sibling sentence 2s of the shared WNLI and RTE files a match of each other (docs/JUDGING.md)", () => {
    // Rows that share sentence 1 have different sentence 2s: none is a recall of another. The overlap rule
    // alone (no siblings given) still calls some near-exact; these counts are the ones docs/JUDGING.md quotes.
    const matched = (
      rows: Row[],
      contentRule: boolean,
      version: HeuristicJudgeVersion = "heuristic-5",
      nli = false,
    ) => {
      const bySentence1 = new Map<string, string[]>();
      for (const row of rows) {
        const key = row.sentence1.trim().toLowerCase();
        bySentence1.set(key, [...(bySentence1.get(key) ?? []), row.sentence2]);
      }
      const thresholds = contentRule
        ? HEURISTIC_5_THRESHOLDS
        : { ...HEURISTIC_5_THRESHOLDS, contentPrecision: 1.01 };
      let pairs = 0;
      let near = 0;
      for (const [sentence1, group] of bySentence1)
        for (const reference of group)
          for (const candidate of group) {
            if (reference === candidate) continue;
            pairs += 1;
            const options = { version, context: { firstPiece: sentence1, nli } };
            const used = version === "heuristic-5" ? thresholds : undefined;
            if (judgeHeuristically(reference, candidate, used, [], options).verdict !== "INEXACT") near += 1;
          }
      return { pairs, near };
    };
    type Row = { sentence1: string; sentence2: string };
    const wnli: Row[] = parse(fs.readFileSync(sharedFile("datasets", "wnli", "validation.csv")), {
      columns: true,
    });
    const rte: Row[] = parse(fs.readFileSync(sharedFile("datasets", "rte", "train.tsv")), {
      columns: true,
      delimiter: "\t",
      relax_quotes: true,
    });
    expect([matched(wnli, false), matched(wnli, true)]).toEqual([
      { pairs: 14, near: 6 },
      { pairs: 14, near: 6 },
    ]);
    expect([matched(rte, false), matched(rte, true)]).toEqual([
      { pairs: 256, near: 14 },
      { pairs: 256, near: 21 },
    ]);
    // heuristic-6 with the instance's sentence 1 (as runs judge NLI answers)
    expect(matched(wnli, true, "heuristic-6", true)).toEqual({ pairs: 14, near: 0 });
    expect(matched(rte, true, "heuristic-6", true).near).toBeLessThan(21);
  });
});
