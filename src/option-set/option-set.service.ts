import { DataSource } from "typeorm";
import { isUuid } from "../common/ids";
import { QuizOptionSet } from "./option-set.entity";
import { optionSetCounts, reusedOptionSets } from "./option-set.sql";

/** One instance's options in a set, as the API shows them. */
export interface QuizOptionRow {
  sampledInstanceId: string;
  options: string[];
  generations: number;
  valid: boolean;
  final: boolean;
  problems: string[];
  rejections: string[][];
}

/** What a set holds, counted, as the API shows it. */
export interface OptionSetCounts {
  instances: number;
  valid: number;
  givenUp: number;
  waiting: number;
  rejectedGenerations: number;
}

/** Reads the quiz's option sets: which a sample has, what each holds, and every instance's options. */
export class OptionSetService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The samples whose quiz would reuse an option set already made with this prompt version (and generate nothing):
   * by the generator named, else by the set every quiz of the sample takes (`reusedOptionSets`).
   */
  async reusedBy(
    sampleIds: readonly string[],
    templateVersion: number,
    generator: { provider: string; model: string; generations: number } | null,
  ): Promise<Set<string>> {
    const rows: { sample_id: string }[] = await this.dataSource.query(reusedOptionSets, [
      sampleIds.filter(isUuid),
      templateVersion,
      generator?.provider ?? null,
      generator?.model ?? null,
      generator?.generations ?? null,
    ]);
    return new Set(rows.map((row) => row.sample_id));
  }

  /** A sample's option sets (or every one), newest first. */
  list(sampleId: string | null): Promise<QuizOptionSet[]> {
    if (sampleId !== null && !isUuid(sampleId)) return Promise.resolve([]);
    return this.dataSource.manager.find(QuizOptionSet, {
      where: sampleId ? { sampleId } : {},
      order: { createdAt: "DESC" },
      take: 100,
    });
  }

  async get(id: string): Promise<QuizOptionSet | null> {
    return isUuid(id) ? this.dataSource.manager.findOneBy(QuizOptionSet, { id }) : null;
  }

  async counts(set: QuizOptionSet): Promise<OptionSetCounts> {
    const [row] = await this.dataSource.query(optionSetCounts, [[set.id]]);
    return {
      instances: row.instances,
      valid: row.valid,
      givenUp: row.given_up,
      waiting: row.instances - row.valid - row.given_up,
      rejectedGenerations: row.rejected_generations,
    };
  }

  /** Its instances' options in the sample's order, `first` after position `after`. */
  async options(set: QuizOptionSet, first: number, after: number): Promise<QuizOptionRow[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT o.sampled_instance_id::text AS sampled_instance_id, o.options, o.generations, o.valid, o.final,
              o.problems, o.rejections
       FROM quiz_option o JOIN sampled_instance si ON si.id = o.sampled_instance_id
       WHERE o.option_set_id = $1 AND si.position > $2
       ORDER BY si.position LIMIT $3`,
      [set.id, after, Math.min(Math.max(first, 0), 500)],
    );
    return rows.map((row) => ({
      sampledInstanceId: row.sampled_instance_id as string,
      options: row.options as string[],
      generations: row.generations as number,
      valid: row.valid as boolean,
      final: row.final as boolean,
      problems: row.problems as string[],
      rejections: row.rejections as string[][],
    }));
  }
}
