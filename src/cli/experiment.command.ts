import readline from "node:readline/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { MultiBar, Presets } from "cli-progress";
import { startWorkers } from "../app/workers";
import { BadInputError } from "../common/errors";
import { Config } from "../config/config";
import { batchOptionsOf } from "../llm/provider-config";
import { batchPrice } from "../llm/provider-registry";
import { RunStatus } from "../run/run.entity";
import { cddParameterProblems } from "../sampling/cdd";
import { CDD_SAMPLING, CDD_THRESHOLDS, NGRAM_N, NGRAM_SAMPLING, QUIZ_DEFAULTS } from "../study/grid";
import { DEFAULT_METHODS, parseMethods } from "../study/methods";
import { ContinuationPrompt, MemorizationSetting, RunKind, SETTING_NAMES } from "../study/settings";
import { estimateGrid } from "../template/prompt.service";
import { openForCommand } from "./open-database";
import {
  ENDED_STATUSES,
  formatCost,
  formatDuration,
  pace,
  progressLine,
  snapshotOf,
  waitingShape,
} from "./progress-line";
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
  /** The experiment's budget, in US dollars. */
  maxCost?: number;
  /** Start without asking, after the estimate (scripts). */
  yes?: boolean;
  /** Through the provider's Batch API (`batch`), or online (`online`); else the provider's default. */
  batch?: boolean;
  online?: boolean;
  /** replication, guided-general, quiz (default: the first two). */
  methods?: string[];
  /** The quiz's option generator (default: the examined provider and model) and its generations. */
  quizProvider?: string;
  quizModel?: string;
  quizGenerations?: number;
  /** The LOGPROB method's reference model, as PROVIDER/MODEL. */
  logprobReference?: string;
  /** A calibration study: samples whose instances were in the training data, and samples whose were not. */
  members?: string[];
  nonMembers?: string[];
  /** The CDD method's prompt (guided or raw), samples, temperature and thresholds. */
  cddPrompt?: string;
  cddSamples?: number;
  cddTemperature?: number;
  cddAlpha?: number;
  cddXi?: number;
  /** N-gram coverage's prompt (guided or raw) and samples. */
  ngramPrompt?: string;
  ngramSamples?: number;
}

/** A sampling method's --...-prompt: GUIDED or RAW. */
function continuationPrompt(flag: string, value: string | undefined, fallback: ContinuationPrompt) {
  const prompt = (value ?? fallback).toUpperCase();
  if (!Object.values(ContinuationPrompt).includes(prompt as ContinuationPrompt))
    throw new BadInputError(`${flag}: guided or raw (got "${value}")`);
  return prompt as ContinuationPrompt;
}

/** The n-gram coverage options given, over the authors' defaults; undefined when none is given. */
function ngramOf(options: ExperimentCommandOptions) {
  if (options.ngramPrompt === undefined && options.ngramSamples === undefined) return undefined;
  return {
    ...NGRAM_SAMPLING,
    n: NGRAM_N,
    prompt: continuationPrompt("--ngram-prompt", options.ngramPrompt, NGRAM_SAMPLING.prompt),
    samples: options.ngramSamples ?? NGRAM_SAMPLING.samples,
  };
}

/** The CDD options given, over the authors' defaults; undefined when none is given. */
function cddOf(options: ExperimentCommandOptions) {
  const given = [
    options.cddPrompt,
    options.cddSamples,
    options.cddTemperature,
    options.cddAlpha,
    options.cddXi,
  ];
  if (given.every((value) => value === undefined)) return undefined;
  const cdd = {
    prompt: continuationPrompt("--cdd-prompt", options.cddPrompt, CDD_SAMPLING.prompt),
    samples: options.cddSamples ?? CDD_SAMPLING.samples,
    temperature: options.cddTemperature ?? CDD_SAMPLING.temperature,
    alpha: options.cddAlpha ?? CDD_THRESHOLDS.alpha,
    xi: options.cddXi ?? CDD_THRESHOLDS.xi,
  };
  const problems = cddParameterProblems(cdd);
  if (problems.length > 0) throw new BadInputError(`--cdd: ${problems.join("; ")}`);
  return cdd;
}

/** "PROVIDER/MODEL" (the model may hold slashes itself). */
function providerModel(value: string): { provider: string; model: string } {
  const at = value.indexOf("/");
  if (at <= 0 || at === value.length - 1)
    throw new BadInputError(`--logprob-reference: PROVIDER/MODEL (got "${value}")`);
  return { provider: value.slice(0, at), model: value.slice(at + 1) };
}

/** Exit code of `memicl experiment --wait` when a budget paused the grid (raise it with `memicl budget`). */
export const EXIT_PAUSED = 3;

/**
 * `memicl experiment`: queues the whole grid for one model. With --wait it also works on it in this process
 * (unless a server or workers already do) and shows progress until every run has finished.
 */
export async function runExperiment(config: Config, options: ExperimentCommandOptions): Promise<void> {
  const command = await openForCommand(config);
  const { services } = command;
  try {
    const grid = {
      sampleIds: options.sample,
      kinds: (options.kinds ?? ["memorization", "performance"]).map((kind) => kind.toUpperCase() as RunKind),
      settings: (options.settings ?? [...SETTING_NAMES]).map(parseSetting) as MemorizationSetting[],
      shots: options.shots,
      memorizationMaxOutputTokens: 100,
      performanceMaxOutputTokens: 10,
      performanceRepeats: options.repeats,
      methods: options.methods ? parseMethods(options.methods) : [...DEFAULT_METHODS],
      quizMaxOutputTokens: QUIZ_DEFAULTS.quizMaxOutputTokens,
      quizOptionsMaxOutputTokens: QUIZ_DEFAULTS.quizOptionsMaxOutputTokens,
      quizOptionGenerations: options.quizGenerations ?? QUIZ_DEFAULTS.optionGenerations,
      cdd: cddOf(options),
      ngramCoverage: ngramOf(options),
    };
    const quizGenerator =
      options.quizProvider || options.quizModel || options.quizGenerations
        ? {
            provider: options.quizProvider ?? options.provider,
            model: options.quizModel ?? options.model,
            generations: grid.quizOptionGenerations,
          }
        : undefined;
    if (!(await preflight(command.services, options, { ...grid, quizGenerator }))) {
      process.stdout.write("not started\n");
      process.exitCode = 1;
      return;
    }
    const { experiment, runs, created } = await services.runLifecycle.startExperiment({
      ...grid,
      name: options.name ?? `${options.provider}/${options.model}`,
      provider: options.provider,
      model: options.model,
      temperature: 0,
      cache: options.cache,
      idempotencyKey: options.idempotencyKey,
      maxCostUsd: options.maxCost,
      batch: options.batch ? true : options.online ? false : undefined,
      quizGenerator,
      logprobReference: options.logprobReference ? providerModel(options.logprobReference) : undefined,
      membership:
        options.members || options.nonMembers
          ? [
              ...(options.members ?? []).map((sampleId) => ({ sampleId, member: true, group: "all" })),
              ...(options.nonMembers ?? []).map((sampleId) => ({ sampleId, member: false, group: "all" })),
            ]
          : undefined,
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
      // A wait is said once per kind: a limit's reason names its next slot's time, which changes every read
      // (247 "waiting:" lines in one grid). On a terminal it goes above the progress bar, not through it.
      for (const reason of new Set(current.map((run) => run.waitingReason).filter(Boolean) as string[])) {
        const shape = waitingShape(reason);
        if (said.has(shape)) continue;
        said.add(shape);
        if (bars) bars.log(`waiting: ${reason}\n`);
        else process.stderr.write(`waiting: ${reason}\n`);
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
      const unfinished = current.filter((run) => !ENDED_STATUSES.has(run.status));
      if (!done && unfinished.every((run) => run.status === RunStatus.PAUSED_BUDGET)) {
        // Nothing moves until the budget is raised: say so and leave (the grid stays, paused, for `memicl budget`).
        bars?.stop();
        process.stderr.write(`${progressLine(snapshot, speed)}\n`);
        process.stdout.write(
          `paused: ${unfinished[0].waitingReason ?? "budget reached"}\n` +
            `raise it to resume: memicl budget ${experiment.id} --max-cost <usd>\n`,
        );
        process.exitCode = EXIT_PAUSED;
        return;
      }
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

/**
 * Before anything is queued: the grid's calls, tokens and cost bound (at the provider's prices for the model, when
 * this process has them), and the budget beside it. On a terminal it asks before starting unless `--yes`; off one
 * (a script) it starts after printing. True to start.
 */
async function preflight(
  services: Awaited<ReturnType<typeof openForCommand>>["services"],
  options: ExperimentCommandOptions,
  grid: Parameters<typeof estimateGrid>[2],
): Promise<boolean> {
  const config = services.providers.has(options.provider)
    ? services.providers.config(options.provider)
    : null;
  const batched = options.batch === true || (!options.online && batchOptionsOf(config) !== null);
  const online = config?.prices[options.model];
  const price = online && batched ? batchPrice(online) : online;
  const estimate = await estimateGrid(
    services.prompts,
    services.samples,
    {
      ...grid,
      inputPricePerMillionTokens: price?.inputPerMillion,
      outputPricePerMillionTokens: price?.outputPerMillion,
    },
    config,
    undefined,
    services.optionSets,
  );
  const out = process.stdout;
  out.write(
    `estimate: ${estimate.calls} calls` +
      (estimate.maxCalls > estimate.calls
        ? ` (at most ${estimate.maxCalls} with option regenerations)`
        : "") +
      `, ${estimate.promptTokens} prompt tokens, at most ` +
      `${estimate.maxOutputTokens} output tokens, ` +
      (estimate.maxCostUsd === null
        ? `cost unknown (provider "${options.provider}" has no price for "${options.model}" here)`
        : `at most ${formatCost(estimate.maxCostUsd)}${batched ? " at batch prices" : ""}`) +
      (options.maxCost === undefined ? "" : `; budget ${formatCost(options.maxCost)}`) +
      "\n",
  );
  if (options.maxCost !== undefined && estimate.maxCostUsd !== null && estimate.maxCostUsd > options.maxCost)
    out.write(
      `note: the grid could cost more than its budget: it pauses before the first call that could exceed it\n`,
    );
  for (const warning of estimate.warnings) out.write(`warning: ${warning}\n`);
  if (options.yes || !process.stdin.isTTY) return true;
  const prompt = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question("start it? [y/N] ");
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}
