import { DataSource, EntityManager } from "typeorm";
import { BadInputError, NotFoundError } from "../common/errors";
import { checkJudgePrompt, JUDGE_PROMPT_KEY, JudgePromptBody, LLM_JUDGE_PROMPT } from "../judge/llm-judge";
import { BUILT_IN_VERSIONS, checkTemplateBody, TemplateBody } from "../prompt/template-body";
import { judgeBodyOf, PromptTemplate } from "./prompt-template.entity";

/** Every built-in version the database holds: the prompt templates' and the LLM judge's prompt. */
export const BUILT_IN_TEMPLATES: readonly { key: string; version: number; body: object; note: string }[] = [
  ...BUILT_IN_VERSIONS,
  { key: JUDGE_PROMPT_KEY, version: 1, body: LLM_JUDGE_PROMPT, note: "built-in default" },
];

/** Versioned, immutable templates: version 1 of each key is the built-in default; edits add versions. */
export class TemplateService {
  private defaultsEnsured: Promise<void> | null = null;

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Writes the built-in versions of every template once per database (idempotent). A built-in version whose
   * number a user's edit already took is added as the next version instead (its note says it is built in).
   */
  ensureDefaults(): Promise<void> {
    this.defaultsEnsured ??= this.writeDefaults().catch((error) => {
      this.defaultsEnsured = null;
      throw error;
    });
    return this.defaultsEnsured;
  }

  /**
   * One read when every built-in is there (each process after a database's first); otherwise one transaction
   * that locks the built-in keys (in one order, so that two processes cannot deadlock) and adds what is missing.
   */
  private async writeDefaults(): Promise<void> {
    const builtIns = BUILT_IN_TEMPLATES;
    if ((await missingBuiltIns(this.dataSource.manager, builtIns)).length === 0) return;
    await this.dataSource.transaction(async (manager) => {
      const keys = [...new Set(builtIns.map((builtIn) => builtIn.key))].sort();
      await manager.query(
        `SELECT pg_advisory_xact_lock(hashtext(key))
         FROM (SELECT key FROM unnest($1::varchar[]) AS key ORDER BY key) AS keys`,
        [keys.map((key) => `prompt_template:${key}`)],
      );
      // In order: a key's second built-in version sees its first.
      for (const index of await missingBuiltIns(manager, builtIns)) {
        const { key, version, body, note } = builtIns[index];
        await manager.query(
          `INSERT INTO prompt_template (key, version, body, note)
           SELECT $1::varchar,
                  CASE WHEN EXISTS (SELECT 1 FROM prompt_template WHERE key = $1::varchar AND version = $2::int)
                       THEN (SELECT max(version) + 1 FROM prompt_template WHERE key = $1::varchar) ELSE $2::int END,
                  $3::jsonb, $4::varchar`,
          [key, version, JSON.stringify(body), note],
        );
      }
    });
  }

  /** The given version, or the latest one. */
  async get(key: string, version?: number | null): Promise<PromptTemplate> {
    await this.ensureDefaults();
    const query = this.dataSource.manager
      .createQueryBuilder(PromptTemplate, "template")
      .where("template.key = :key", { key })
      .orderBy("template.version", "DESC")
      .limit(1);
    if (version != null) query.andWhere("template.version = :version", { version });
    const template = await query.getOne();
    if (!template) throw new NotFoundError("PromptTemplate", version != null ? `${key}@${version}` : key);
    return template;
  }

  /** Every version of every key, or of one key; newest first within a key. */
  async list(key?: string | null): Promise<PromptTemplate[]> {
    await this.ensureDefaults();
    const query = this.dataSource.manager
      .createQueryBuilder(PromptTemplate, "template")
      .orderBy("template.key", "ASC")
      .addOrderBy("template.version", "DESC");
    if (key) query.where("template.key = :key", { key });
    else query.where("template.key <> :judge", { judge: JUDGE_PROMPT_KEY }); // a different shape: see judgePrompt
    return query.getMany();
  }

  /** Adds the next version of a template. Earlier versions stay as they are, so runs that used them stay explained. */
  async createVersion(key: string, body: TemplateBody, note: string | null): Promise<PromptTemplate> {
    const problems = checkTemplateBody(key, body);
    if (problems.length > 0)
      throw new BadInputError(`invalid template: ${problems.join("; ")}`, { problems });
    return this.insertVersion(key, { ...body }, note);
  }

  /** The LLM judge's prompt (instruction and worked examples), a given version or the latest. */
  async judgePrompt(
    version?: number | null,
  ): Promise<{ version: number; prompt: JudgePromptBody; template: PromptTemplate }> {
    const template = await this.get(JUDGE_PROMPT_KEY, version);
    return { version: template.version, prompt: judgeBodyOf(template), template };
  }

  /** Adds the next version of the LLM judge's prompt; judgments record the version they were made with. */
  async createJudgePromptVersion(prompt: JudgePromptBody, note: string | null): Promise<PromptTemplate> {
    const problems = checkJudgePrompt(prompt);
    if (problems.length > 0)
      throw new BadInputError(`invalid judge prompt: ${problems.join("; ")}`, { problems });
    return this.insertVersion(
      JUDGE_PROMPT_KEY,
      { instruction: prompt.instruction, examples: prompt.examples },
      note,
    );
  }

  private async insertVersion(
    key: string,
    body: Record<string, unknown>,
    note: string | null,
  ): Promise<PromptTemplate> {
    await this.ensureDefaults();
    return this.dataSource.transaction(async (manager) => {
      // Serialise version numbers per key: a concurrent edit waits rather than colliding.
      await manager.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`prompt_template:${key}`]);
      const [{ next }] = await manager.query(
        "SELECT coalesce(max(version), 0) + 1 AS next FROM prompt_template WHERE key = $1",
        [key],
      );
      return manager.save(manager.create(PromptTemplate, { key, version: next, body, note }));
    });
  }
}

/** The indexes of the built-in versions not stored yet (the same key, note and body), in order. */
async function missingBuiltIns(
  manager: EntityManager,
  builtIns: readonly { key: string; body: object; note: string }[],
): Promise<number[]> {
  const rows: { index: number }[] = await manager.query(
    `SELECT (b.ordinality - 1)::int AS index
     FROM unnest($1::varchar[], $2::varchar[], $3::jsonb[]) WITH ORDINALITY AS b(key, note, body, ordinality)
     WHERE NOT EXISTS (
       SELECT 1 FROM prompt_template t WHERE t.key = b.key AND t.note = b.note AND t.body = b.body
     )
     ORDER BY b.ordinality`,
    [
      builtIns.map((builtIn) => builtIn.key),
      builtIns.map((builtIn) => builtIn.note),
      builtIns.map((builtIn) => JSON.stringify(builtIn.body)),
    ],
  );
  return rows.map((row) => row.index);
}
