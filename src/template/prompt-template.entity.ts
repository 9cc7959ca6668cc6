import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from "typeorm";
import { JUDGE_PROMPT_KEY, JudgePromptBody } from "../judge/llm-judge";
import { TemplateBody } from "../prompt/template-body";

/**
 * A versioned prompt template. Rows are immutable once written: an edit is a new version,
 * and every run records the (key, version) it used.
 */
@Entity("prompt_template")
@Index("UQ_prompt_template_version", ["key", "version"], { unique: true })
export class PromptTemplate {
  @PrimaryGeneratedColumn("uuid")
  id: string;

  /** e.g. `memorization/full-information/nli`, `performance/classification`, `judge`. */
  @Column({ type: "varchar", length: 100 })
  key: string;

  @Column({ type: "int" })
  version: number;

  /** A run's template body, or (key `judge`) the LLM judge's prompt: read it with `runBodyOf` / `judgeBodyOf`. */
  @Column({ type: "jsonb" })
  body: TemplateBody | JudgePromptBody;

  @Column({ type: "varchar", length: 500, nullable: true })
  note: string | null;

  @CreateDateColumn({ name: "created_at", type: "timestamptz" })
  createdAt: Date;
}

/** The body of a run's template (every key but the judge's). */
export function runBodyOf(template: PromptTemplate): TemplateBody {
  if (template.key === JUDGE_PROMPT_KEY)
    throw new Error(`template ${template.key} is the judge's prompt, not a run's`);
  return template.body as TemplateBody;
}

/** The LLM judge's prompt (key `judge`). */
export function judgeBodyOf(template: PromptTemplate): JudgePromptBody {
  if (template.key !== JUDGE_PROMPT_KEY)
    throw new Error(`template ${template.key} is not the judge's prompt`);
  return template.body as JudgePromptBody;
}
