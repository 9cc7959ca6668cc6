import { DEFAULT_METHODS, StudyMethod } from "./methods";
import { OptionLetter } from "./quiz-letters";
import { MemorizationSetting, RunKind } from "./settings";

/** The grid of an experiment: samples x k x (memorization settings + performance), and the quiz's runs. */
export interface GridSpec {
  kinds: RunKind[];
  settings: MemorizationSetting[];
  /** The methods whose runs the grid holds; the study's grid with its control when absent. */
  methods?: StudyMethod[];
  /** k values; each sample's own when absent. */
  shots?: number[];
  performanceRepeats: number;
  memorizationMaxOutputTokens: number;
  performanceMaxOutputTokens: number;
  /** The quiz's answers (a letter; the authors allowed 1 token). */
  quizMaxOutputTokens?: number;
  /** Generated options: four perturbations of an instance. */
  quizOptionsMaxOutputTokens?: number;
}

export const QUIZ_DEFAULTS = {
  quizMaxOutputTokens: 1,
  quizOptionsMaxOutputTokens: 1500,
  /** Option generation samples at temperature 1, as the authors did. */
  optionsTemperature: 1,
  /** Generations an instance may take before its options are given up (the first and two more). */
  optionGenerations: 3,
} as const;

/** What the grid needs of a sample: the k values it was drawn for. */
export interface GridSample {
  shotCounts: readonly number[];
}

export interface GridCell<S extends GridSample = GridSample> {
  sample: S;
  kind: RunKind;
  setting: MemorizationSetting | null;
  shots: number;
  /** 1 for memorization and the quiz, `performanceRepeats` for performance (the study's design). */
  repeats: number;
  maxOutputTokens: number;
  /** Quiz runs: where the original sits (a bias compensator quiz), null for the bias detector quiz. */
  quizPosition?: OptionLetter | null;
}

/** The memorization settings the grid runs: the given ones for replication, and Algorithm 1's pair. */
export function gridSettings(grid: GridSpec): MemorizationSetting[] {
  const methods = grid.methods ?? DEFAULT_METHODS;
  const settings = new Set<MemorizationSetting>(
    methods.includes(StudyMethod.REPLICATION) ? grid.settings : [],
  );
  if (methods.includes(StudyMethod.GUIDED_GENERAL)) {
    settings.add(MemorizationSetting.FULL_INFORMATION);
    settings.add(MemorizationSetting.GENERAL_INSTRUCTION);
  }
  return Object.values(MemorizationSetting).filter((setting) => settings.has(setting));
}

/** The quiz's positions: the bias detector quiz (null), then a bias compensator quiz at each letter. */
export const QUIZ_POSITIONS: readonly (OptionLetter | null)[] = [null, "A", "B", "C", "D"];

/**
 * Every run of the grid, in sample, k, kind, setting order, then per sample the quiz's (option generation, the
 * detector quiz and the four compensator quizzes; they need no demonstrations, so k = 0). Pure.
 */
export function gridCells<S extends GridSample>(samples: readonly S[], grid: GridSpec): GridCell<S>[] {
  const methods = grid.methods ?? DEFAULT_METHODS;
  const settings = gridSettings(grid);
  const kinds = methods.includes(StudyMethod.REPLICATION)
    ? grid.kinds.filter((kind) => kind === RunKind.MEMORIZATION || kind === RunKind.PERFORMANCE)
    : settings.length > 0
      ? [RunKind.MEMORIZATION]
      : [];
  const cells: GridCell<S>[] = [];
  for (const sample of samples) {
    for (const shots of grid.shots ?? sample.shotCounts) {
      for (const kind of kinds) {
        const memorization = kind === RunKind.MEMORIZATION;
        for (const setting of memorization ? settings : [null]) {
          cells.push({
            sample,
            kind,
            setting,
            shots,
            repeats: memorization ? 1 : grid.performanceRepeats,
            maxOutputTokens: memorization
              ? grid.memorizationMaxOutputTokens
              : grid.performanceMaxOutputTokens,
          });
        }
      }
    }
    if (methods.includes(StudyMethod.LOGPROB))
      // One generated token: the echo call's (a server generates at least one), counted in a budget's worst case.
      cells.push({ sample, kind: RunKind.LOGPROB, setting: null, shots: 0, repeats: 1, maxOutputTokens: 1 });
    if (methods.includes(StudyMethod.QUIZ)) {
      cells.push({
        sample,
        kind: RunKind.QUIZ_OPTIONS,
        setting: null,
        shots: 0,
        repeats: 1,
        maxOutputTokens: grid.quizOptionsMaxOutputTokens ?? QUIZ_DEFAULTS.quizOptionsMaxOutputTokens,
      });
      for (const quizPosition of QUIZ_POSITIONS)
        cells.push({
          sample,
          kind: RunKind.QUIZ,
          setting: null,
          shots: 0,
          repeats: 1,
          maxOutputTokens: grid.quizMaxOutputTokens ?? QUIZ_DEFAULTS.quizMaxOutputTokens,
          quizPosition,
        });
    }
  }
  return cells;
}
