import { TemplateBody } from "../prompt/template-body";

/**
 * The rule that turns a model's raw output into the answer a judge compares with the reference. Versioned: the
 * name is stored with each extracted answer and each judgment, so a change of rule is visible and re-runnable.
 */
export const EXTRACTION_RULE = "layout-2";

/** Every rule memicl has had, oldest first; each stays selectable, so old extractions can be made again exactly. */
export const EXTRACTION_RULES = ["layout-1", "layout-2"] as const;
export type ExtractionRule = (typeof EXTRACTION_RULES)[number];

/**
 * A chat preamble on a line of its own: "Sure!", "Certainly, here is the completion:", "Here's sentence 2:".
 * Only with more lines after it: the first line of an answer that is all there is stays the answer.
 */
const PREAMBLE_LINE = /^(?:sure|certainly|of course|okay|ok|absolutely|here)\b[^\n]{0,100}[:!]\s*$/i;
/** A chat preamble on the answer's own line, up to its colon: "Here is the second piece: ...". */
const PREAMBLE_PREFIX =
  /^(?:(?:sure|certainly|of course|okay|absolutely)[!,.]?\s+)?here(?:\s+is|'s|\s+are)\b[^:\n]{0,60}:[ \t]+(?=\S)/i;
/** Where a model's commentary starts, on a line of its own after the answer. */
const COMMENTARY = /\n[ \t]*(?:explanation|note|reasoning|rationale|justification|source)\b[^\n:]{0,20}:/i;

/** What the rule needs to know about a prompt's layout: its field labels and what separates demonstrations. */
export interface AnswerLayout {
  /** The label the prompt ends with, which the answer continues (e.g. `Sentence 2:`). */
  answerLabel: string | null;
  /** Every field label of the layout (e.g. `Sentence 1:`, `Label:`, `Sentence 2:`, `INSTRUCTION:`). */
  labels: string[];
  /** True when demonstrations are separated by a blank line: a blank line then ends the answer. */
  blankLineSeparates: boolean;
}

const LABEL_LINE = /^\s*([^\s{}:][^{}:\n]{0,40}:)\s*(?:\{\{\s*\w+\s*\}\}\s*)?$/;

/** The layout of a template: the labels of its demonstration, query and instruction lines. */
export function answerLayout(
  body: Pick<TemplateBody, "demonstration" | "query" | "separator" | "instruction">,
): AnswerLayout {
  const labels = new Set<string>();
  for (const part of [body.demonstration, body.query, body.instruction ?? ""]) {
    for (const line of part.split("\n")) {
      const match = LABEL_LINE.exec(line);
      if (match) labels.add(match[1].trim());
    }
  }
  const queryLines = body.query.trimEnd().split("\n");
  const last = LABEL_LINE.exec(queryLines[queryLines.length - 1] ?? "");
  return {
    answerLabel: last && !/\{\{/.test(queryLines[queryLines.length - 1]) ? last[1].trim() : null,
    labels: [...labels],
    blankLineSeparates: /\n\s*\n/.test(body.separator) || body.separator.trim() === "",
  };
}

export interface ExtractedAnswer {
  answer: string;
  rule: string;
  /** True when anything was removed besides surrounding whitespace. */
  changed: boolean;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const QUOTES: [string, string][] = [
  ['"', '"'],
  ["'", "'"],
  ["\u201c", "\u201d"],
  ["\u2018", "\u2019"],
  ["`", "`"],
];

/**
 * The answer in a raw output, by the prompt's own layout (the same for every setting; rule `layout-1`):
 * 1. an echo of the answer's label at the start is dropped (`Sentence 2: The cat ...`), and so is an echo of the
 *    query (field lines, one of them holding the instance's initial segment, then the answer's label);
 * 2. an output that starts a new demonstration (a field label first) holds no answer: empty;
 * 3. the answer ends where the pattern goes on: a line that starts with one of the layout's field labels, the
 *    same label after a sentence on the same line (`... cautious. Sentence 1: ...`, cased as in the layout),
 *    or a blank line when blank lines separate demonstrations;
 * 4. whitespace and one pair of quotes around the whole answer are removed.
 * Rule `layout-2` (the current one) also removes what chat models add around a verbatim answer, so it is never
 * dropped with them: a leading preamble ("Sure! Here is sentence 2:" on its own line, or "Here is the second
 * piece:" before the answer on its line) and a trailing commentary line ("Explanation: ...", "Note: ...").
 */
export function extractAnswer(
  output: string,
  layout: AnswerLayout,
  initialSegment?: string,
  rule: ExtractionRule = EXTRACTION_RULE,
): ExtractedAnswer {
  const raw = output.replace(/\r\n?/g, "\n").trim();
  const { startsWithLabel, answerLabel, nextField, sameLine } = patternsOf(layout);
  let text = raw;
  const chatAware = rule !== "layout-1";
  if (chatAware) {
    const lines = text.split("\n");
    while (lines.length > 1 && PREAMBLE_LINE.test(lines[0].trim())) lines.shift();
    text = lines.join("\n").trim().replace(PREAMBLE_PREFIX, "");
  }

  if (answerLabel) {
    const lines = text.split("\n");
    const at = lines.findIndex((line) => answerLabel.test(line));
    const echoedQuery =
      at > 0 &&
      lines.slice(0, at).every((line) => startsWithLabel?.test(line)) &&
      initialSegment !== undefined &&
      lines.slice(0, at).some((line) => normalize(line).includes(normalize(initialSegment)));
    if (at === 0 || echoedQuery)
      text = [lines[at].replace(answerLabel, ""), ...lines.slice(at + 1)].join("\n").trim();
  }

  let answer = "";
  if (!startsWithLabel?.test(text)) {
    let end = text.length;
    const next = nextField?.exec(text);
    if (next) end = next.index;
    const same = sameLine?.exec(text.slice(0, end));
    if (same) end = same.index;
    if (layout.blankLineSeparates) {
      const blank = /\n[ \t]*\n/.exec(text.slice(0, end));
      if (blank) end = blank.index;
    }
    if (chatAware) {
      const commentary = COMMENTARY.exec(text.slice(0, end));
      if (commentary) end = commentary.index;
    }
    answer = unquote(text.slice(0, end).trim());
  }
  return { answer, rule, changed: answer !== raw };
}

interface LayoutPatterns {
  startsWithLabel: RegExp | null;
  answerLabel: RegExp | null;
  nextField: RegExp | null;
  sameLine: RegExp | null;
}

const PATTERNS = new WeakMap<AnswerLayout, LayoutPatterns>();

/** A layout's patterns, compiled once per layout (a run extracts every answer with the same one). */
function patternsOf(layout: AnswerLayout): LayoutPatterns {
  let patterns = PATTERNS.get(layout);
  if (!patterns) {
    const labels = layout.labels.map(escapeRegExp).join("|");
    patterns = {
      startsWithLabel: labels ? new RegExp(`^\\s*(?:${labels})`, "i") : null,
      answerLabel: layout.answerLabel
        ? new RegExp(`^\\s*${escapeRegExp(layout.answerLabel)}[ \\t]*`, "i")
        : null,
      nextField: labels ? new RegExp(`\\n[ \\t]*(?:${labels})`, "i") : null,
      sameLine: labels ? new RegExp(`[ \\t](?:${labels})(?=[ \\t]|$)`, "m") : null,
    };
    PATTERNS.set(layout, patterns);
  }
  return patterns;
}

const normalize = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();

function unquote(answer: string): string {
  for (const [open, close] of QUOTES) {
    if (answer.length >= 2 && answer.startsWith(open) && answer.endsWith(close)) {
      const inner = answer.slice(open.length, answer.length - close.length);
      return inner.includes(open) || inner.includes(close) ? answer : inner.trim();
    }
  }
  return answer;
}

/** A stored completion as the judges read it: raw output, the extraction stored with it, its run's template. */
export interface StoredAnswer {
  output: string | null;
  initial_segment: string;
  extracted_answer: string | null;
  extraction_rule: string | null;
  template_body: Pick<TemplateBody, "demonstration" | "query" | "separator" | "instruction"> | null;
}

/**
 * The answer a judge compares: the stored extraction when it was made by the current rule, else extracted now from
 * the raw output by the run's template (`stale` then says the stored one should be replaced). Without a template
 * (never for runs memicl made), the raw output, trimmed, with no rule.
 */
export function answerForJudging(row: StoredAnswer): { answer: string; rule: string | null; stale: boolean } {
  if (row.extraction_rule === EXTRACTION_RULE && row.extracted_answer !== null)
    return { answer: row.extracted_answer, rule: EXTRACTION_RULE, stale: false };
  if (!row.template_body) return { answer: (row.output ?? "").trim(), rule: null, stale: false };
  const extracted = extractAnswer(row.output ?? "", answerLayout(row.template_body), row.initial_segment);
  return { answer: extracted.answer, rule: extracted.rule, stale: true };
}
