import { DataSource, EntityManager } from "typeorm";
import { BadInputError, ConflictError } from "../common/errors";
import { CODE_VERSION } from "../config/code-version";
import { Experiment } from "../experiment/experiment.entity";
import {
  HEURISTIC_JUDGE_VERSION,
  HEURISTIC_JUDGE_VERSIONS,
  isHeuristicJudgeVersion,
} from "../judge/heuristic-judge";
import { probeLogprobs } from "../llm/logprob-probe";
import { batchOptionsOf, logprobRefusal, ProviderConfig, rawPromptRefusal } from "../llm/provider-config";
import { ProviderRegistry } from "../llm/provider-registry";
import {
  defaultOptionSets,
  findOrCreateOptionSet,
  insertQuizItems,
  quizItemsReady,
} from "../option-set/option-set.sql";
import { JobQueue } from "../queue/job-queue";
import { Sample } from "../sample/sample.entity";
import { SampleService } from "../sample/sample.service";
import { CDD_SAMPLING, gridCells, NGRAM_SAMPLING, QUIZ_DEFAULTS } from "../study/grid";
import { StudyMethod } from "../study/methods";
import { OptionLetter } from "../study/quiz-letters";
import { ContinuationPrompt, GRID_KINDS, MemorizationSetting, RunKind } from "../study/settings";
import { JudgeKind } from "../study/verdicts";
import { PromptService } from "../template/prompt.service";
import { TemplateService } from "../template/template.service";
import { leaseLapsed } from "../worker/lease";
import { deadAfterSeconds, liveWorkersSql } from "../worker/worker.sql";
import { JudgeInput } from "./judge.input";
import { Run, RunJudge, RunStatus } from "./run.entity";
import { StartExperimentInput, StartRunInput } from "./run.inputs";
import { RunService } from "./run.service";

interface RunRequest {
  sampleId: string;
  kind: RunKind;
  /** Quiz runs: the option set they show (the option-generation run: the set it writes). */
  optionSetId?: string | null;
  /** Quiz runs: where the original sits; null for the bias detector quiz. */
  quizPosition?: OptionLetter | null;
  setting: MemorizationSetting | null;
  shots: number;
  provider: string;
  model: string;
  temperature: number;
  maxOutputTokens: number;
  repeats: number;
  templateVersion: number | null;
  cache: boolean;
  idempotencyKey: string | null;
  judge: RunJudge;
  /** The run's own budget (an experiment's budget is on the experiment). */
  maxCostUsd: number | null;
  /** Through the provider's Batch API: true, false, or the provider's default (null). */
  batch: boolean | null;
  /** Nucleus sampling's top_p (n-gram coverage's runs); none when absent. */
  topP?: number;
  /** The method a CONTINUATION or LOGPROB run serves when not the kind's own (CDD, n-gram coverage, CoDeC). */
  method?: StudyMethod;
  /** CoDeC's in-context scoring pass. */
  inContext?: boolean;
}

/**
 * The life of a run: starting (idempotent, alone or as an experiment's grid), cancelling, resuming, retrying; the
 * queue only delivers work. Reading runs is RunService's.
 */
export class RunLifecycle {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runs: RunService,
    private readonly samples: SampleService,
    private readonly prompts: PromptService,
    private readonly providers: ProviderRegistry,
    private readonly queue: JobQueue,
    private readonly templates: TemplateService,
    /** The workers' lease (a worker is live while it beat within `deadAfterSeconds` of it). */
    private readonly leaseSeconds = 30,
  ) {}

  /**
   * A provider work may be queued for: one configured in this process, or one a live worker on the database can
   * call (it registered it), so a shell without the providers file can queue work that the server's or the
   * workers' processes will do. Returns this process's configuration of it, if it has one.
   */
  async checkProvider(name: string): Promise<ProviderConfig | null> {
    const here = this.providers.has(name) ? this.providers.config(name) : null;
    if (here && !here.unusableReason) return here;
    const workers: { role: string; providers: string[] }[] = await this.dataSource.query(liveWorkersSql, [
      deadAfterSeconds({ leaseSeconds: this.leaseSeconds }),
    ]);
    if (workers.some((worker) => worker.providers.includes(name))) return here;
    const live =
      workers.length === 0
        ? "none is running"
        : workers.map((worker) => `${worker.role} (${worker.providers.join(", ") || "none"})`).join(", ");
    // Configured here but without its key, and no live worker has it: its runs would wait for good.
    if (here)
      throw new BadInputError(
        `provider "${name}" cannot be called: ${here.unusableReason}, and no live worker on this database can ` +
          `call it (live workers: ${live}); set the variable (or start a worker that has it) and start again`,
        { field: "provider" },
      );
    throw new BadInputError(
      `no provider named "${name}" (configured: ${listed(this.providers.names())}; this process reads ` +
        `providers from MEMICL_PROVIDERS_FILE), and no live worker on this database can call it (live workers: ${live})`,
      { field: "provider" },
    );
  }

  /**
   * Before a LOGPROB grid is queued: one short scoring call (`probeLogprobs`), checked as every answer is, and the
   * start refused with its finding when the server cannot score prompts (no echo, no or empty log-probabilities,
   * clamped values, chat only). A provider only a remote worker can call is not probed here; its items fail with
   * their reasons instead.
   */
  private async probeScoring(
    name: string,
    model: string,
    field: string,
    method: "LOGPROB" | "CODEC" = "LOGPROB",
  ): Promise<void> {
    if (!this.providers.has(name) || this.providers.config(name).unusableReason) return;
    const handle = this.providers.get(name);
    const config = handle.config;
    const top = config.type === "openai" ? (config.promptLogprobs?.top ?? 5) : 5;
    const finding = await probeLogprobs(handle.provider, model, top, config.timeoutSeconds);
    if (!finding.ok)
      throw new BadInputError(
        `provider "${name}" cannot score prompts for the ${method} method (a one-call probe of model "${model}" ` +
          `found: ${finding.reason}); nothing was queued. \`memicl providers --check ${name} --model ${model}\` ` +
          "runs the same probe",
        { field },
      );
  }

  async startRun(input: StartRunInput): Promise<{ run: Run; created: boolean }> {
    if (input.kind === RunKind.QUIZ || input.kind === RunKind.QUIZ_OPTIONS)
      throw new BadInputError(
        "the quiz's runs start together: startExperiment with methods: [QUIZ] (option generation, the bias " +
          "detector quiz and the compensator quizzes)",
        { field: "kind" },
      );
    if (input.kind === RunKind.LOGPROB)
      throw new BadInputError(
        "logprob runs start with their experiment: startExperiment with methods: [LOGPROB] (its provider " +
          "checked for prompt log-probabilities, a reference model and member labels taken there)",
        { field: "kind" },
      );
    if (input.kind === RunKind.CONTINUATION)
      throw new BadInputError(
        "continuation runs start with their experiment: startExperiment with methods: [CDD] (a greedy and a " +
          "sampled run per sample, `cdd` sets the prompt, samples and temperature)",
        { field: "kind" },
      );
    if (input.kind === RunKind.GUESSING)
      throw new BadInputError(
        "guessing runs start with their experiment: startExperiment with methods: [TS_GUESSING] (its report " +
          "reads an experiment's runs, with the control's)",
        { field: "kind" },
      );
    const request: RunRequest = {
      sampleId: input.sampleId,
      kind: input.kind,
      setting: input.setting ?? null,
      shots: input.shots,
      provider: input.provider,
      model: input.model,
      temperature: input.temperature,
      maxOutputTokens: input.maxOutputTokens ?? (input.kind === RunKind.MEMORIZATION ? 100 : 10),
      repeats: input.repeats ?? (input.kind === RunKind.MEMORIZATION ? 1 : 3),
      templateVersion: input.templateVersion ?? null,
      cache: input.cache,
      idempotencyKey: input.idempotencyKey ?? null,
      judge: await this.judgeOf(input.judge),
      maxCostUsd: input.maxCostUsd ?? null,
      batch: input.batch ?? null,
    };
    if (request.idempotencyKey) {
      const existing = await this.dataSource.manager.findOneBy(Run, {
        idempotencyKey: request.idempotencyKey,
      });
      if (existing) return { run: existing, created: false };
    }
    const provider = await this.checkProvider(request.provider);
    if (request.maxCostUsd !== null) checkPriced(provider, request.provider, request.model);
    batchAttemptsOf(provider, request.provider, request.batch);
    const planned = await this.plan(request);
    // Started outside the transaction, so the run's transaction holds one connection, not pg-boss's start-up too.
    await this.queue.start();
    try {
      const run = await this.dataSource.transaction((manager) => this.create(manager, planned, null));
      this.queue.wake();
      return { run, created: true };
    } catch (error) {
      const raced = request.idempotencyKey
        ? await this.dataSource.manager.findOneBy(Run, { idempotencyKey: request.idempotencyKey })
        : null;
      if (raced) return { run: raced, created: false };
      throw error;
    }
  }

  async startExperiment(
    input: StartExperimentInput,
  ): Promise<{ experiment: Experiment; runs: Run[]; created: boolean }> {
    if (input.idempotencyKey) {
      const existing = await this.dataSource.manager.findOneBy(Experiment, {
        idempotencyKey: input.idempotencyKey,
      });
      if (existing)
        return {
          experiment: existing,
          runs: (await this.runs.runsByExperiments([existing.id]))[0],
          created: false,
        };
    }
    const outside = input.kinds.filter((kind) => !GRID_KINDS.includes(kind));
    if (outside.length > 0)
      throw new BadInputError(
        `kinds: ${outside.join(", ")} runs come with methods: [QUIZ], not with kinds (MEMORIZATION, PERFORMANCE)`,
        { field: "kinds" },
      );
    const provider = await this.checkProvider(input.provider);
    if (input.maxCostUsd != null) checkPriced(provider, input.provider, input.model);
    batchAttemptsOf(provider, input.provider, input.batch ?? null);
    const quiz = (input.methods ?? []).includes(StudyMethod.QUIZ);
    const logprob = (input.methods ?? []).includes(StudyMethod.LOGPROB);
    const codec = (input.methods ?? []).includes(StudyMethod.CODEC);
    if (logprob || codec) {
      const refusal = logprobRefusal(provider, input.provider, logprob ? "LOGPROB" : "CODEC");
      if (refusal) throw new BadInputError(refusal, { field: "provider" });
      await this.probeScoring(input.provider, input.model, "provider", logprob ? "LOGPROB" : "CODEC");
    }
    if (logprob) {
      if (input.logprobReference) {
        const reference = await this.checkProvider(input.logprobReference.provider);
        const referenceRefusal = logprobRefusal(reference, input.logprobReference.provider);
        if (referenceRefusal) throw new BadInputError(referenceRefusal, { field: "logprobReference" });
        await this.probeScoring(
          input.logprobReference.provider,
          input.logprobReference.model,
          "logprobReference",
        );
        if (input.maxCostUsd != null)
          checkPriced(reference, input.logprobReference.provider, input.logprobReference.model);
      }
    } else if (input.logprobReference || input.membership?.length)
      throw new BadInputError(
        "logprobReference and membership belong to the LOGPROB method: add it to methods",
        {
          field: "methods",
        },
      );
    const methods = input.methods ?? [];
    if (input.cdd && !methods.includes(StudyMethod.CDD))
      throw new BadInputError("cdd belongs to the CDD method: add it to methods", { field: "methods" });
    if (input.ngramCoverage && !methods.includes(StudyMethod.NGRAM_COVERAGE))
      throw new BadInputError("ngramCoverage belongs to the NGRAM_COVERAGE method: add it to methods", {
        field: "methods",
      });
    const raw =
      (methods.includes(StudyMethod.CDD) &&
        (input.cdd?.prompt ?? CDD_SAMPLING.prompt) === ContinuationPrompt.RAW) ||
      (methods.includes(StudyMethod.NGRAM_COVERAGE) &&
        (input.ngramCoverage?.prompt ?? NGRAM_SAMPLING.prompt) === ContinuationPrompt.RAW);
    if (raw) {
      const refusal = rawPromptRefusal(provider, input.provider);
      if (refusal) throw new BadInputError(refusal, { field: "provider" });
    }
    for (const label of input.membership ?? [])
      if (!input.sampleIds.includes(label.sampleId))
        throw new BadInputError(
          `membership: sample ${label.sampleId} is not one of the experiment's samples`,
          {
            field: "membership",
          },
        );
    const generator = quiz
      ? {
          provider: input.quizGenerator?.provider ?? input.provider,
          model: input.quizGenerator?.model ?? input.model,
          generations: input.quizGenerator?.generations ?? QUIZ_DEFAULTS.optionGenerations,
        }
      : null;
    if (generator && generator.provider !== input.provider) {
      const generatorConfig = await this.checkProvider(generator.provider);
      if (input.maxCostUsd != null) checkPriced(generatorConfig, generator.provider, generator.model);
    }
    // Without a generator named, a sample's quiz reuses the options an earlier experiment generated for it (the
    // first set made, newest prompt first), so every examined model answers the same quiz; a sample without
    // options gets them from the examined model.
    const generators = new Map<string, NonNullable<typeof generator>>();
    if (generator && !input.quizGenerator) {
      const existing: { sample_id: string; provider: string; model: string; max_generations: number }[] =
        await this.dataSource.query(defaultOptionSets, [input.sampleIds]);
      for (const row of existing)
        generators.set(row.sample_id, {
          provider: row.provider,
          model: row.model,
          generations: row.max_generations,
        });
    }
    const generatorOf = (sampleId: string) => generators.get(sampleId) ?? generator!;
    const judge = await this.judgeOf(input.judge);
    const sampleRows: Sample[] = [];
    for (const sampleId of input.sampleIds) sampleRows.push(await this.samples.get(sampleId));
    const requests: RunRequest[] = gridCells(sampleRows, input).map((cell) => {
      const generating = cell.kind === RunKind.QUIZ_OPTIONS;
      const quizzing = cell.kind === RunKind.QUIZ;
      const scoring = cell.kind === RunKind.LOGPROB;
      const continuing = cell.kind === RunKind.CONTINUATION;
      return {
        sampleId: cell.sample.id,
        kind: cell.kind,
        setting: cell.setting,
        shots: cell.shots,
        provider: generating ? generatorOf(cell.sample.id).provider : input.provider,
        model: generating ? generatorOf(cell.sample.id).model : input.model,
        temperature: generating ? QUIZ_DEFAULTS.optionsTemperature : (cell.temperature ?? input.temperature),
        maxOutputTokens: cell.maxOutputTokens,
        repeats: cell.repeats,
        templateVersion: null,
        cache: input.cache,
        idempotencyKey: null,
        judge,
        maxCostUsd: null,
        // The quiz's runs are called online: a quiz waits for its instance's options, which a batch cannot; a
        // scoring call is not a chat completion a Batch API takes; CDD's greedy and sampled runs are read together.
        batch: generating || quizzing || scoring || continuing ? false : (input.batch ?? null),
        quizPosition: quizzing ? (cell.quizPosition ?? null) : null,
        topP: cell.topP,
        method: cell.method,
        inContext: cell.inContext,
      };
    });
    // The reference model scores the same texts: a second LOGPROB run per sample.
    if (logprob && input.logprobReference)
      for (const request of requests.filter(
        (r) => r.kind === RunKind.LOGPROB && r.method === undefined && r.provider === input.provider,
      ))
        requests.push({
          ...request,
          provider: input.logprobReference.provider,
          model: input.logprobReference.model,
        });
    const planned: Awaited<ReturnType<RunLifecycle["plan"]>>[] = [];
    for (const request of requests) planned.push(await this.plan(request));
    await this.queue.start();
    try {
      return await this.dataSource
        .transaction(async (manager) => {
          const experiment = await manager.save(
            manager.create(Experiment, {
              name: input.name,
              provider: input.provider,
              model: input.model,
              idempotencyKey: input.idempotencyKey ?? null,
              maxCostUsd: input.maxCostUsd == null ? null : String(input.maxCostUsd),
              parameters: { ...input, sampleIds: input.sampleIds },
            }),
          );
          const runs: Run[] = [];
          // A sample's option set: found (made earlier by the same generator, prompt version and generations,
          // for any examined model) or made here with its generation run; its quizzes show it.
          const optionSets = new Map<string, string>();
          for (const plan of planned) {
            const { request } = plan;
            if (request.kind === RunKind.QUIZ_OPTIONS) {
              const found = await findOrCreateOptionSet(manager, {
                sampleId: request.sampleId,
                provider: request.provider,
                model: request.model,
                templateVersion: plan.prepared.template.version,
                maxGenerations: generatorOf(request.sampleId).generations,
              });
              optionSets.set(request.sampleId, found.id);
              if (!found.created) continue;
              request.optionSetId = found.id;
            } else if (request.kind === RunKind.QUIZ) {
              request.optionSetId = optionSets.get(request.sampleId)!;
            }
            runs.push(await this.create(manager, plan, experiment.id));
          }
          return { experiment, runs, created: true };
        })
        .finally(() => this.queue.wake());
    } catch (error) {
      const raced = input.idempotencyKey
        ? await this.dataSource.manager.findOneBy(Experiment, { idempotencyKey: input.idempotencyKey })
        : null;
      if (raced)
        return {
          experiment: raced,
          runs: (await this.runs.runsByExperiments([raced.id]))[0],
          created: false,
        };
      throw error;
    }
  }

  /** Everything a run records, read before its transaction, which then only writes. */
  private async plan(request: RunRequest) {
    const prepared = await this.prompts.prepare({
      sampleId: request.sampleId,
      kind: request.kind,
      setting: request.setting,
      shots: request.shots,
      templateVersion: request.templateVersion,
      inContext: request.inContext,
    });
    const [instances] = await this.samples.instanceCounts([request.sampleId]);
    if (request.inContext && instances < 2)
      throw new BadInputError(
        `CoDeC puts another instance of the sample in context: sample ${request.sampleId} has ${instances}`,
        { field: "sampleIds" },
      );
    return { request, prepared, instances };
  }

  private async create(
    manager: EntityManager,
    { request, prepared, instances }: Awaited<ReturnType<RunLifecycle["plan"]>>,
    experimentId: string | null,
  ) {
    const providerConfig = this.providers.has(request.provider)
      ? this.providers.config(request.provider)
      : null;
    const run = await manager.save(
      manager.create(Run, {
        experimentId,
        sampleId: request.sampleId,
        kind: request.kind,
        setting: request.setting,
        shots: request.shots,
        optionSetId: request.optionSetId ?? null,
        quizPosition: request.quizPosition ?? null,
        provider: request.provider,
        model: request.model,
        temperature: request.temperature,
        maxOutputTokens: request.maxOutputTokens,
        repeats: request.repeats,
        templateKey: prepared.template.key,
        templateVersion: prepared.template.version,
        datasetFingerprint: prepared.sample.datasetFingerprint,
        codeVersion: CODE_VERSION,
        judge: request.judge,
        cacheEnabled: request.cache,
        status: RunStatus.QUEUED,
        expectedCount: instances * request.repeats,
        idempotencyKey: request.idempotencyKey,
        maxCostUsd: request.maxCostUsd === null ? null : String(request.maxCostUsd),
        batchAttempts: batchAttemptsOf(providerConfig, request.provider, request.batch),
        parameters: {
          naming: prepared.naming,
          sampleSeed: prepared.sample.seed,
          price: providerConfig?.prices[request.model] ?? null,
          simulation: providerConfig?.type === "simulated" ? providerConfig.simulation : undefined,
          ...(request.topP !== undefined ? { topP: request.topP } : {}),
          ...(request.method !== undefined ? { method: request.method } : {}),
          ...(request.inContext ? { inContext: true } : {}),
        },
      }),
    );
    const ids: { id: string }[] =
      run.kind === RunKind.QUIZ
        ? await manager.query(insertQuizItems, [run.id, request.sampleId, run.optionSetId])
        : await manager.query(
            `INSERT INTO completion (run_id, sampled_instance_id, repeat)
             SELECT $1, item.id, repeat FROM sampled_instance AS item CROSS JOIN generate_series(0, $2 - 1) AS repeat
             WHERE item.sample_id = $3
             ORDER BY item.position, repeat
             RETURNING id`,
            [run.id, request.repeats, request.sampleId],
          );
    if (ids.length !== run.expectedCount) {
      // A quiz over a reused option set leaves out the instances whose options were given up; with none left it
      // has nothing to do.
      run.expectedCount = ids.length;
      if (ids.length === 0) {
        run.status = RunStatus.SUCCEEDED;
        run.finishedAt = new Date();
      }
      await manager.save(run);
    }
    // A batch run's items get no jobs: the batch coordinator (src/batch/) sends them to the provider's Batch API.
    // A quiz's item gets its job once its instance's options are final (src/completion/option-writer.ts); those
    // final already (a reused option set) get theirs now.
    const queued =
      run.kind === RunKind.QUIZ
        ? ((await manager.query(quizItemsReady, [ids.map(({ id }) => id)])) as { id: string }[])
        : ids;
    if (run.batchAttempts === 0)
      await this.queue.enqueue(
        "completion",
        queued.map(({ id }) => ({ completionId: String(id), provider: request.provider })),
        { transaction: manager },
      );
    return run;
  }

  /** The run's judge as recorded: an LLM judge is pinned to the judge prompt version current at the start. */
  private async judgeOf(input: JudgeInput | undefined): Promise<RunJudge> {
    if (!input || input.kind === JudgeKind.HEURISTIC) {
      const version = input?.judgeVersion ?? HEURISTIC_JUDGE_VERSION;
      if (!isHeuristicJudgeVersion(version))
        throw new BadInputError(
          `judge.judgeVersion: a heuristic judge is ${HEURISTIC_JUDGE_VERSIONS.join(" or ")}`,
          {
            field: "judge",
          },
        );
      return { kind: "HEURISTIC", version };
    }
    if (input.judgeVersion && isHeuristicJudgeVersion(input.judgeVersion))
      throw new BadInputError("judge.judgeVersion: an LLM judge is llm-judge-1 or time-travel-1", {
        field: "judge",
      });
    if (input.kind !== JudgeKind.LLM || !input.provider || !input.model) {
      throw new BadInputError("judge: HEURISTIC, or LLM with a provider and a model", { field: "judge" });
    }
    await this.checkProvider(input.provider);
    const { version } = await this.templates.judgePrompt(input.promptVersion);
    return {
      kind: "LLM",
      provider: input.provider,
      model: input.model,
      promptVersion: version,
      ...(input.judgeVersion && input.judgeVersion !== "llm-judge-1"
        ? { judgeVersion: input.judgeVersion }
        : {}),
    };
  }

  /** Stops new calls: workers skip the run's items; calls already in flight are stored when they return. */
  async cancel(runId: string): Promise<{ run: Run; affectedCount: number }> {
    const run = await this.runs.get(runId);
    if (run.status === RunStatus.SUCCEEDED) throw new ConflictError("the run has already succeeded");
    await this.dataSource.query(
      "UPDATE run SET status = 'CANCELLED', finished_at = clock_timestamp() WHERE id = $1 AND status IN ('QUEUED', 'RUNNING', 'FAILED', 'PAUSED_BUDGET')",
      [runId],
    );
    const [{ count }] = await this.dataSource.query(
      "SELECT count(*)::int AS count FROM completion WHERE run_id = $1 AND status IN ('PENDING', 'RUNNING')",
      [runId],
    );
    return { run: await this.runs.get(runId), affectedCount: count };
  }

  /**
   * Queues again exactly what is missing (waiting, or claimed by a worker whose lease lapsed). A run its budget
   * paused goes on too; its next call that could exceed the budget pauses it again.
   */
  async resume(runId: string): Promise<{ run: Run; affectedCount: number }> {
    const run = await this.runs.get(runId);
    if (run.status === RunStatus.SUCCEEDED) return { run, affectedCount: 0 };
    return this.requeue(
      runId,
      `status = 'PENDING' OR (status = 'RUNNING' AND ${leaseLapsed("completion")})`,
      false,
    );
  }

  /**
   * Puts failed items back in the queue (their attempts and last error are kept until they succeed), with
   * everything else still missing: a run the circuit breaker stopped also has items it never got to.
   */
  async retryFailed(runId: string): Promise<{ run: Run; affectedCount: number }> {
    await this.runs.get(runId);
    return this.requeue(
      runId,
      `status IN ('FAILED', 'PENDING') OR (status = 'RUNNING' AND ${leaseLapsed("completion")})`,
      true,
    );
  }

  private async requeue(
    runId: string,
    which: string,
    resetFailed: boolean,
  ): Promise<{ run: Run; affectedCount: number }> {
    const affected = await this.dataSource.transaction(async (manager) => {
      const rows: { id: string; was: string }[] = await manager.query(
        `WITH target AS (
           SELECT id, status::text AS was FROM completion WHERE run_id = $1 AND (${which}) FOR UPDATE
         ), updated AS (
           UPDATE completion SET status = 'PENDING', lease_token = NULL, lease_until = NULL, lease_owner = NULL
           FROM target WHERE completion.id = target.id
           RETURNING completion.id, target.was
         )
         SELECT id, was FROM updated`,
        [runId],
      );
      const failed = rows.filter((row) => row.was === "FAILED").length;
      if (rows.length > 0) {
        await manager.query(
          `UPDATE run
           SET status = CASE WHEN status IN ('CANCELLED', 'FAILED', 'PAUSED_BUDGET') THEN 'QUEUED'::run_status_enum
                             ELSE status END,
               waiting_reason = CASE WHEN status = 'PAUSED_BUDGET' THEN NULL ELSE waiting_reason END,
               finished_at = NULL, consecutive_failures = 0, failed_count = failed_count - $2
           WHERE id = $1`,
          [runId, resetFailed ? failed : 0],
        );
      }
      const run = await manager.findOneByOrFail(Run, { id: runId });
      await this.queue.enqueue(
        "completion",
        rows.map(({ id }) => ({ completionId: String(id), provider: run.provider })),
        { transaction: manager },
      );
      return rows.length;
    });
    this.queue.wake();
    return { run: await this.runs.get(runId), affectedCount: affected };
  }
}

/**
 * A budget bounds calls by their prices: a provider with no price for the model (or one only a worker elsewhere is
 * configured for, whose prices this process cannot see) refuses one.
 */
export function checkPriced(provider: ProviderConfig | null, name: string, model: string): void {
  if (!provider)
    throw new BadInputError(
      `maxCostUsd: provider "${name}" is not configured in this process, so its prices cannot be checked; a ` +
        "budget needs the provider (with prices) in this process's MEMICL_PROVIDERS_FILE",
      { field: "maxCostUsd" },
    );
  if (!provider.prices[model])
    throw new BadInputError(
      `maxCostUsd: provider "${name}" has no price for model "${model}" (priced: ` +
        `${Object.keys(provider.prices).join(", ") || "none"}); a budget bounds calls by their prices: add ` +
        `prices."${model}" (inputPerMillion, outputPerMillion) to the provider's configuration`,
      { field: "maxCostUsd" },
    );
}

/**
 * The batches an item of a new run may go through (0: called online). A run asks for batch execution, or takes
 * its provider's `batch` option; a provider without one (or one this process has no configuration of) refuses.
 */
export function batchAttemptsOf(
  provider: ProviderConfig | null,
  name: string,
  batch: boolean | null,
): number {
  const options = batchOptionsOf(provider);
  if (batch === false || (batch === null && !options)) return 0;
  if (!options)
    throw new BadInputError(
      `batch: provider "${name}" has no Batch API configured ${provider ? "" : "in this process "}(give it ` +
        '"batch": true in the providers file; the simulated provider has none)',
      { field: "batch" },
    );
  return options.attempts;
}

/** Names for an error: the closest few, not every one (a lab's file can configure dozens). */
function listed(names: readonly string[], most = 8): string {
  return names.length > most
    ? `${names.slice(0, most).join(", ")} and ${names.length - most} more (memicl providers lists them)`
    : names.join(", ");
}
