import { MemorizationSetting, RunKind } from "./settings";

/** The grid of an experiment: samples x k x (memorization settings + performance). */
export interface GridSpec {
  kinds: RunKind[];
  settings: MemorizationSetting[];
  /** k values; each sample's own when absent. */
  shots?: number[];
  performanceRepeats: number;
  memorizationMaxOutputTokens: number;
  performanceMaxOutputTokens: number;
}

/** What the grid needs of a sample: the k values it was drawn for. */
export interface GridSample {
  shotCounts: readonly number[];
}

export interface GridCell<S extends GridSample = GridSample> {
  sample: S;
  kind: RunKind;
  setting: MemorizationSetting | null;
  shots: number;
  /** 1 for memorization, `performanceRepeats` for performance (the study's design). */
  repeats: number;
  maxOutputTokens: number;
}

/** Every run of the grid, in sample, k, kind, setting order (pure). */
export function gridCells<S extends GridSample>(samples: readonly S[], grid: GridSpec): GridCell<S>[] {
  const cells: GridCell<S>[] = [];
  for (const sample of samples) {
    for (const shots of grid.shots ?? sample.shotCounts) {
      for (const kind of grid.kinds) {
        const memorization = kind === RunKind.MEMORIZATION;
        for (const setting of memorization ? grid.settings : [null]) {
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
  }
  return cells;
}
