import { DataSource } from "typeorm";
import { ApiKeyService } from "../auth/api-key.service";
import { Config } from "../config/config";
import { DatasetService } from "../dataset/dataset.service";
import { DatasetImportService } from "../dataset/import/dataset-import.service";
import { Database } from "../db/database";
import { JudgmentService } from "../judgment/judgment.service";
import { JudgmentExecutor } from "../judgment/judgment-executor";
import { DeletionService } from "../lifecycle/deletion.service";
import { ProviderRegistry } from "../llm/provider-registry";
import { Logger } from "../logging/logger";
import { JobQueue, PgBossQueue } from "../queue/job-queue";
import { MetricService } from "../results/metric.service";
import { ResultService } from "../results/result.service";
import { CompletionExecutor } from "../run/completion-executor";
import { ProgressHub } from "../run/progress";
import { RunService } from "../run/run.service";
import { SampleService } from "../sample/sample.service";
import { PromptService } from "../template/prompt.service";
import { TemplateService } from "../template/template.service";
import { HeldClaims } from "../worker/held-claims";
import { WorkerService } from "../worker/worker.service";
import { WorkerRegistration } from "../worker/worker-registry";

/** Every service, built once per process around one database. */
export interface Services {
  dataSource: DataSource;
  apiKeys: ApiKeyService;
  deletions: DeletionService;
  datasets: DatasetService;
  datasetImport: DatasetImportService;
  samples: SampleService;
  templates: TemplateService;
  prompts: PromptService;
  providers: ProviderRegistry;
  queue: JobQueue;
  runs: RunService;
  executor: CompletionExecutor;
  judgments: JudgmentService;
  judgmentExecutor: JudgmentExecutor;
  results: ResultService;
  /** The study report as flat metric rows, kept current. */
  metrics: MetricService;
  /** This process as a worker (registered only when it works on the queue). */
  worker: WorkerRegistration;
  /** Live progress for subscriptions: one poller per watched run or experiment. */
  progress: ProgressHub;
  workers: WorkerService;
  /** Stops what the services started (workers, the queue); the caller closes the database. */
  close(): Promise<void>;
}

export function createServices(database: Database, config: Config, logger: Logger): Services {
  const dataSource = database.dataSource;
  const datasets = new DatasetService(dataSource);
  const samples = new SampleService(dataSource, datasets);
  const templates = new TemplateService(dataSource);
  const prompts = new PromptService(dataSource, samples, datasets, templates);
  const providers = new ProviderRegistry(config.providers, dataSource);
  const queue = new PgBossQueue(database.url, logger);
  const results = new ResultService(dataSource);
  const held = new HeldClaims();
  const worker = new WorkerRegistration(
    dataSource,
    queue,
    logger,
    { leaseSeconds: config.leaseSeconds },
    held,
  );
  return {
    dataSource,
    apiKeys: new ApiKeyService(dataSource),
    deletions: new DeletionService(dataSource),
    datasets,
    datasetImport: new DatasetImportService(dataSource),
    samples,
    templates,
    prompts,
    providers,
    queue,
    runs: new RunService(dataSource, samples, prompts, providers, queue, templates, config.leaseSeconds),
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
    results,
    metrics: new MetricService(dataSource, results),
    worker,
    progress: new ProgressHub(),
    workers: new WorkerService(dataSource, providers, { leaseSeconds: config.leaseSeconds }),
    close: async () => {
      await queue.stop();
      await worker.stop();
    },
  };
}
