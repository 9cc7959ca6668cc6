import type { DataSource } from "typeorm";
import type { ApiKeyService } from "../auth/api-key.service";
import type { CompletionService } from "../completion/completion.service";
import type { Config } from "../config/config";
import type { DatasetService } from "../dataset/dataset.service";
import type { DatasetImportService } from "../dataset/import/dataset-import.service";
import type { DeletionService } from "../deletion/deletion.service";
import type { ExperimentService } from "../experiment/experiment.service";
import type { OptionSetService } from "../option-set/option-set.service";
import type { ReportService } from "../report/report.service";
import type { ReportRowService } from "../report/report-row.service";
import type { RunService } from "../run/run.service";
import type { SampleService } from "../sample/sample.service";
import type { PromptService } from "../template/prompt.service";
import type { TemplateService } from "../template/template.service";
import type { WorkerService } from "../worker/worker.service";

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

/**
 * Builds the core services, each on its first use: a command loads the modules of the services it reads and no
 * others (`memicl migrate` or `import` never loads the report, the judge or the metrics; about 0.3 s of CPU a
 * command, docs/BENCHMARKS.md). Each service is built once; `memicl serve` reads them all at its start.
 */
export function createCoreServices(dataSource: DataSource, config: Config): CoreServices {
  const services = { dataSource } as CoreServices;
  const lazy = <K extends Exclude<keyof CoreServices, "dataSource">>(
    name: K,
    build: () => CoreServices[K],
  ) => {
    let built: CoreServices[K] | undefined;
    Object.defineProperty(services, name, {
      enumerable: true,
      get: () => {
        built ??= build();
        return built;
      },
    });
  };
  lazy("apiKeys", () => new (modules.apiKeys().ApiKeyService)(dataSource));
  lazy("deletions", () => new (modules.deletions().DeletionService)(dataSource));
  lazy("datasets", () => new (modules.datasets().DatasetService)(dataSource));
  lazy("datasetImport", () => new (modules.datasetImport().DatasetImportService)(dataSource));
  lazy("samples", () => new (modules.samples().SampleService)(dataSource, services.datasets));
  lazy("templates", () => new (modules.templates().TemplateService)(dataSource));
  lazy(
    "prompts",
    () =>
      new (modules.prompts().PromptService)(
        dataSource,
        services.samples,
        services.datasets,
        services.templates,
      ),
  );
  lazy("experiments", () => new (modules.experiments().ExperimentService)(dataSource));
  lazy("runs", () => new (modules.runs().RunService)(dataSource));
  lazy("completions", () => new (modules.completions().CompletionService)(dataSource));
  lazy(
    "report",
    () =>
      new (modules.report().ReportService)(dataSource, services.samples.floors, config.resultsSpacingFactor),
  );
  lazy("reportRows", () => new (modules.reportRows().ReportRowService)(dataSource, services.report));
  lazy(
    "workers",
    () =>
      new (modules.workers().WorkerService)(dataSource, config.providers, {
        leaseSeconds: config.leaseSeconds,
      }),
  );
  lazy("optionSets", () => new (modules.optionSets().OptionSetService)(dataSource));
  return services;
}

/** Each service's module, required when the service is first built (the types above are erased at compile time). */
const modules = {
  apiKeys: () => require("../auth/api-key.service") as typeof import("../auth/api-key.service"),
  deletions: () => require("../deletion/deletion.service") as typeof import("../deletion/deletion.service"),
  datasets: () => require("../dataset/dataset.service") as typeof import("../dataset/dataset.service"),
  datasetImport: () =>
    require("../dataset/import/dataset-import.service") as typeof import("../dataset/import/dataset-import.service"),
  samples: () => require("../sample/sample.service") as typeof import("../sample/sample.service"),
  templates: () => require("../template/template.service") as typeof import("../template/template.service"),
  prompts: () => require("../template/prompt.service") as typeof import("../template/prompt.service"),
  experiments: () =>
    require("../experiment/experiment.service") as typeof import("../experiment/experiment.service"),
  runs: () => require("../run/run.service") as typeof import("../run/run.service"),
  completions: () =>
    require("../completion/completion.service") as typeof import("../completion/completion.service"),
  report: () => require("../report/report.service") as typeof import("../report/report.service"),
  reportRows: () => require("../report/report-row.service") as typeof import("../report/report-row.service"),
  workers: () => require("../worker/worker.service") as typeof import("../worker/worker.service"),
  optionSets: () =>
    require("../option-set/option-set.service") as typeof import("../option-set/option-set.service"),
};
