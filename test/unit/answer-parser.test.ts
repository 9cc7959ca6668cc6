import { LabelWords, parseAnswer } from "../../src/completion/answer-parser";

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
