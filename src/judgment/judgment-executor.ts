import { createHash } from "node:crypto";
import { DataSource } from "typeorm";
import { answerForJudging, StoredAnswer } from "../judge/answer-extraction";
import { siblingReproduced } from "../judge/heuristic-judge";
import { JudgePromptBody } from "../judge/llm-judge";
import { llmJudgeOf } from "../judge/time-travel-judge";
import { isMemorized } from "../judge/verdicts";
import { callWithRetries, retryPolicyOf } from "../llm/call-with-retries";
import { ChatResult } from "../llm/model-provider";
import { ProviderRegistry } from "../llm/provider-registry";
import { ResponseCache } from "../llm/response-cache";
import { judgmentsMade } from "../observability/metrics";
import { JudgmentJob } from "../queue/job-queue";
import { loadSiblingContinuations } from "../sample/sample.sql";
import { TemplateService } from "../template/template.service";
import * as sql from "./judgment.sql";

/** An LLM judge answers with a verdict word: each call allows this many output tokens. */
export const LLM_JUDGE_MAX_OUTPUT_TOKENS = 10;

/** `llm:<provider>/<model>`: how LLM judges are named on judgments. */
export function llmJudgeName(provider: string, model: string): string {
  return `llm:${provider}/${model}`;
}

/**
 * Makes one LLM judgment: the judge prompt for the completion's output against its reference, through the
 * provider's limits, retries and the response cache; the answer parsed strictly. A call that fails for good
 * is recorded as an UNPARSEABLE judgment with the error, so it shows and can be requested again.
 * Idempotent per (completion, request): a retried job adds no second judgment.
 */
export class JudgmentExecutor {
  private readonly prompts = new Map<number, Promise<JudgePromptBody>>();
  private readonly siblingsBySample = new Map<string, Promise<Map<string, string[]>>>();
  private readonly cache: ResponseCache;

  constructor(
    private readonly dataSource: DataSource,
    private readonly providers: ProviderRegistry,
    private readonly templates: TemplateService,
  ) {
    this.cache = new ResponseCache(dataSource);
  }

  /** Sibling continuations of a sample's instances (they never change), read once per process and sample. */
  private siblings(sampleId: string): Promise<Map<string, string[]>> {
    let siblings = this.siblingsBySample.get(sampleId);
    if (!siblings) {
      siblings = loadSiblingContinuations(
        (text, parameters) => this.dataSource.query(text, parameters),
        [sampleId],
      );
      siblings.catch(() => this.siblingsBySample.delete(sampleId));
      if (this.siblingsBySample.size > 100)
        this.siblingsBySample.delete(this.siblingsBySample.keys().next().value!);
      this.siblingsBySample.set(sampleId, siblings);
    }
    return siblings;
  }

  /** Judge prompt versions never change, so each is read once per process. */
  private prompt(version: number): Promise<JudgePromptBody> {
    let prompt = this.prompts.get(version);
    if (!prompt) {
      prompt = this.templates.judgePrompt(version).then((found) => found.prompt);
      prompt.catch(() => this.prompts.delete(version));
      this.prompts.set(version, prompt);
    }
    return prompt;
  }

  async execute(job: JudgmentJob): Promise<void> {
    const [row]: (StoredAnswer & { reference: string; done: boolean; item_id: string; sample_id: string })[] =
      await this.dataSource.query(
        `SELECT c.output, c.extracted_answer, c.extraction_rule, si.initial_segment, si.subsequent_segment AS reference,
              si.id::text AS item_id, si.sample_id, pt.body AS template_body,
              EXISTS (SELECT 1 FROM judgment j WHERE j.completion_id = c.id AND j.details->>'request' = $2) AS done
       FROM completion c
       JOIN sampled_instance si ON si.id = c.sampled_instance_id
       JOIN run r ON r.id = c.run_id
       LEFT JOIN prompt_template pt ON pt.key = r.template_key AND pt.version = r.template_version
       WHERE c.id = $1 AND c.status = 'SUCCEEDED'`,
        [job.completionId, job.request],
      );
    if (!row || row.done) return;
    const handle = this.providers.get(job.provider);
    // The judge sees the extracted answer, as the heuristic judge does.
    const extraction = answerForJudging(row);
    if (extraction.stale)
      await this.dataSource.query(sql.storeExtractions, [
        [job.completionId],
        [extraction.answer],
        [extraction.rule],
      ]);
    const judge = llmJudgeOf(job.judgeVersion, {
      body: await this.prompt(job.promptVersion),
      version: job.promptVersion,
    });
    const messages = judge.messages(row.reference, extraction.answer);
    const request = {
      model: job.model,
      messages,
      temperature: 0,
      maxOutputTokens: LLM_JUDGE_MAX_OUTPUT_TOKENS,
    };
    const cacheKey = createHash("sha256")
      .update(JSON.stringify(["judge", job.provider, job.model, messages]))
      .digest("hex");
    let result: ChatResult | null = null;
    let error: string | null = null;
    let attempts = 0;
    const cached = await this.cache.lookup(cacheKey);
    if (cached) {
      result = cached;
    } else {
      const outcome = await callWithRetries(handle.provider, request, retryPolicyOf(handle.config), {
        stop: this.providers.stopSignal,
        stopWaiting: this.providers.waitSignal,
        beforeAttempt: async (signal) => {
          await handle.limiter.acquire(600, signal);
          return handle.limiter.acquireSlot(signal);
        },
      });
      // This process is stopping: the job fails here and the queue gives it to the next worker.
      if (!outcome.ok && outcome.stopped)
        throw new Error("the worker stopped during the judge's call; the job will run again");
      attempts = outcome.attempts;
      if (outcome.ok) {
        result = outcome.result;
        await this.dataSource.query(
          "INSERT INTO response_cache (key, provider, model, response) VALUES ($1, $2, $3, $4::jsonb) ON CONFLICT (key) DO NOTHING",
          [cacheKey, job.provider, job.model, JSON.stringify(result)],
        );
      } else {
        error = outcome.error.message;
      }
    }
    const parsed = result ? judge.parse(result.text) : "UNPARSEABLE";
    // The sibling rule holds for every judge: a memorized verdict for another row's continuation does not count.
    const sibling = isMemorized(parsed)
      ? siblingReproduced(
          row.reference,
          extraction.answer,
          (await this.siblings(row.sample_id)).get(row.item_id) ?? [],
        )
      : null;
    const verdict = sibling ? "INEXACT" : parsed;
    await this.dataSource.query(
      `INSERT INTO judgment (completion_id, verdict, judge_kind, judge_name, judge_version, details, extraction_rule)
       SELECT $1, $2::judgment_verdict_enum, 'LLM', $3, $4, $5::jsonb, $7
       WHERE NOT EXISTS (SELECT 1 FROM judgment WHERE completion_id = $1 AND details->>'request' = $6)`,
      [
        job.completionId,
        verdict,
        llmJudgeName(job.provider, job.model),
        judge.version,
        JSON.stringify({
          request: job.request,
          answer: result?.text ?? null,
          ...(sibling
            ? { reason: "sibling continuation", siblingContinuation: sibling, judgeVerdict: parsed }
            : {}),
          error,
          attempts,
          cacheHit: attempts === 0 && result !== null,
          usage: result
            ? { promptTokens: result.promptTokens, completionTokens: result.completionTokens }
            : null,
        }),
        job.request,
        extraction.rule,
      ],
    );
    judgmentsMade.inc({ judge_kind: "LLM", verdict });
    await this.dataSource.query(sql.touchRunsOfCompletions, [[job.completionId]]);
  }
}
