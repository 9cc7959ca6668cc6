import fs from "node:fs";
import path from "node:path";
import { parseTimeTravelAnswer, timeTravelJudgePrompt } from "../../../src/judge/time-travel-judge";
import { describeWithSharedData, SHARED_DATA } from "../../support/shared-data";

describe("the method's authors' LLM judge", () => {
  it("reads their answer format strictly", () => {
    expect(parseTimeTravelAnswer("Yes (exact match)")).toBe("EXACT");
    expect(parseTimeTravelAnswer(" Yes (near-exact match).\n")).toBe("NEAR_EXACT");
    expect(parseTimeTravelAnswer("No")).toBe("INEXACT");
    for (const loose of [
      "Yes",
      "yes (exact match)",
      "exact match",
      "No, it is not",
      "Yes (partial match)",
      "",
    ])
      expect(parseTimeTravelAnswer(loose)).toBe("UNPARSEABLE");
  });

  it("asks in one user message, the pair filled in as their code fills it (a $ in a text stays as it is)", () => {
    const [message, ...rest] = timeTravelJudgePrompt("It cost $1.", "It cost $& 1.");
    expect(rest).toEqual([]);
    expect(message.role).toBe("user");
    expect(message.content).toMatch(
      /Example 5:\n\nREFERENCE TEXT:\nIt cost \$1\.\n\nCANDIDATE TEXT:\nIt cost \$& 1\.\n\nANSWER:\n$/,
    );
  });
});

describeWithSharedData("the authors' judge prompt, word for word", () => {
  it("is the prompt of their icl_evaluation.py with the pair in its placeholders", () => {
    const source = fs.readFileSync(
      path.join(SHARED_DATA, "method-reference/time-travel/icl_evaluation.py"),
      "utf8",
    );
    const theirs = /"gpt4_icl_prompt": """([\s\S]*?)"""/.exec(source)![1];
    const ours = timeTravelJudgePrompt("{reference_text}", "{candidate_text}")[0].content;
    expect(ours).toBe(theirs);
  });
});
