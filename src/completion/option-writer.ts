import { DataSource } from "typeorm";
import * as optionSql from "../option-set/option-set.sql";
import { JobQueue } from "../queue/job-queue";
import { parseGeneratedOptions } from "../quiz/quiz-prompts";
import { optionProblems } from "../quiz/quiz-range";
import { Run } from "../run/run.entity";
import * as sql from "./completion.sql";
import { CompletedRow } from "./completion-writer";

/** What a claimed option-generation item is: its instance, its generation (repeat + 1) and its claim. */
export interface GenerationItem {
  id: string;
  leaseToken: string;
  sampledInstanceId: string;
  repeat: number;
  /** The instance as the quiz shows it: what the options must perturb, and must not be. */
  original: string;
}

/**
 * Stores a quiz option generation's answer with what it means for the option set, in one transaction: the answer
 * (counted on its run), the parsed options with their checks, and when they fail the checks and generations are
 * left, the next generation as a new item of the same run (its `repeat` one more, the run's expected count one
 * more, so the run cannot end before it). Options that pass, or the last generation's, are final: the quizzes of
 * that instance get their jobs. A crash before the jobs are queued leaves nothing behind: the reconciler queues
 * waiting items whose options are final.
 */
export class OptionWriter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queue: JobQueue,
  ) {}

  async store(run: Run, maxGenerations: number, item: GenerationItem, row: CompletedRow): Promise<void> {
    const options = parseGeneratedOptions(row.output);
    const problems = optionProblems(item.original, options);
    const valid = problems.length === 0;
    const generation = item.repeat + 1;
    const again = !valid && generation < maxGenerations;
    // A deadlock's victim (rolled back whole) is stored again by the caller, as any store that fails with an error
    // that passes (CompletionExecutor.storePaid).
    const stored = await this.dataSource.transaction(async (manager) => {
      const held: unknown[] = await manager.query(
        "SELECT 1 FROM completion WHERE id = $1 AND lease_token = $2 AND status = 'RUNNING' FOR UPDATE",
        [item.id, item.leaseToken],
      );
      if (held.length === 0) return null;
      // The run before the next generation's insert: the insert's foreign key check shares the run's row, and two
      // writers that each shared it and then updated it would wait on each other.
      await manager.query("SELECT 1 FROM run WHERE id = $1 FOR UPDATE", [run.id]);
      let next: string | null = null;
      if (again) {
        const inserted: { id: string }[] = await manager.query(
          `INSERT INTO completion (run_id, sampled_instance_id, repeat) VALUES ($1, $2, $3)
             ON CONFLICT (run_id, sampled_instance_id, repeat) DO NOTHING RETURNING id`,
          [run.id, item.sampledInstanceId, item.repeat + 1],
        );
        if (inserted.length > 0) {
          next = String(inserted[0].id);
          await manager.query("UPDATE run SET expected_count = expected_count + 1 WHERE id = $1", [run.id]);
        }
      }
      await manager.query(sql.completeCompletions, [JSON.stringify([row])]);
      const [recorded]: { final: boolean }[] = await manager.query(optionSql.recordOptions, [
        run.optionSetId,
        item.sampledInstanceId,
        item.id,
        JSON.stringify(options),
        generation,
        valid,
        !again,
        JSON.stringify(problems),
      ]);
      if (recorded?.final && !valid) {
        // Given up: the instance is not quizzed (n counts the instances with valid options). The quiz runs are
        // locked in id order first, as every statement that moves several runs locks them.
        await manager.query(
          "SELECT id FROM run WHERE option_set_id = $1 AND kind = 'QUIZ' ORDER BY id FOR UPDATE",
          [run.optionSetId],
        );
        await manager.query(optionSql.dropUnquizzable, [run.optionSetId, item.sampledInstanceId]);
      }
      return { next };
    });
    if (!stored) return;
    if (stored.next)
      await this.queue.enqueue("completion", [{ completionId: stored.next, provider: run.provider }]);
    if (!again && valid) {
      const waiting: { id: string; provider: string }[] = await this.dataSource.query(
        optionSql.quizItemsOfInstance,
        [run.optionSetId, item.sampledInstanceId],
      );
      if (waiting.length > 0) {
        await this.queue.enqueue(
          "completion",
          waiting.map((quizItem) => ({ completionId: quizItem.id, provider: quizItem.provider })),
        );
        this.queue.wake();
      }
    }
  }
}
