import { DataSource } from "typeorm";
import { DatasetService } from "../dataset/dataset.service";
import { DatasetImportService } from "../dataset/import/dataset-import.service";

/** Every service, built once per process around one data source. */
export interface Services {
  dataSource: DataSource;
  datasets: DatasetService;
  datasetImport: DatasetImportService;
}

export function createServices(dataSource: DataSource): Services {
  return {
    dataSource,
    datasets: new DatasetService(dataSource),
    datasetImport: new DatasetImportService(dataSource),
  };
}
