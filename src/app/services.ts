import { DataSource } from "typeorm";
import { BatchCoordinator } from "../batch/batch-coordinator";
import { BudgetService } from "../budget/budget.service";
import { CompletionExecutor } from "../completion/completion-executor";
import { Config } from "../config/config";
import { JudgmentService } from "../judgment/judgment.service";
import { JudgmentExecutor } from "../judgment/judgment-executor";
import { ProviderRegistry } from "../llm/provider-registry";
import { Logger } from "../logging/logger";
import { JobQueue } from "../queue/job-queue";
import { PgBossQueue } from "../queue/pg-boss-queue";
import { ProgressHub } from "../run/progress";
import { RunLifecycle } from "../run/run-lifecycle";
import { HeldClaims } from "../worker/held-claims";
import { WorkerRegistration } from "../worker/worker-registry";

import { CoreServices, createCoreServices } from "./core-services";

/** What a process adds to the core (src/app/core-services.ts) to queue work, call models and work on the queue. */
export interface RunServices {
  providers: ProviderRegistry;
  queue: JobQueue;
  runLifecycle: RunLifecycle;
  budgets: BudgetService;
  executor: CompletionExecutor;
  /** Forms, submits, polls and collects provider batches (batch runs), in a process that works on the queue. */
  batches: BatchCoordinator;
  judgments: JudgmentService;
  judgmentExecutor: JudgmentExecutor;
  /** This process as a worker (registered only when it works on the queue). */
  worker: WorkerRegistration;
  /** Live progress for subscriptions: one poller per watched run or experiment. */
  progress: ProgressHub;
  /** Stops what the services started (workers, the queue); the caller closes the database. */
  close(): Promise<void>;
}

export type Services = CoreServices & RunServices;

/** What the services need of the opened database (src/db/database.ts opens it). */
export interface DatabaseHandle {
  dataSource: DataSource;
  /** The connection URL, for the queue's own connections. */
  url: string;
}

export function createRunServices(
  core: CoreServices,
  database: DatabaseHandle,
  config: Config,
  logger: Logger,
): RunServices {
  const { dataSource, samples, prompts, templates, runs } = core;
  const providers = new ProviderRegistry(config.providers, dataSource);
  const queue = new PgBossQueue(database.url, logger, config.queuePoolSize);
  const held = new HeldClaims();
  const worker = new WorkerRegistration(
    dataSource,
    queue,
    logger,
    { leaseSeconds: config.leaseSeconds },
    held,
  );
  const executor = new CompletionExecutor(
    dataSource,
    prompts,
    providers,
    config.leaseSeconds,
    logger,
    queue,
    worker.id,
    held,
  );
  const runLifecycle = new RunLifecycle(
    dataSource,
    runs,
    samples,
    prompts,
    providers,
    queue,
    templates,
    config.leaseSeconds,
  );
  return {
    providers,
    queue,
    runLifecycle,
    budgets: new BudgetService(dataSource, runs, core.experiments, runLifecycle),
    executor,
    batches: new BatchCoordinator(dataSource, providers, executor, queue, logger, worker.id),
    judgments: new JudgmentService(dataSource, providers, queue, templates),
    judgmentExecutor: new JudgmentExecutor(dataSource, providers, templates),
    worker,
    progress: new ProgressHub(),
    close: async () => {
      await queue.stop();
      await worker.stop();
    },
  };
}

/** Every service, for a process that serves the API or works on the queue. */
export function createServices(database: DatabaseHandle, config: Config, logger: Logger): Services {
  const core = createCoreServices(database.dataSource, config);
  return { ...core, ...createRunServices(core, database, config, logger) };
}
