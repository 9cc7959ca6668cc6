import { DataSource } from "typeorm";
import { DatasetService } from "../dataset/dataset.service";
import { DatasetImportService } from "../dataset/import/dataset-import.service";
import { SampleService } from "../sample/sample.service";
import { PromptService } from "../template/prompt.service";
import { TemplateService } from "../template/template.service";

/** Every service, built once per process around one data source. */
export interface Services {
  dataSource: DataSource;
  datasets: DatasetService;
  datasetImport: DatasetImportService;
  samples: SampleService;
  templates: TemplateService;
  prompts: PromptService;
}

export function createServices(dataSource: DataSource): Services {
  const datasets = new DatasetService(dataSource);
  const samples = new SampleService(dataSource, datasets);
  const templates = new TemplateService(dataSource);
  return {
    dataSource,
    datasets,
    datasetImport: new DatasetImportService(dataSource),
    samples,
    templates,
    prompts: new PromptService(dataSource, samples, datasets, templates),
  };
}
