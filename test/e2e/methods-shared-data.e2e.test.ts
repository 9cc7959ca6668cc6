import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCli } from "../support/cli";
import { BACKENDS, createTestDatabase, TestDatabase } from "../support/databases";
import { providersFile } from "../support/runs";
import { describeWithSharedData, sharedFile } from "../support/shared-data";

/**
 * The three methods from one command on the shared RTE file: replication (the study's settings), Time Travel's
 * guided vs general instruction, and the Data Contamination Quiz, on a simulated model with a configured quiz
 * contamination and a guided-instruction effect; the report's contamination summary shows each method's result.
 */
describeWithSharedData("three methods, one command, on the shared RTE file", () => {
  describe.each(BACKENDS)("%s", (backend) => {
    let database: TestDatabase;
    let env: Record<string, string>;
    let dir: string;

    beforeAll(async () => {
      database = await createTestDatabase(backend);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-methods-"));
      env = {
        DATABASE_URL: database.url,
        MEMICL_PROVIDERS_FILE: providersFile({
          sim: {
            type: "simulated",
            simulation: {
              memorizedAtZeroShot: 0.3,
              memorizedAtManyShots: 0.6,
              nearExactShare: 0.2,
              settingShift: { FULL_INFORMATION: 0.3, GENERAL_INSTRUCTION: -0.25 },
              quizContamination: 0.4,
              optionDefectRate: 0.2,
              seed: 21,
            },
          },
        }),
      };
    }, 60_000);
    afterAll(async () => {
      await database?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("finishes and reports every method's evidence with its counts", async () => {
      const imported = await runCli(
        ["import", sharedFile("datasets", "rte", "train.tsv"), "--name", "rte"],
        env,
      );
      expect(imported.code).toBe(0);
      const sampled = await runCli(
        [
          "sample",
          "--dataset",
          "rte",
          "--seed",
          "3",
          "--instances",
          "30",
          "--demonstrations",
          "5",
          "--shots",
          "0",
        ],
        env,
      );
      expect(sampled.code).toBe(0);
      const sampleId = /sample ([0-9a-f-]{36})/.exec(sampled.stdout)![1];

      const started = await runCli(
        [
          "experiment",
          "--sample",
          sampleId,
          "--provider",
          "sim",
          "--model",
          "demo",
          "--methods",
          "replication,guided-general,quiz",
          "--wait",
          "--yes",
        ],
        env,
      );
      expect(started.stderr).not.toMatch(/error/i);
      expect(started.code).toBe(0);
      // k = 0: 4 settings + performance, and the quiz's 6 runs; the estimate counts the quiz's calls too.
      expect(started.stdout).toMatch(/queued experiment [0-9a-f-]{36}: 11 runs/);
      const estimated = Number(
        /estimate: (\d+) calls \(at most (\d+) with option regenerations\)/.exec(started.stdout)?.[1],
      );
      expect(estimated).toBe(4 * 30 + 3 * 30 + 6 * 30);
      expect(started.stdout).toMatch(/finished: 11 runs succeeded, 0 did not/);
      const experimentId = /experiment ([0-9a-f-]{36})/.exec(started.stdout)![1];

      const report = await runCli(["report", experimentId, "--format", "json"], env);
      expect(report.code).toBe(0);
      const { contaminationSummary, quiz } = JSON.parse(report.stdout);
      expect(contaminationSummary).toHaveLength(1);
      const [summary] = contaminationSummary;
      expect(summary).toMatchObject({ dataset: "rte", split: "train" });
      expect(summary.timeTravel).toMatchObject({ shots: 0, subsetJudged: 10 });
      expect(summary.timeTravel.runIds).toHaveLength(1);
      expect(summary.replication).toMatchObject({ shots: 0, instances: 30 });
      expect(summary.replication.aboveFloor).toBeGreaterThan(0);
      expect(summary.replication.generalInstructionInstances).toBe(30);
      expect(summary.guidedGeneral).toMatchObject({ shots: 0, instances: 30, resamples: 10000 });
      // The guided instruction helps this model (+0.3 against -0.25): Algorithm 1 finds it.
      expect(summary.guidedGeneral.significant).toBe(true);
      expect(summary.quiz.range.instances + summary.quiz.range.optionsGivenUp).toBe(30);
      expect(summary.quiz.range.lower).not.toBeNull();
      expect(summary.quiz.runIds).toHaveLength(6);
      for (const method of ["timeTravel", "replication", "guidedGeneral", "quiz"])
        expect(summary[method].cannotTell.length).toBeGreaterThan(40);
      expect(quiz[0].rejectedGenerations).toBeGreaterThan(0);

      const markdown = await runCli(["report", experimentId], env);
      expect(markdown.stdout).toMatch(/## Data Contamination Quiz/);
      expect(markdown.stdout).toMatch(/## Contamination summary/);
    }, 180_000);
  });
});
