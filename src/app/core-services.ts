import { DataSource } from "typeorm";
import { ApiKeyService } from "../auth/api-key.service";
import { CompletionService } from "../completion/completion.service";
import { Config } from "../config/config";
import { DatasetService } from "../dataset/dataset.service";
import { DatasetImportService } from "../dataset/import/dataset-import.service";
import { DeletionService } from "../deletion/deletion.service";
import { ExperimentService } from "../experiment/experiment.service";
import { OptionSetService } from "../option-set/option-set.service";
import { ReportService } from "../report/report.service";
import { ReportRowService } from "../report/report-row.service";
import { RunService } from "../run/run.service";
import { SampleService } from "../sample/sample.service";
import { PromptService } from "../template/prompt.service";
import { TemplateService } from "../template/template.service";
import { WorkerService } from "../worker/worker.service";

/**
 * The composition root: what each process builds around one database. Core services read and write the study's
 * records and load neither pg-boss nor openai; run services add the queue, the providers and what works on
 * them. `memicl serve` builds both; a command that writes builds the core and the run services on its first use
 * of one (src/cli/open-database.ts); read-only commands build the core.
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
  optionSets: OptionSetService;
}

export function createCoreServices(dataSource: DataSource, config: Config): CoreServices {
  const datasets = new DatasetService(dataSource);
  const samples = new SampleService(dataSource, datasets);
  const templates = new TemplateService(dataSource);
  const report = new ReportService(dataSource, samples.floors, config.resultsSpacingFactor);
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
    optionSets: new OptionSetService(dataSource),
  };
}
