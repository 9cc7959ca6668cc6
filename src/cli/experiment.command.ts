import { setTimeout as sleep } from "node:timers/promises";
import { MultiBar, Presets } from "cli-progress";
import { startWorkers } from "../app/workers";
import { Config } from "../config/config";
import { RunStatus } from "../run/run.entity";
import { MemorizationSetting, RunKind, SETTING_NAMES } from "../study/settings";
import { openForCommand } from "./open-database";
import { formatCost, formatDuration, pace, progressLine, snapshotOf } from "./progress-line";
import { parseSetting } from "./prompt.command";

export interface ExperimentCommandOptions {
  sample: string[];
  provider: string;
  model: string;
  name?: string;
  shots?: number[];
  settings?: string[];
  kinds?: string[];
  repeats: number;
  idempotencyKey?: string;
  wait: boolean;
  cache: boolean;
  /** Off a terminal, seconds between progress lines. */
  progressEvery: number;
}

/**
 * `memicl experiment`: queues the whole grid for one model. With --wait it also works on it in this process
 * (unless a server or workers already do) and shows progress until every run has finished.
 */
export async function runExperiment(config: Config, options: ExperimentCommandOptions): Promise<void> {
  const command = await openForCommand(config);
  const { services } = command;
  try {
    const { experiment, runs, created } = await services.runLifecycle.startExperiment({
      name: options.name ?? `${options.provider}/${options.model}`,
      sampleIds: options.sample,
      provider: options.provider,
      model: options.model,
      kinds: (options.kinds ?? ["memorization", "performance"]).map((kind) => kind.toUpperCase() as RunKind),
      settings: (options.settings ?? [...SETTING_NAMES]).map(parseSetting) as MemorizationSetting[],
      shots: options.shots,
      temperature: 0,
      memorizationMaxOutputTokens: 100,
      performanceMaxOutputTokens: 10,
      performanceRepeats: options.repeats,
      cache: options.cache,
      idempotencyKey: options.idempotencyKey,
    });
    const expected = runs.reduce((sum, run) => sum + run.expectedCount, 0);
    process.stdout.write(
      `${created ? "queued" : "found existing"} experiment ${experiment.id}: ${runs.length} runs, ${expected} completions\n`,
    );
    if (!options.wait) {
      for (const warning of await services.workers.warningsFor(options.provider))
        process.stdout.write(`warning: ${warning}\n`);
      return;
    }

    const workers = await startWorkers(services, config, {
      role: "experiment",
      concurrency: config.workerConcurrency,
      logger: command.logger,
    });
    command.onClose(() => workers.stop());
    const terminal = process.stderr.isTTY === true;
    const bars = terminal
      ? new MultiBar(
          {
            format:
              "{bar} {value}/{total} completions | {rate}/s | ETA {eta} | {failed} failed | {cost} | {runs}",
            stream: process.stderr,
          },
          Presets.shades_classic,
        )
      : null;
    const bar = bars?.create(expected, 0, { runs: "", rate: "0.0", eta: "?", failed: 0, cost: "$0.00" });
    const said = new Set<string>();
    let first: { finished: number; at: number } | null = null;
    let lastLine = Date.now();
    const everyMs = options.progressEvery * 1000;
    for (;;) {
      const current = (await services.runs.runsByExperiments([experiment.id]))[0];
      for (const reason of new Set(current.map((run) => run.waitingReason).filter(Boolean) as string[])) {
        if (said.has(reason)) continue;
        said.add(reason);
        process.stderr.write(`waiting: ${reason}\n`);
      }
      const snapshot = snapshotOf(current);
      const now = { finished: snapshot.finished, at: Date.now() };
      first ??= now;
      const speed = pace(first, now, snapshot.total);
      bar?.setTotal(snapshot.total);
      bar?.update(snapshot.finished, {
        runs: `${snapshot.runsFinished}/${snapshot.runs} runs finished`,
        rate: speed.perSecond.toFixed(1),
        eta: formatDuration(speed.etaSeconds),
        failed: snapshot.failed,
        cost: formatCost(snapshot.costUsd),
      });
      const done = snapshot.runsFinished === snapshot.runs;
      if (!terminal && (done || now.at - lastLine >= everyMs)) {
        // Off a terminal (a log file, nohup, CI) a line at an interval says the grid is alive.
        process.stderr.write(`${progressLine(snapshot, speed)}\n`);
        lastLine = now.at;
      }
      if (done) {
        bars?.stop();
        const failed = current.filter((run) => run.status !== RunStatus.SUCCEEDED);
        process.stdout.write(
          `finished: ${current.length - failed.length} runs succeeded, ${failed.length} did not\n`,
        );
        for (const run of failed)
          process.stdout.write(`  run ${run.id} ${run.status}: ${run.lastError ?? ""}\n`);
        if (failed.length > 0) process.exitCode = 1;
        return;
      }
      await sleep(500);
    }
  } finally {
    await command.close();
  }
}
