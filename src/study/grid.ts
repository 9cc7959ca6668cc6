import { DEFAULT_METHODS, StudyMethod } from "./methods";
import { OptionLetter } from "./quiz-letters";
import { ContinuationPrompt, MemorizationSetting, RunKind } from "./settings";

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
  /** The CDD method's sampling: its prompt, samples per instance and their temperature; the authors' by default. */
  cdd?: Partial<CddSampling>;
  /** N-gram coverage's sampling: its prompt, samples, temperature and top_p; the authors' by default. */
  ngramCoverage?: Partial<NgramSampling>;
}

/** How n-gram coverage samples: like CDD, with nucleus sampling (top_p) too. */
export interface NgramSampling extends CddSampling {
  topP: number;
}

/** How CDD samples: the guided prompt (the replication's full information at k = 0) or the raw first piece. */
export interface CddSampling {
  prompt: ContinuationPrompt;
  samples: number;
  temperature: number;
}

export const QUIZ_DEFAULTS = {
  quizMaxOutputTokens: 1,
  quizOptionsMaxOutputTokens: 1500,
  /** Option generation samples at temperature 1, as the authors did. */
  optionsTemperature: 1,
  /** Generations an instance may take before its options are given up (the first and two more). */
  optionGenerations: 3,
} as const;

/** The authors' sampling (Dong et al. 2024): 50 samples at temperature 0.8; the guided prompt for chat models. */
export const CDD_SAMPLING: CddSampling = {
  prompt: ContinuationPrompt.GUIDED,
  samples: 50,
  temperature: 0.8,
};

/** Hallinan et al.'s sampling: 20 samples at temperature 1.0 with top_p 0.95; the guided prompt for chat models. */
export const NGRAM_SAMPLING: NgramSampling = {
  prompt: ContinuationPrompt.GUIDED,
  samples: 20,
  temperature: 1,
  topP: 0.95,
};

/** N-gram coverage counts runs of at least this many words (Hallinan et al.: n >= 3). */
export const NGRAM_N = 3;

/** TS-Guessing's answer is one word: a few tokens leave room for a long one, and for nothing else. */
export const TS_GUESSING_MAX_OUTPUT_TOKENS = 8;

/** The authors' thresholds: near within alpha = 0.05 of the longest length; leaked above xi = 0.01 of samples. */
export const CDD_THRESHOLDS = { alpha: 0.05, xi: 0.01 } as const;

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
  /** The cell's own temperature (CDD's greedy and sampled runs); the experiment's when absent. */
  temperature?: number;
  /** The cell's nucleus sampling (n-gram coverage's); none when absent. */
  topP?: number;
  /**
   * The method a CONTINUATION or LOGPROB cell serves when it is not the kind's first (CDD and n-gram coverage read
   * their own continuations; CoDeC its own scoring passes, apart from LOGPROB's).
   */
  method?: StudyMethod;
  /** CoDeC's in-context scoring pass: each instance after another of its sample. */
  inContext?: boolean;
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
    if (methods.includes(StudyMethod.CODEC))
      // CoDeC's two scoring passes: each instance alone, and after another instance of the sample.
      for (const inContext of [false, true])
        cells.push({
          sample,
          kind: RunKind.LOGPROB,
          setting: null,
          shots: 0,
          repeats: 1,
          maxOutputTokens: 1,
          method: StudyMethod.CODEC,
          inContext,
        });
    if (methods.includes(StudyMethod.TS_GUESSING))
      // TS-Guessing: each instance once, one content word masked, the answer one word.
      cells.push({
        sample,
        kind: RunKind.GUESSING,
        setting: null,
        shots: 0,
        repeats: 1,
        maxOutputTokens: TS_GUESSING_MAX_OUTPUT_TOKENS,
      });
    if (methods.includes(StudyMethod.CDD)) {
      // One greedy continuation (temperature 0) and N sampled ones of each instance's first piece.
      const cdd = { ...CDD_SAMPLING, ...grid.cdd };
      const setting = cdd.prompt === ContinuationPrompt.GUIDED ? MemorizationSetting.FULL_INFORMATION : null;
      const continuation = { sample, kind: RunKind.CONTINUATION, setting, shots: 0, method: StudyMethod.CDD };
      const maxOutputTokens = grid.memorizationMaxOutputTokens;
      cells.push({ ...continuation, repeats: 1, maxOutputTokens, temperature: 0 });
      cells.push({ ...continuation, repeats: cdd.samples, maxOutputTokens, temperature: cdd.temperature });
    }
    if (methods.includes(StudyMethod.NGRAM_COVERAGE)) {
      // N samples of each first piece, compared with the true continuation: no greedy run.
      const ngram = { ...NGRAM_SAMPLING, ...grid.ngramCoverage };
      cells.push({
        sample,
        kind: RunKind.CONTINUATION,
        setting: ngram.prompt === ContinuationPrompt.GUIDED ? MemorizationSetting.FULL_INFORMATION : null,
        shots: 0,
        method: StudyMethod.NGRAM_COVERAGE,
        repeats: ngram.samples,
        maxOutputTokens: grid.memorizationMaxOutputTokens,
        temperature: ngram.temperature,
        topP: ngram.topP,
      });
    }
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
