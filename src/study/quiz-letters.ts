/** The quiz's letters: A-D are the options, E is "none of the provided options". */
export const QUIZ_LETTERS = ["A", "B", "C", "D", "E"] as const;
export type QuizLetter = (typeof QUIZ_LETTERS)[number];
export const OPTION_LETTERS = ["A", "B", "C", "D"] as const;
export type OptionLetter = (typeof OPTION_LETTERS)[number];
