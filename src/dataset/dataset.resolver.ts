import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import { BadInputError } from "../common/errors";
import { ConnectionType } from "../graphql/connection";
import { Context } from "../graphql/context";
import { PageArgs } from "../graphql/page-args";
import { Dataset } from "./dataset.entity";
import {
  DatasetFilter,
  ImportDatasetInput,
  ImportDatasetPayload,
  InstanceFilter,
  LabelCount,
  UpdateDatasetInput,
} from "./dataset.inputs";
import { DatasetSource } from "./dataset-source.entity";
import { inlineSource } from "./import/import-source";
import { Instance } from "./instance.entity";

export const DatasetConnection = ConnectionType("Dataset", Dataset);
export const InstanceConnection = ConnectionType("Instance", Instance);

@Resolver(() => Dataset)
export class DatasetResolver {
  @Query(() => DatasetConnection, { description: "Datasets by name." })
  datasets(
    @Args() { first, after }: PageArgs,
    @Arg("filter", () => DatasetFilter, { nullable: true }) filter: DatasetFilter | undefined,
    @Ctx() { services }: Context,
  ) {
    return services.datasets.list(first, after ?? null, filter);
  }

  @Query(() => Int, { description: "How many datasets match the filter." })
  datasetCount(
    @Arg("filter", () => DatasetFilter, { nullable: true }) filter: DatasetFilter | undefined,
    @Ctx() { services }: Context,
  ) {
    return services.datasets.count(filter);
  }

  @Query(() => Dataset)
  dataset(@Arg("id", () => ID) id: string, @Ctx() { services }: Context) {
    return services.datasets.get(id);
  }

  @FieldResolver(() => InstanceConnection, { description: "Instances in import order." })
  instances(
    @Root() dataset: Dataset,
    @Args() { first, after }: PageArgs,
    @Arg("filter", () => InstanceFilter, { nullable: true }) filter: InstanceFilter | undefined,
    @Ctx() { loaders }: Context,
  ) {
    return loaders.instancePage.load({
      datasetId: dataset.id,
      first,
      after: after ?? null,
      filter: { ...filter },
    });
  }

  @FieldResolver(() => Int, { description: "Instances matching the filter (all of them without one)." })
  instanceCount(
    @Root() dataset: Dataset,
    @Arg("filter", () => InstanceFilter, { nullable: true }) filter: InstanceFilter | undefined,
    @Ctx() { loaders }: Context,
  ) {
    return loaders.instanceCount.load({ datasetId: dataset.id, filter: { ...filter } });
  }

  @FieldResolver(() => [LabelCount], {
    description: "The label set, each label with its verbalizer and count.",
  })
  labels(@Root() dataset: Dataset, @Ctx() { loaders }: Context) {
    return loaders.labelCounts.load(dataset);
  }

  @Mutation(() => Dataset, {
    description:
      "Sets how prompts name the dataset and its labels (verbalizers), and which dataset it is the control of.",
  })
  updateDataset(@Arg("input") input: UpdateDatasetInput, @Ctx() { services }: Context) {
    return services.datasets.update(input.id, {
      promptName: input.promptName,
      labelVerbalizers: input.labelVerbalizers,
      controlOf: input.controlOf,
    });
  }

  @FieldResolver(() => Dataset, {
    nullable: true,
    description: "The dataset this one is the control of, if any.",
  })
  async controlOf(@Root() dataset: Dataset, @Ctx() { loaders }: Context): Promise<Dataset | null> {
    return dataset.controlOfId ? loaders.dataset.load(dataset.controlOfId) : null;
  }

  @FieldResolver(() => [DatasetSource], { description: "The files imported into this dataset." })
  sources(@Root() dataset: Dataset, @Ctx() { loaders }: Context) {
    return loaders.datasetSources.load(dataset.id);
  }

  @Mutation(() => ImportDatasetPayload, {
    description:
      "Imports a small file sent inline, in one transaction. Re-sending the same file changes nothing.",
  })
  async importDataset(
    @Arg("input") input: ImportDatasetInput,
    @Ctx() { services, config }: Context,
  ): Promise<ImportDatasetPayload> {
    if (Buffer.byteLength(input.content) > config.maxInlineImportBytes) {
      throw new BadInputError(
        `content is larger than ${config.maxInlineImportBytes} bytes; import large files with \`memicl import\``,
        { field: "content" },
      );
    }
    const result = await services.datasetImport.importDataset(
      inlineSource(input.fileName ?? `${input.name}.${input.format}`, input.content),
      {
        datasetName: input.name,
        format: input.format,
        split: input.split,
        textFields: input.textFields,
        labelField: input.labelField,
        idField: input.idField,
        columns: input.columns,
        trecLabels: input.trecLabels,
        allowNewLabels: input.allowNewLabels,
        maxFieldBytes: config.maxFieldBytes,
      },
    );
    return {
      dataset: result.dataset,
      source: result.source,
      alreadyImported: result.alreadyImported,
      rowCount: result.rowCount,
    };
  }
}
