/** The memorization settings as the command line names them (mapped to the API's enum in prompt.command.ts). */
export const SETTING_NAMES = ["full-information", "segment-pairs-and-labels", "only-segment-pairs"] as const;

export type SettingName = (typeof SETTING_NAMES)[number];
