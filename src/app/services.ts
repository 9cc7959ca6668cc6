import { DataSource } from "typeorm";
import { ApiKeyService } from "../auth/api-key.service";
import { CompletionService } from "../completion/completion.service";
import { CompletionExecutor } from "../completion/completion-executor";
import { Config } from "../config/config";
import { DatasetService } from "../dataset/dataset.service";
import { DatasetImportService } from "../dataset/import/dataset-import.service";
import { DeletionService } from "../deletion/deletion.service";
import { ExperimentService } from "../experiment/experiment.service";
import { JudgmentService } from "../judgment/judgment.service";
import { JudgmentExecutor } from "../judgment/judgment-executor";
import { ProviderRegistry } from "../llm/provider-registry";
import { Logger } from "../logging/logger";
import { JobQueue } from "../queue/job-queue";
import { PgBossQueue } from "../queue/pg-boss-queue";
import { ReportService } from "../report/report.service";
import { ReportRowService } from "../report/report-row.service";
import { ProgressHub } from "../run/progress";
import { RunService } from "../run/run.service";
import { RunLifecycle } from "../run/run-lifecycle";
import { SampleService } from "../sample/sample.service";
import { PromptService } from "../template/prompt.service";
import { TemplateService } from "../template/template.service";
import { HeldClaims } from "../worker/held-claims";
import { WorkerService } from "../worker/worker.service";
import { WorkerRegistration } from "../worker/worker-registry";

/**
 * The composition root: what each process builds around one database. Core services read and write the study's
 * records and load neither pg-boss nor openai; run services add the queue, the providers and what works on
 * them. `memicl serve` and the commands that queue or make calls build both; read-only commands build the core.
 */
export interface CoreServices {
  dataSource: DataSource;
  apiKeys: ApiKeyService;
  deletions: DeletionService;
  datasets: DatasetService;
  datasetImport: DatasetImportService;
  samples: SampleService;
  templates: TemplateService;
  prompts: PromptService;
  experiments: ExperimentService;
  runs: RunService;
  completions: CompletionService;
  report: ReportService;
  /** The report as flat rows, kept current. */
  reportRows: ReportRowService;
  workers: WorkerService;
}

export interface RunServices {
  providers: ProviderRegistry;
  queue: JobQueue;
  runLifecycle: RunLifecycle;
  executor: CompletionExecutor;
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

export function createCoreServices(dataSource: DataSource, config: Config): CoreServices {
  const datasets = new DatasetService(dataSource);
  const samples = new SampleService(dataSource, datasets);
  const templates = new TemplateService(dataSource);
  const report = new ReportService(dataSource);
  return {
    dataSource,
    apiKeys: new ApiKeyService(dataSource),
    deletions: new DeletionService(dataSource),
    datasets,
    datasetImport: new DatasetImportService(dataSource),
    samples,
    templates,
    prompts: new PromptService(dataSource, samples, datasets, templates),
    experiments: new ExperimentService(dataSource),
    runs: new RunService(dataSource),
    completions: new CompletionService(dataSource),
    report,
    reportRows: new ReportRowService(dataSource, report),
    workers: new WorkerService(dataSource, config.providers, { leaseSeconds: config.leaseSeconds }),
  };
}

export function createRunServices(
  core: CoreServices,
  database: DatabaseHandle,
  config: Config,
  logger: Logger,
): RunServices {
  const { dataSource, samples, prompts, templates, runs } = core;
  const providers = new ProviderRegistry(config.providers, dataSource);
  const queue = new PgBossQueue(database.url, logger);
  const held = new HeldClaims();
  const worker = new WorkerRegistration(
    dataSource,
    queue,
    logger,
    { leaseSeconds: config.leaseSeconds },
    held,
  );
  return {
    providers,
    queue,
    runLifecycle: new RunLifecycle(
      dataSource,
      runs,
      samples,
      prompts,
      providers,
      queue,
      templates,
      config.leaseSeconds,
    ),
    executor: new CompletionExecutor(
      dataSource,
      prompts,
      providers,
      config.leaseSeconds,
      logger,
      queue,
      worker.id,
      held,
    ),
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
