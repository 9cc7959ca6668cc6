/** What a run asks of the model: replicate the instance (memorization) or do the task (performance). */
export enum RunKind {
  MEMORIZATION = "MEMORIZATION",
  PERFORMANCE = "PERFORMANCE",
}

/** How much a memorization prompt contains (the study's three settings). */
export enum MemorizationSetting {
  FULL_INFORMATION = "FULL_INFORMATION",
  SEGMENT_PAIRS_AND_LABELS = "SEGMENT_PAIRS_AND_LABELS",
  ONLY_SEGMENT_PAIRS = "ONLY_SEGMENT_PAIRS",
}

/** The settings in the study's order (most information first): tables and figures list them so. */
export const SETTING_ORDER: readonly MemorizationSetting[] = [
  MemorizationSetting.FULL_INFORMATION,
  MemorizationSetting.SEGMENT_PAIRS_AND_LABELS,
  MemorizationSetting.ONLY_SEGMENT_PAIRS,
];

/** The settings as the command line spells them. */
export const SETTING_NAMES = ["full-information", "segment-pairs-and-labels", "only-segment-pairs"] as const;

export type SettingName = (typeof SETTING_NAMES)[number];

const SETTING_BY_NAME: Record<SettingName, MemorizationSetting> = {
  "full-information": MemorizationSetting.FULL_INFORMATION,
  "segment-pairs-and-labels": MemorizationSetting.SEGMENT_PAIRS_AND_LABELS,
  "only-segment-pairs": MemorizationSetting.ONLY_SEGMENT_PAIRS,
};

/** A setting from its command-line spelling or its API name; null when it is neither. */
export function settingNamed(value: string): MemorizationSetting | null {
  return (
    SETTING_BY_NAME[value as SettingName] ??
    Object.values(MemorizationSetting).find((name) => name === value) ??
    null
  );
}
