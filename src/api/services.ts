import { DataSource } from "typeorm";
import { Config } from "../config/config";
import { DatasetService } from "../dataset/dataset.service";
import { DatasetImportService } from "../dataset/import/dataset-import.service";
import { Database } from "../db/database";
import { JudgmentService } from "../judgment/judgment.service";
import { JudgmentExecutor } from "../judgment/judgment-executor";
import { ProviderRegistry } from "../llm/provider-registry";
import { Logger } from "../logging/logger";
import { ResultService } from "../metric/result.service";
import { JobQueue, PgBossQueue } from "../queue/job-queue";
import { CompletionExecutor } from "../run/completion-executor";
import { RunService } from "../run/run.service";
import { SampleService } from "../sample/sample.service";
import { PromptService } from "../template/prompt.service";
import { TemplateService } from "../template/template.service";

/** Every service, built once per process around one database. */
export interface Services {
  dataSource: DataSource;
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
  /** Stops what the services started (the queue); the caller closes the database. */
  close(): Promise<void>;
}

export function createServices(database: Database, config: Config, logger: Logger): Services {
  const dataSource = database.dataSource;
  const datasets = new DatasetService(dataSource);
  const samples = new SampleService(dataSource, datasets);
  const templates = new TemplateService(dataSource);
  const prompts = new PromptService(dataSource, samples, datasets, templates);
  const providers = new ProviderRegistry(config.providers, dataSource);
  const queue = new PgBossQueue(database.url, logger, config.leaseSeconds);
  return {
    dataSource,
    datasets,
    datasetImport: new DatasetImportService(dataSource),
    samples,
    templates,
    prompts,
    providers,
    queue,
    runs: new RunService(dataSource, samples, prompts, providers, queue, templates),
    executor: new CompletionExecutor(dataSource, prompts, providers, config.leaseSeconds, logger, queue),
    judgments: new JudgmentService(dataSource, providers, queue, templates),
    judgmentExecutor: new JudgmentExecutor(dataSource, providers, templates),
    results: new ResultService(dataSource),
    close: () => queue.stop(),
  };
}

/** Works on completions in this process until `services.close()`. */
export async function startWorkers(services: Services, config: Config, concurrency: number): Promise<void> {
  const providerConcurrency = Object.fromEntries(
    Object.values(config.providers).map((provider) => [provider.name, provider.maxConcurrency]),
  );
  await services.queue.start();
  await services.queue.work(
    "completion",
    (jobs) => services.executor.executeBatch(jobs.map((job) => job.completionId)),
    {
      concurrency,
      providerConcurrency,
    },
  );
  await services.queue.work("judgment", (jobs) => services.judgmentExecutor.executeBatch(jobs), {
    concurrency,
    providerConcurrency,
  });
}
