/** A small NLI CSV: `rows` sentence pairs alternating two labels. */
export function nliCsv(rows: number, labels = ["entailment", "not_entailment"]): string {
  const lines = ["sentence1,sentence2,label,idx"];
  for (let i = 0; i < rows; i += 1) {
    lines.push(
      `"Premise number ${i}, with a comma.",Hypothesis number ${i}.,${labels[i % labels.length]},${i}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** A classification JSONL with `rows` texts cycling through `labels`. */
export function classificationJsonl(rows: number, labels = ["a", "b", "c"]): string {
  const lines: string[] = [];
  for (let i = 0; i < rows; i += 1) {
    lines.push(
      JSON.stringify({
        text: `Text number ${i} has several words in it for cutting.`,
        label: labels[i % labels.length],
      }),
    );
  }
  return `${lines.join("\n")}\n`;
}

export const IMPORT_MUTATION = `
  mutation Import($input: ImportDatasetInput!) {
    importDataset(input: $input) {
      alreadyImported
      rowCount
      dataset { id name taskKind instanceCount }
      source { split format rowCount fingerprint }
    }
  }`;
