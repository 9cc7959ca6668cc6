import {
  ArrayMaxSize,
  ArrayMinSize,
  IsIn,
  IsOptional,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from "class-validator";
import { Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { TaskKind } from "../study/task";
import { Dataset } from "./dataset.entity";
import { DatasetSource } from "./dataset-source.entity";
import { IMPORT_FORMATS, ImportFormat } from "./import/import-format";

@InputType()
export class DatasetFilter {
  @Field(() => String, { nullable: true, description: "Case-insensitive substring of the name." })
  @IsOptional()
  @MaxLength(200)
  nameContains?: string;

  @Field(() => TaskKind, { nullable: true })
  @IsOptional()
  taskKind?: TaskKind;
}

@InputType()
export class InstanceFilter {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(200)
  label?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(50)
  split?: string;
}

@ObjectType({ description: "A label with its verbalizer and how many instances carry it." })
export class LabelCount {
  @Field()
  label: string;

  @Field()
  verbalizer: string;

  @Field(() => Int)
  count: number;
}

@InputType({
  description: "A small file's content, sent inline. Large files go through `memicl import`, streamed.",
})
export class ImportDatasetInput {
  @Field({ description: "Dataset to create, or to add this file to." })
  @Matches(/^[\w.-]{1,200}$/, { message: "name: 1-200 letters, digits, '_', '.' or '-'" })
  name: string;

  @Field({ description: "The file's text (UTF-8)." })
  @Length(1, Number.MAX_SAFE_INTEGER)
  content: string;

  @Field(() => String, { description: `One of ${IMPORT_FORMATS.join(", ")}.` })
  @IsIn(IMPORT_FORMATS)
  format: ImportFormat;

  @Field({ defaultValue: "train" })
  @Matches(/^[\w-]{1,50}$/, { message: "split: 1-50 letters, digits, '_' or '-'" })
  split: string;

  @Field(() => String, { nullable: true, description: "Shown as the source's file name." })
  @IsOptional()
  @MaxLength(500)
  fileName?: string;

  @Field(() => [String], {
    nullable: true,
    description: "One field (classification) or two (NLI); guessed when absent.",
  })
  @IsOptional()
  @ArrayMinSize(1)
  @ArrayMaxSize(2)
  textFields?: string[];

  @Field(() => String, { nullable: true, defaultValue: "label" })
  @IsOptional()
  @MaxLength(200)
  labelField?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(200)
  idField?: string;

  @Field(() => [String], { nullable: true, description: "Column names of a CSV/TSV that has no header row." })
  @IsOptional()
  @ArrayMaxSize(100)
  columns?: string[];

  @Field(() => String, { nullable: true, description: "TREC: `coarse` (default) or `fine` labels." })
  @IsOptional()
  @IsIn(["coarse", "fine"])
  trecLabels?: "coarse" | "fine";

  @Field(() => Boolean, {
    defaultValue: false,
    description:
      "Adding to an existing dataset: accept labels it does not have. Without it, a row with an unknown label " +
      "refuses the whole file (it is probably another dataset's).",
  })
  allowNewLabels: boolean;
}

@ObjectType()
export class ImportDatasetPayload {
  @Field(() => Dataset)
  dataset: Dataset;

  @Field(() => DatasetSource)
  source: DatasetSource;

  @Field({
    description: "True when this exact file, read the same way, was imported before; nothing was added.",
  })
  alreadyImported: boolean;

  @Field(() => Int, { description: "Rows in the file." })
  rowCount: number;
}

@InputType()
export class LabelVerbalizerInput {
  @Field()
  @MaxLength(200)
  label: string;

  @Field()
  @Length(1, 200)
  verbalizer: string;
}

@InputType({ description: "How prompts name the dataset and its labels." })
export class UpdateDatasetInput {
  @Field(() => ID)
  id: string;

  @Field(() => String, {
    nullable: true,
    description: "Shown as {{dataset}} in prompts; null or empty resets to the name.",
  })
  @IsOptional()
  @MaxLength(200)
  promptName?: string | null;

  @Field(() => [LabelVerbalizerInput], {
    nullable: true,
    description: "Changes to verbalizers; labels not listed keep theirs.",
  })
  @IsOptional()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  labelVerbalizers?: LabelVerbalizerInput[];

  @Field(() => ID, {
    nullable: true,
    description:
      "Marks this dataset as the control of another (data the model cannot have memorized: published after its " +
      "cutoff, or never published); the report then sets each rate of that dataset against this one's. Null " +
      "clears it.",
  })
  @IsOptional()
  controlOf?: string | null;
}
