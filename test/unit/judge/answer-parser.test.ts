import { LabelWords, parseAnswer } from "../../../src/completion/answer-parser";

const NLI: LabelWords[] = [
  { label: "entailment", verbalizer: "entailment" },
  { label: "not_entailment", verbalizer: "not entailment" },
];
const TREC: LabelWords[] = [
  { label: "ABBR", verbalizer: "abbreviation" },
  { label: "DESC", verbalizer: "description" },
  { label: "ENTY", verbalizer: "entity" },
  { label: "HUM", verbalizer: "human" },
  { label: "LOC", verbalizer: "location" },
  { label: "NUM", verbalizer: "number" },
];
const DBPEDIA: LabelWords[] = [
  { label: "7", verbalizer: "EducationalInstitution" },
  { label: "12", verbalizer: "MeanOfTransportation" },
  { label: "13", verbalizer: "Athlete" },
];

const label = (value: string) => ({ outcome: "label", label: value });

describe("parseAnswer", () => {
  it.each([
    ["entailment", label("entailment")],
    ["Entailment.", label("entailment")],
    [" NOT ENTAILMENT ", label("not_entailment")],
    ["not_entailment", label("not_entailment")],
    ["Label: not entailment", label("not_entailment")],
    ["The answer is entailment", label("entailment")],
    ["**Entailment**\n\nBecause sentence 1 says so.", label("entailment")],
    ["Ｅｎｔａｉｌｍｅｎｔ", label("entailment")],
  ])("reads %p as a label", (output, expected) => {
    expect(parseAnswer(output, NLI)).toEqual(expected);
  });

  it("lets a label at the start win over labels mentioned in an explanation after it", () => {
    expect(parseAnswer("entailment (it is not 'not entailment')", NLI)).toEqual(label("entailment"));
  });

  it("accepts one label mentioned after other words", () => {
    expect(parseAnswer("I think this is a location question", TREC)).toEqual(label("LOC"));
  });

  it("calls two different labels after other words conflicting", () => {
    expect(parseAnswer("It could be human or location", TREC)).toEqual({
      outcome: "unparseable",
      reason: "conflicting labels",
      mentioned: ["HUM", "LOC"],
    });
  });

  it.each([[""], ["   "], ["..."]])("calls %p empty", (output) => {
    expect(parseAnswer(output, NLI)).toMatchObject({ outcome: "unparseable", reason: "empty" });
  });

  it("needs whole words: 'entailments' or 'numbers' are not labels", () => {
    expect(parseAnswer("entailments", NLI)).toMatchObject({ outcome: "unparseable", reason: "no label" });
    expect(parseAnswer("numbers", TREC)).toMatchObject({ outcome: "unparseable", reason: "no label" });
  });

  it("recognises raw labels and run-together verbalizers", () => {
    expect(parseAnswer("ABBR", TREC)).toEqual(label("ABBR"));
    expect(parseAnswer("MeanOfTransportation", DBPEDIA)).toEqual(label("12"));
    expect(parseAnswer("13", DBPEDIA)).toEqual(label("13"));
  });

  it("does not read a number inside other text as a numeric label when another label leads", () => {
    expect(parseAnswer("Athlete, born 1913", DBPEDIA)).toEqual(label("13"));
  });
});

/** Ways models phrase an answer, each with `{}` for the label's words. */
const PHRASINGS = [
  "{}",
  "{}.",
  " {} ",
  "Label: {}",
  "label: {}",
  "Answer: {}",
  "The answer is {}",
  "The answer is: {}.",
  "The correct label is {}",
  "Prediction: {}",
  "**{}**",
  "{}\n\nExplanation: the first text says more than the second.",
  "I think the answer is {}.",
  "It is {}.",
  "{}!",
];

const upper = (text: string) => text.toUpperCase();
const title = (text: string) => text.replace(/\b\w/g, (letter) => letter.toUpperCase());

function table(labels: LabelWords[]): [string, string][] {
  const rows: [string, string][] = [];
  for (const { label: value, verbalizer } of labels)
    for (const phrasing of PHRASINGS)
      for (const words of [verbalizer, upper(verbalizer), title(verbalizer)])
        rows.push([phrasing.replace("{}", words), value]);
  return rows;
}

describe("parseAnswer on the shared datasets' labels", () => {
  const NEGATIONS: [string, string][] = [
    ["No entailment", "not_entailment"],
    ["no entailment.", "not_entailment"],
    ["non-entailment", "not_entailment"],
    ["Non-entailment", "not_entailment"],
    ["not entailed", "not_entailment"],
    ["Not entailed.", "not_entailment"],
    ["does not entail", "not_entailment"],
    ["The first sentence does not entail the second.", "not_entailment"],
    ["Sentence 1 doesn't entail sentence 2", "not_entailment"],
    ["not-entailment", "not_entailment"],
    ["Entailed", "entailment"],
    ["The first sentence entails the second.", "entailment"],
  ];

  it.each([...table(NLI), ...NEGATIONS])("RTE: reads %p as %p", (output, expected) => {
    expect(parseAnswer(output, NLI)).toEqual(label(expected));
  });

  // WNLI's labels as its file has them, with the verbalizers import gives them.
  const WNLI: LabelWords[] = [
    { label: "0 (not entailment)", verbalizer: "not entailment" },
    { label: "1 (entailment)", verbalizer: "entailment" },
  ];
  it.each([
    ...table(WNLI),
    ...NEGATIONS.map(([output, value]): [string, string] => [
      output,
      value === "entailment" ? "1 (entailment)" : "0 (not entailment)",
    ]),
  ])("WNLI: reads %p as %p", (output, expected) => {
    expect(parseAnswer(output, WNLI)).toEqual(label(expected));
  });

  it.each(table(TREC))("TREC: reads %p as %p", (output, expected) => {
    expect(parseAnswer(output, TREC)).toEqual(label(expected));
  });

  it.each(table(DBPEDIA))("DBpedia: reads %p as %p", (output, expected) => {
    expect(parseAnswer(output, DBPEDIA)).toEqual(label(expected));
  });
});

describe("TREC's classes named in words", () => {
  const trec: LabelWords[] = [
    { label: "ABBR", verbalizer: "abbreviation" },
    { label: "DESC", verbalizer: "description" },
    { label: "ENTY", verbalizer: "entity" },
    { label: "HUM", verbalizer: "human" },
    { label: "LOC", verbalizer: "location" },
    { label: "NUM", verbalizer: "number" },
  ];
  it.each([
    ["Location", "LOC"],
    ["location.", "LOC"],
    ["LOC", "LOC"],
    ["entity", "ENTY"],
    ["Answer: number", "NUM"],
  ])("reads %p as %s", (answer, label) => {
    expect(parseAnswer(answer, trec)).toEqual({ outcome: "label", label });
  });
});
