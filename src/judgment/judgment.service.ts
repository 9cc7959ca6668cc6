import { randomUUID } from "node:crypto";
import { DataSource } from "typeorm";
import { worstCaseCallUsd } from "../budget/budget";
import { decodeCursor, encodeCursor } from "../common/cursor";
import { BadInputError, DomainError, NotFoundError } from "../common/errors";
import { Completion, CompletionStatus } from "../completion/completion.entity";
import { rowToCompletion } from "../completion/completion.service";
import { checkPageSize, Page, toPage } from "../graphql/connection";
import { agreement, interAnnotatorAgreement, Rating } from "../judge/agreement";
import { answerForJudging, StoredAnswer } from "../judge/answer-extraction";
import {
  defaultThresholds,
  HEURISTIC_JUDGE_VERSION,
  HeuristicJudgeVersion,
  HeuristicThresholds,
  heuristicDetails,
  judgeHeuristically,
} from "../judge/heuristic-judge";
import { llmJudgeOf } from "../judge/time-travel-judge";
import { JudgeVerdict } from "../judge/verdicts";
import { ProviderRegistry } from "../llm/provider-registry";
import { countChatTokens } from "../llm/tokenizer";
import { judgmentsMade } from "../observability/metrics";
import { JobQueue } from "../queue/job-queue";
import { Run } from "../run/run.entity";
import { loadSiblingContinuations } from "../sample/sample.sql";
import { RunKind } from "../study/settings";
import { JudgeKind } from "../study/verdicts";
import { TemplateService } from "../template/template.service";
import { Judgment } from "./judgment.entity";
import {
  JudgeAgreement,
  JudgeSelector,
  JudgingScope,
  LlmJudgingEstimate,
  ReviewerAgreement,
  ReviewReason,
} from "./judgment.inputs";
import * as sql from "./judgment.sql";
import { LLM_JUDGE_MAX_OUTPUT_TOKENS } from "./judgment-executor";

/** Judgments are records: added, never changed. The effective verdict is the latest human one, else the latest automatic one. */
export class JudgmentService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly providers: ProviderRegistry,
    private readonly queue: JobQueue,
    private readonly templates: TemplateService,
  ) {}

  /**
   * Queues an LLM judgment of every succeeded memorization completion in scope, as one request: the jobs run
   * on the queue with the provider's limits and retries, and each adds one judgment (old ones stay).
   */
  async requestLlmJudging(
    scope: JudgingScope,
    provider: string,
    model: string,
    promptVersion?: number | null,
    judgeVersion?: string | null,
    unsureOnly = false,
  ): Promise<{ request: string; queuedCount: number }> {
    this.providers.config(provider);
    const { version } = await this.templates.judgePrompt(promptVersion);
    const runIds = await this.runIds(scope);
    const rows: { id: string }[] = await this.dataSource.query(sql.judgeableCompletions, [
      runIds,
      unsureOnly,
    ]);
    const request = `rejudge:${randomUUID()}`;
    await this.queue.enqueue(
      "judgment",
      rows.map((row) => ({
        completionId: String(row.id),
        provider,
        model,
        request,
        promptVersion: version,
        ...(judgeVersion && judgeVersion !== "llm-judge-1" ? { judgeVersion } : {}),
      })),
    );
    this.queue.wake();
    return { request, queuedCount: rows.length };
  }

  /**
   * What `requestLlmJudging` with the same arguments would send, before it does: the completions it would judge,
   * the judge prompts' tokens (memicl's count: the judge's messages as a worker builds them), the output tokens at
   * most (10 a call) and the worst-case cost at the model's configured price (null without one).
   */
  async estimateLlmJudging(
    scope: JudgingScope,
    provider: string,
    model: string,
    promptVersion?: number | null,
    judgeVersion?: string | null,
    unsureOnly = false,
  ): Promise<LlmJudgingEstimate> {
    const config = this.providers.config(provider);
    const { prompt, version } = await this.templates.judgePrompt(promptVersion);
    const judge = llmJudgeOf(judgeVersion ?? undefined, { body: prompt, version });
    const runIds = await this.runIds(scope);
    const rows: (StoredAnswer & { subsequent_segment: string })[] = await this.dataSource.query(
      sql.judgeableCompletions,
      [runIds, unsureOnly],
    );
    let promptTokens = 0;
    let worstUsd = 0;
    const price = config.prices[model];
    for (const row of rows) {
      const counted = countChatTokens(judge.messages(row.subsequent_segment, answerForJudging(row).answer));
      promptTokens += counted;
      if (price) worstUsd += worstCaseCallUsd(price, counted, LLM_JUDGE_MAX_OUTPUT_TOKENS);
    }
    return {
      completions: rows.length,
      calls: rows.length,
      promptTokens,
      maxOutputTokens: rows.length * LLM_JUDGE_MAX_OUTPUT_TOKENS,
      worstCaseUsd: price ? worstUsd : null,
      priced: !!price,
    };
  }

  async historyByCompletions(ids: readonly string[]): Promise<Judgment[][]> {
    const rows: Judgment[] = (await this.dataSource.query(sql.judgmentsByCompletions, [[...ids]])).map(
      toJudgment,
    );
    return ids.map((id) => rows.filter((row) => row.completionId === id));
  }

  async effectiveByCompletions(ids: readonly string[]): Promise<(Judgment | null)[]> {
    const rows: Judgment[] = (await this.dataSource.query(sql.effectiveJudgments, [[...ids]])).map(
      toJudgment,
    );
    const byId = new Map(rows.map((row) => [row.completionId, row]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** Records a reviewer's verdict; it supersedes the completion's effective judgment and becomes the effective one. */
  /**
   * Records a human verdict. `servedTo` (a blind reviewer's key id): the completion must be one that key's queue
   * served it, else the review is refused and nothing is recorded.
   */
  async review(
    input: { completionId: string; reviewer: string; verdict: JudgeVerdict; note?: string },
    servedTo: string | null = null,
  ) {
    const completion = /^\d{1,18}$/.test(input.completionId)
      ? await this.dataSource.manager.findOneBy(Completion, { id: input.completionId })
      : null;
    if (!completion) throw new NotFoundError("Completion", input.completionId);
    if (servedTo !== null) {
      const [served] = await this.dataSource.query(sql.servedToKey, [servedTo, completion.id]);
      if (!served)
        throw new DomainError(
          "FORBIDDEN",
          `completion ${completion.id} was not served to this key's review queue: a blind reviewer reviews what ` +
            "completionsToReview serves it",
          { field: "completionId" },
        );
    }
    const run = await this.dataSource.manager.findOneByOrFail(Run, { id: completion.runId });
    if (run.kind !== RunKind.MEMORIZATION || completion.status !== CompletionStatus.SUCCEEDED) {
      throw new BadInputError("only succeeded memorization completions are judged");
    }
    const [current] = await this.effectiveByCompletions([completion.id]);
    const judgment = await this.dataSource.manager.save(
      this.dataSource.manager.create(Judgment, {
        completionId: completion.id,
        verdict: input.verdict as Judgment["verdict"],
        judgeKind: JudgeKind.HUMAN,
        judgeName: input.reviewer.trim(),
        judgeVersion: null,
        details: {},
        note: input.note ?? null,
        supersedesId: current?.id ?? null,
      }),
    );
    judgmentsMade.inc({ judge_kind: "HUMAN", verdict: input.verdict });
    await this.dataSource.query(sql.touchRunsOfCompletions, [[completion.id]]);
    return { completion, judgment };
  }

  /** Judges every succeeded memorization completion in scope again with the heuristic judge; old judgments stay. */
  async rejudgeHeuristically(
    scope: JudgingScope,
    overrides: Partial<HeuristicThresholds>,
    version: HeuristicJudgeVersion = HEURISTIC_JUDGE_VERSION,
  ): Promise<number> {
    const thresholds = {
      ...defaultThresholds(version),
      ...Object.fromEntries(Object.entries(overrides).filter(([, value]) => value != null)),
    };
    const runIds = await this.runIds(scope);
    const rows: (StoredAnswer & {
      id: string;
      subsequent_segment: string;
      item_id: string;
      sample_id: string;
      nli: boolean;
    })[] = await this.dataSource.query(sql.judgeableCompletions, [runIds, false]);
    const siblings = await loadSiblingContinuations(
      (text, parameters) => this.dataSource.query(text, parameters),
      [...new Set(rows.map((row) => row.sample_id))],
    );
    const judge = (row: (typeof rows)[number]) => {
      const extraction = answerForJudging(row);
      return {
        id: String(row.id),
        extraction,
        ...judgeHeuristically(
          row.subsequent_segment,
          extraction.answer,
          thresholds,
          siblings.get(row.item_id) ?? [],
          { version, context: { firstPiece: row.initial_segment, nli: row.nli } },
        ),
      };
    };
    // Judged in steps of about 20 ms, so that the process answers its other requests meanwhile.
    const judged: ReturnType<typeof judge>[] = [];
    let since = Date.now();
    for (const row of rows) {
      judged.push(judge(row));
      if (Date.now() - since > 20) {
        await new Promise((resolve) => setImmediate(resolve));
        since = Date.now();
      }
    }
    for (let start = 0; start < judged.length; start += 5_000) {
      const chunk = judged.slice(start, start + 5_000);
      const stale = chunk.filter((row) => row.extraction.stale);
      if (stale.length > 0)
        await this.dataSource.query(sql.storeExtractions, [
          stale.map((row) => row.id),
          stale.map((row) => row.extraction.answer),
          stale.map((row) => row.extraction.rule),
        ]);
      await this.dataSource.query(sql.insertJudgments, [
        chunk.map((row) => row.id),
        JudgeKind.HEURISTIC,
        "heuristic",
        version,
        chunk.map((row) => row.verdict),
        chunk.map((row) => JSON.stringify(heuristicDetails(row, thresholds))),
        chunk.map((row) => row.extraction.rule),
      ]);
      for (const row of chunk) judgmentsMade.inc({ judge_kind: "HEURISTIC", verdict: row.verdict });
      await this.dataSource.query(sql.touchRunsOfCompletions, [chunk.map((row) => row.id)]);
    }
    return judged.length;
  }

  /** Agreement between two judges on the scope's memorization completions (either may be HUMAN). */
  async agreement(
    scope: JudgingScope,
    judgeA: JudgeSelector,
    judgeB: JudgeSelector,
  ): Promise<JudgeAgreement> {
    const runIds = await this.runIds(scope);
    const rows: { id: string; a: JudgeVerdict | null; b: JudgeVerdict | null }[] =
      await this.dataSource.query(sql.judgePairs, [
        runIds,
        judgeA.kind,
        judgeA.name ?? null,
        judgeB.kind,
        judgeB.name ?? null,
      ]);
    const result = agreement(rows.map((row) => [row.a, row.b]));
    const finite = (value: number) => (Number.isFinite(value) ? value : null);
    return {
      n: result.n,
      total: rows.length,
      coverage: rows.length ? result.n / rows.length : 0,
      agreed: result.agreed,
      percentAgreement: finite(result.percentAgreement),
      kappa: finite(result.kappa),
      kappaBinary: finite(result.kappaBinary),
      confusion: result.confusion,
      disagreeingCompletionIds: rows
        .filter(
          (row) => row.a && row.b && row.a !== "UNPARSEABLE" && row.b !== "UNPARSEABLE" && row.a !== row.b,
        )
        .slice(0, 500)
        .map((row) => String(row.id)),
    };
  }

  /** Agreement between the human reviewers on the scope's completions (`interAnnotatorAgreement`). */
  async reviewerAgreement(scope: JudgingScope): Promise<ReviewerAgreement> {
    const runIds = await this.runIds(scope);
    const ratings: Rating[] = await this.dataSource.query(sql.reviewerRatings, [runIds]);
    const result = interAnnotatorAgreement(ratings);
    const finite = (value: number) => (Number.isFinite(value) ? value : null);
    return {
      ...result,
      kappa: finite(result.kappa),
      kappaBinary: finite(result.kappaBinary),
      percentAgreement: finite(result.percentAgreement),
    };
  }

  /** A page of completions to review, for a reason; see `sql.completionsToReview`. */
  async toReview(
    scope: JudgingScope,
    reason: ReviewReason,
    first: number,
    after: string | null,
    seed: string,
    reviewer: string | null = null,
    /** A blind reviewer's key id: what this page serves is recorded as served to it (its reviews must be of these). */
    servedTo: string | null = null,
  ): Promise<Page<Completion>> {
    checkPageSize(first);
    const runIds = await this.runIds(scope);
    const [sortKey, afterId] = after ? decodeCursor("Review", after) : ["", "0"];
    const rows: Record<string, unknown>[] = await this.dataSource.query(sql.completionsToReview, [
      runIds,
      reason,
      String(sortKey),
      String(afterId),
      seed,
      first + 1,
      reviewer,
    ]);
    const completions = rows.map((row) => ({
      completion: this.dataSource.manager.create(Completion, rowToCompletion(row)),
      sortKey: String(row.sort_key),
    }));
    const page = toPage(completions, first, (row) =>
      encodeCursor("Review", [row.sortKey, row.completion.id]),
    );
    if (servedTo !== null && page.edges.length > 0)
      await this.dataSource.query(sql.serveToKey, [
        servedTo,
        page.edges.map((edge) => edge.node.completion.id),
      ]);
    return {
      edges: page.edges.map((edge) => ({ cursor: edge.cursor, node: edge.node.completion })),
      pageInfo: page.pageInfo,
    };
  }

  private async runIds(scope: JudgingScope): Promise<string[]> {
    if (!!scope.runId === !!scope.experimentId)
      throw new BadInputError("give exactly one of runId and experimentId", { field: "scope" });
    const uuid = /^[0-9a-f-]{36}$/i;
    const id = (scope.runId ?? scope.experimentId)!;
    if (!uuid.test(id)) throw new NotFoundError(scope.runId ? "Run" : "Experiment", id);
    const rows: { id: string }[] = await this.dataSource.query(
      scope.runId ? "SELECT id FROM run WHERE id = $1" : "SELECT id FROM run WHERE experiment_id = $1",
      [id],
    );
    if (rows.length === 0) throw new NotFoundError(scope.runId ? "Run" : "Experiment", id);
    return rows.map((row) => row.id);
  }
}

function toJudgment(row: Record<string, unknown>): Judgment {
  return Object.assign(new Judgment(), {
    id: String(row.id),
    completionId: String(row.completion_id),
    verdict: row.verdict,
    judgeKind: row.judge_kind,
    judgeName: row.judge_name,
    judgeVersion: row.judge_version,
    extractionRule: row.extraction_rule ?? null,
    details: row.details,
    note: row.note,
    supersedesId: row.supersedes_id === null ? null : String(row.supersedes_id),
    createdAt: row.created_at,
  });
}
