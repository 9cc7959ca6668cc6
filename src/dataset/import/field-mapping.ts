import { LONE_SURROGATE } from "../../common/secrets";
import { TaskKind } from "../../study/task";
import { ImportError } from "./import.errors";
import { RawRecord } from "./import-format";

export interface FieldMappingOptions {
  textFields?: string[];
  labelField?: string;
  idField?: string;
}

export interface FieldMapping {
  textFields: string[];
  labelField: string;
  idField: string | null;
  taskKind: TaskKind;
}

/** One row, mapped to the dataset's shape. */
export interface MappedRow {
  line: number;
  text: string;
  secondText: string | null;
  label: string;
  externalId: string | null;
}

const TEXT_FIELD_GUESSES = [
  ["sentence1", "sentence2"],
  ["premise", "hypothesis"],
  ["question1", "question2"],
  ["text"],
  ["sentence"],
  ["question"],
  ["content"],
];
const ID_FIELD_GUESSES = ["idx", "id", "index", "guid"];

/** Decides the mapping from the first record's fields and the user's options. */
export function resolveFieldMapping(first: RawRecord, options: FieldMappingOptions): FieldMapping {
  const available = Object.keys(first.fields);
  const has = (name: string) => available.includes(name);
  // Field names as a reader can take them in: each cut at 60 characters, at most 20 of them (a header of one
  // 5 MB field name made a 5 MB error).
  const shown = available.slice(0, 20).map((name) => (name.length > 60 ? `${name.slice(0, 60)}...` : name));
  const more = available.length > 20 ? ` and ${available.length - 20} more` : "";
  const listed = `the fields are: ${shown.join(", ")}${more}`;

  const textFields = options.textFields ?? TEXT_FIELD_GUESSES.find((guess) => guess.every(has));
  if (!textFields)
    throw new ImportError(
      first.line,
      `cannot tell which field holds the text; pass the text fields (${listed})`,
    );
  if (textFields.length < 1 || textFields.length > 2) {
    throw new ImportError(first.line, "give one text field (classification) or two (NLI)");
  }
  for (const name of textFields) {
    if (!has(name)) throw new ImportError(first.line, `no text field "${name}" (${listed})`);
  }
  const labelField = options.labelField ?? "label";
  if (!has(labelField)) throw new ImportError(first.line, `no label field "${labelField}" (${listed})`);
  const idField = options.idField ?? ID_FIELD_GUESSES.find(has) ?? null;
  if (idField !== null && !has(idField))
    throw new ImportError(first.line, `no id field "${idField}" (${listed})`);

  return {
    textFields,
    labelField,
    idField,
    taskKind: textFields.length === 2 ? TaskKind.NLI : TaskKind.CLASSIFICATION,
  };
}

/** Maps and checks one record; a missing label or an empty text is an error naming the line. */
export function mapRecord(record: RawRecord, mapping: FieldMapping): MappedRow {
  const text = requiredText(record, mapping.textFields[0]);
  const secondText = mapping.textFields.length === 2 ? requiredText(record, mapping.textFields[1]) : null;
  const label = scalar(record, mapping.labelField).trim();
  if (label === "") throw new ImportError(record.line, `missing label in field "${mapping.labelField}"`);
  if (label.length > 200) throw new ImportError(record.line, "label longer than 200 characters");
  storable(record, mapping.labelField, label);
  const externalId = mapping.idField ? scalar(record, mapping.idField).trim() || null : null;
  if (externalId !== null && externalId.length > 200)
    throw new ImportError(record.line, "id longer than 200 characters");
  if (externalId !== null) storable(record, mapping.idField!, externalId);
  return { line: record.line, text, secondText, label, externalId };
}

function requiredText(record: RawRecord, field: string): string {
  const value = scalar(record, field).trim();
  if (value === "") throw new ImportError(record.line, `empty text in field "${field}"`);
  storable(record, field, value);
  return value;
}

/** A value PostgreSQL can store as it is: no NUL, no lone UTF-16 surrogate (JSON's "\ud800" is not a character). */
function storable(record: RawRecord, field: string, value: string): void {
  if (value.includes("\u0000")) throw new ImportError(record.line, `NUL character in field "${field}"`);
  const surrogate = value.match(LONE_SURROGATE);
  if (surrogate)
    throw new ImportError(
      record.line,
      `a lone UTF-16 surrogate (\\u${surrogate[0].charCodeAt(0).toString(16)}) in field "${field}": not a character`,
    );
}

/** A field as text: strings and numbers as they are; a JSON object, array or boolean is refused, not stringified. */
function scalar(record: RawRecord, field: string): string {
  const value = record.fields[field];
  if (value === undefined || value === null) return "";
  if (typeof value === "object")
    throw new ImportError(
      record.line,
      `field "${field}" holds a JSON ${Array.isArray(value) ? "array" : "object"}, not text`,
    );
  if (typeof value === "boolean")
    throw new ImportError(record.line, `field "${field}" holds a boolean, not text`);
  return String(value);
}
