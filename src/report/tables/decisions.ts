import { Field, Float, ObjectType } from "type-graphql";
import { ContaminationVerdict } from "../../study/contamination-verdict";
import { REGIME_ORDER, Regime } from "../../study/regime";
import { GUIDED_GENERAL_ALPHA } from "../analyses";
import { Decision, DecisionMethod, studyDecisions } from "../analyses/decisions";
import { contaminationSummaryTable } from "./contamination-summary";
import { SampleScoped } from "./scope";
import { defineTable, interval, markdownTable, pct, type ReportTablesRead, sampleLabel } from "./table";

declare module "./table" {
  interface ReportTables {
    decisions: DecisionRow[];
  }
}

@ObjectType({
  implements: SampleScoped,
  description:
    "One method's decision on one sample, in words, with its error rate under a model without memory, what it " +
    "could have seen, the no-memory floor and the headline rate: the report's first page.",
})
export class DecisionRow extends SampleScoped implements Decision {
  @Field()
  dataset: string;

  @Field(() => String, { nullable: true })
  split: string | null;

  @Field(() => String, {
    description: "replication (the verdict), time-travel, guided-general, quiz or logprob.",
  })
  method: DecisionMethod;

  @Field()
  methodName: string;

  @Field(() => ContaminationVerdict, {
    nullable: true,
    description: "The verdict of a method that tests (replication, LOGPROB); null for a rule or a range.",
  })
  verdict: ContaminationVerdict | null;

  @Field({ description: 'The decision in a few words ("No evidence above 5.8%", "Rule met").' })
  decision: string;

  @Field({ description: "What the decision means, in a sentence." })
  meaning: string;

  @Field(() => Float, {
    nullable: true,
    description: "How often a model without memory gets this method's positive call; null where it has none.",
  })
  errorRate: number | null;

  @Field({
    description: "What errorRate is (a test's level, a rate measured on this sample's floor), or why none.",
  })
  errorRateBasis: string;

  @Field(() => Float, {
    nullable: true,
    description:
      "The smallest rate the method detects with 80% power; null where it has none or cannot reject.",
  })
  minimumDetectableRate: number | null;

  @Field(() => Float, { nullable: true, description: "The no-memory floor of the decision's cell." })
  floorRate: number | null;

  @Field(() => Float, { nullable: true, description: "The headline rate the decision rests on." })
  rate: number | null;

  @Field(() => Float, { nullable: true })
  rateLow: number | null;

  @Field(() => Float, { nullable: true })
  rateHigh: number | null;

  @Field({ description: "What the headline rate counts." })
  rateLabel: string;

  @Field({ description: "Where this method and the verdict disagree, why; empty otherwise." })
  note: string;
}

export const decisionsTable = defineTable<"decisions">({
  field: "decisions",
  type: () => [DecisionRow],
  description:
    "Each sample's decision per method, first: the verdict, its meaning, its error rate, minimum detectable " +
    "rate and floor, and the headline rate with its bounds.",
  compute: async (inputs) =>
    studyDecisions(await inputs.table(contaminationSummaryTable), {
      guidedGeneralAlpha: GUIDED_GENERAL_ALPHA,
    }),
  markdown: {
    title: "Decision",
    body: (rows, report) =>
      (rows.length === 0
        ? "No method's results yet: no decision."
        : markdownTable(
            [
              "dataset",
              "sample",
              "method",
              "decision",
              "what it means",
              "false positives without memory",
              "minimum detectable rate",
              "no-memory floor",
              "headline rate (95%)",
            ],
            rows.map((row) => [
              row.split ? `${row.dataset} (${row.split})` : row.dataset,
              sampleLabel(row),
              row.methodName,
              `**${row.decision}**`,
              row.note ? `${row.meaning} ${row.note}` : row.meaning,
              row.errorRate === null ? row.errorRateBasis : `${pct(row.errorRate)} (${row.errorRateBasis})`,
              pct(row.minimumDetectableRate),
              pct(row.floorRate),
              row.rate === null && row.rateLow === null
                ? ""
                : `${pct(row.rate)} ${row.rateLow !== null ? `(${interval(row.rateLow, row.rateHigh)})` : ""}; ${row.rateLabel}`.trim(),
            ]),
          )) + glance(report),
  },
  statistics: [],
});

/** One compact table of the study's figures: memorization by dataset, sample and setting, regime by regime. */
function glance(report: ReportTablesRead): string {
  const rows = report.memorizationByRegime;
  if (!rows?.length) return "";
  const regimes = REGIME_ORDER.filter((regime) => rows.some((row) => row.regime === regime));
  const groups = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.dataset}\u0000${row.sampleId}\u0000${row.setting}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const label: Record<Regime, string> = {
    [Regime.ZERO_SHOT]: "zero-shot",
    [Regime.FEW_SHOT]: "few-shot",
    [Regime.MANY_SHOT]: "many-shot",
  };
  return (
    "\n\n### The study's figures at a glance (memorization, exact or near-exact; per k in the sections below)\n\n" +
    markdownTable(
      ["dataset", "sample", "setting", ...regimes.map((regime) => label[regime])],
      [...groups.values()].map((group) => [
        group[0].dataset,
        sampleLabel(group[0]),
        group[0].setting,
        ...regimes.map((regime) => {
          const row = group.find((candidate) => candidate.regime === regime);
          return row ? `${pct(row.rate)} (${interval(row.ciLow, row.ciHigh)}; n ${row.n})` : "";
        }),
      ]),
    )
  );
}
