import { RunKind } from "../run/run.entity";
import { TemplateBody } from "./template-body";

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

/** One demonstration or instance as prompts need it: its segments, its full texts, its label's verbalizer. */
export interface PromptItem {
  initialSegment: string;
  subsequentSegment: string;
  text: string;
  secondText: string | null;
  /** The verbalizer shown for the label. */
  label: string;
}

export interface PromptContext {
  kind: RunKind;
  template: TemplateBody;
  /** The dataset's name as prompts show it. */
  datasetName: string;
  /** The split the instances under test come from. */
  split: string;
  /** Verbalizers of every label, in label order. */
  labels: string[];
  /** The k demonstrations, in presentation order. */
  demonstrations: PromptItem[];
}

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (_, name: string) => values[name] ?? "");
}

function itemValues(item: PromptItem): Record<string, string> {
  return {
    initial: item.initialSegment,
    subsequent: item.subsequentSegment,
    text: item.text,
    secondText: item.secondText ?? "",
    label: item.label,
  };
}

/** The demonstrations block shared by every prompt of a run; empty for zero-shot. */
export function renderDemonstrations(context: PromptContext): string {
  return context.demonstrations
    .map((item) => fill(context.template.demonstration, itemValues(item)))
    .join(context.template.separator);
}

/**
 * The exact chat messages for one instance. Built as instruction, then demonstrations, then the
 * instance's slot, so prompts of one run differ only after the shared demonstrations block.
 */
export function renderPrompt(
  context: PromptContext,
  instance: PromptItem,
  demonstrationsBlock = renderDemonstrations(context),
): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const instruction = context.template.instruction
    ? fill(context.template.instruction, {
        dataset: context.datasetName,
        split: context.split,
        labels: context.labels.join(", "),
      })
    : null;
  if (instruction && context.template.instructionPlacement !== "user")
    messages.push({ role: "system", content: instruction });
  const parts = [
    context.template.instructionPlacement === "user" ? instruction : null,
    demonstrationsBlock || null,
    fill(context.template.query, itemValues(instance)),
  ].filter((part): part is string => Boolean(part));
  messages.push({ role: "user", content: parts.join(context.template.separator) });
  return messages;
}
