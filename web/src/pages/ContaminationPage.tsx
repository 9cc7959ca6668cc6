import { useEffect, useMemo, useState } from "preact/hooks";
import { gql } from "../api";
import { ErrorBox, number, percent, pValue, Section } from "../components/common";
import { ContaminationDocument, ContaminationQuery } from "../generated/operations";
import { latestOnly } from "../latest";

type Row = ContaminationQuery["contaminationSummary"][number];

const VERDICT_WORDS: Record<string, string> = {
  CONTAMINATED: "Contaminated",
  NO_EVIDENCE: "No evidence",
  CANNOT_TELL: "Cannot tell (too few instances)",
};

/** One method's evidence: its verdict in a line, its counts, its runs and what it cannot tell. */
function Evidence({
  method,
  title,
  verdict,
  counts,
  runIds,
  cannotTell,
}: {
  method: string;
  title: string;
  verdict: string | null;
  counts: string[];
  runIds: string[];
  cannotTell: string;
}) {
  return (
    <div class="evidence" data-method={method}>
      <h4>{title}</h4>
      {verdict === null ? (
        <p class="muted">Not run in this experiment.</p>
      ) : (
        <>
          <p data-verdict>{verdict}</p>
          <ul>
            {counts.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p class="muted">
            Runs:{" "}
            {runIds.map((runId) => (
              <code key={runId}>{runId.slice(0, 8)} </code>
            ))}
          </p>
          <p class="muted">What it cannot tell: {cannotTell}</p>
        </>
      )}
    </div>
  );
}

/** Samples per instance: whole when every instance has as many, else to a tenth. */
const samples = (value: number | null) =>
  value === null ? "n/a" : Number.isInteger(value) ? String(value) : value.toFixed(1);

function SampleEvidence({ row }: { row: Row }) {
  const { timeTravel, replication, guidedGeneral, quiz, logprob, cdd, ngramCoverage, codec, tsGuessing } =
    row;
  const decisive = logprob?.tests.find((test) => test.score === "minK");
  const range = quiz?.range;
  return (
    <figure class="figure" data-dataset={row.dataset}>
      <figcaption>
        <h3>
          {row.dataset}
          {row.split ? ` (${row.split})` : ""} · sample seed {row.sampleSeed}
        </h3>
      </figcaption>
      <div class="evidence-grid">
        <Evidence
          method="time-travel"
          title="Time Travel's rule (10 seeded instances, guided instruction)"
          verdict={
            timeTravel
              ? `Rule ${timeTravel.contaminated ? "met" : "not met"} at k = ${timeTravel.shots} (not a test)`
              : null
          }
          counts={
            timeTravel
              ? [
                  `${timeTravel.exact} exact, ${timeTravel.nearExact} near-exact of ${timeTravel.subsetJudged} judged (drawn from ${timeTravel.pool} non-trivial)`,
                  "rule: at least 1 exact or 2 near-exact",
                  `a model with no memory meets it here ${percent(timeTravel.falsePositiveRate)} of the time (at most)`,
                ]
              : []
          }
          runIds={timeTravel?.runIds ?? []}
          cannotTell={timeTravel?.cannotTell ?? ""}
        />
        <Evidence
          method="replication"
          title="Replication above the no-memory floor (full information): the verdict"
          verdict={replication ? VERDICT_WORDS[replication.verdict] : null}
          counts={
            replication
              ? [
                  replication.reason,
                  `alpha ${replication.alpha}, Bonferroni over ${replication.family} k; minimum detectable rate ${percent(replication.minimumDetectableRate)} (80% power)`,
                  `k = ${replication.shots}: ${replication.memorized} of ${replication.instances} memorized (${percent(replication.rate)}), ${percent(replication.aboveFloorRate)} above the floor [${percent(replication.aboveFloorCiLow)}, ${percent(replication.aboveFloorCiHigh)}]`,
                  `no-memory floor ${percent(replication.floorRate)}; ${replication.aboveFloor} above it`,
                  `general instruction (control) ${percent(replication.generalInstructionRate)}`,
                ]
              : []
          }
          runIds={replication?.runIds ?? []}
          cannotTell={replication?.cannotTell ?? ""}
        />
        <Evidence
          method="guided-general"
          title="Algorithm 1: guided vs general instruction (ROUGE-L)"
          verdict={
            guidedGeneral
              ? `${guidedGeneral.significant ? "Significant" : "Not significant"} (paired p = ${pValue(guidedGeneral.pValuePaired)})`
              : null
          }
          counts={
            guidedGeneral
              ? [
                  `k = ${guidedGeneral.shots}, ${guidedGeneral.instances} instances: guided ${number(guidedGeneral.guidedMean)}, general ${number(guidedGeneral.generalMean)}`,
                  `unpaired p (the authors' code) ${pValue(guidedGeneral.pValueUnpaired)}; ${guidedGeneral.resamples} resamples`,
                ]
              : []
          }
          runIds={guidedGeneral?.runIds ?? []}
          cannotTell={guidedGeneral?.cannotTell ?? ""}
        />
        <Evidence
          method="quiz"
          title="Data Contamination Quiz"
          verdict={
            range
              ? range.lower === null
                ? "No range yet"
                : `Range [${percent(range.lower)}, ${percent(range.upper)}] (kappa ${number(range.kappa)})`
              : null
          }
          counts={
            range
              ? [
                  `n = ${range.instances} of ${range.sampledInstances} instances (${range.optionsGivenUp} without usable options)`,
                  `options by ${range.generatorProvider}/${range.generatorModel}; ${range.originalAmongOptions} generation(s) rejected for holding the original`,
                  `bias detector A/B/C/D/E: ${range.bias.join("/")}; non-preferred ${range.nonPreferred.join(", ") || "none"}`,
                  `compensator hits ${range.compensators.map((c) => `${c.letter} ${c.hits}`).join(", ")}`,
                  ...range.notes,
                ]
              : []
          }
          runIds={quiz?.runIds ?? []}
          cannotTell={quiz?.cannotTell ?? ""}
        />
        <Evidence
          method="logprob"
          title="Token log-probabilities (loss, zlib, Min-K%, Min-K%++)"
          verdict={
            logprob
              ? logprob.verdict
                ? `${VERDICT_WORDS[logprob.verdict]} (Min-K% against ${decisive?.controlDataset}, p = ${pValue(decisive?.pValue ?? null)})`
                : logprob.member !== null
                  ? `Labelled ${logprob.member ? "member" : "non-member"}: see the calibration`
                  : "Scores only (no control dataset)"
              : null
          }
          counts={
            logprob
              ? [
                  `mean scores: ${logprob.scores.map((s) => `${s.score} ${number(s.mean)}`).join(", ")} (${logprob.scores[0]?.instances ?? 0} texts)`,
                  ...logprob.tests.map(
                    (t) =>
                      `${t.score} against ${t.controlDataset}: AUC ${number(t.auc)}, one-sided p ${pValue(t.pValue)} (${t.instances} vs ${t.controlInstances})`,
                  ),
                  ...logprob.calibration.map(
                    (c) =>
                      `${c.group}, ${c.score}: AUC ${number(c.auc)} [${number(c.aucLow)}, ${number(c.aucHigh)}], TPR ${percent(c.tprAt1PercentFpr)} at 1% FPR, ${percent(c.tprAt5PercentFpr)} at 5% (${c.members} members, ${c.nonMembers} non-members)`,
                  ),
                ]
              : []
          }
          runIds={logprob?.runIds ?? []}
          cannotTell={logprob?.cannotTell ?? ""}
        />
        <Evidence
          method="cdd"
          title="CDD: how peaked sampled continuations sit around the greedy one"
          verdict={
            cdd
              ? cdd.verdict && cdd.test
                ? `${VERDICT_WORDS[cdd.verdict]} (peakedness against ${cdd.test.controlDataset}, p = ${pValue(cdd.test.pValue)})`
                : "Share leaked only (no control dataset)"
              : null
          }
          counts={
            cdd
              ? [
                  `leaked by the authors' rule (peakedness > ${cdd.xi}): ${cdd.leaked} of ${cdd.instances}, ${percent(cdd.leakShare)} [${percent(cdd.leakShareLow)}, ${percent(cdd.leakShareHigh)}]`,
                  `mean peakedness ${number(cdd.meanPeakedness)}; ${samples(cdd.samplesPerInstance)} samples an instance, ${cdd.prompt.toLowerCase()} prompt`,
                  ...(cdd.test
                    ? [
                        `against ${cdd.test.controlDataset}: AUC ${number(cdd.test.auc)}, one-sided p ${pValue(cdd.test.pValue)} (${cdd.test.instances} vs ${cdd.test.controlInstances}); the control's leaked ${percent(cdd.test.controlLeakShare)}`,
                      ]
                    : []),
                  ...(cdd.notCompared > 0 ? [`${cdd.notCompared} instance(s) not compared`] : []),
                ]
              : []
          }
          runIds={cdd?.runIds ?? []}
          cannotTell={cdd?.cannotTell ?? ""}
        />
        <Evidence
          method="ngram-coverage"
          title="N-gram coverage: what the samples reproduce of the true continuation"
          verdict={
            ngramCoverage
              ? ngramCoverage.verdict && ngramCoverage.test
                ? `${VERDICT_WORDS[ngramCoverage.verdict]} (coverage against ${ngramCoverage.test.controlDataset}, p = ${pValue(ngramCoverage.test.pValue)})`
                : "Coverage only (no control dataset)"
              : null
          }
          counts={
            ngramCoverage
              ? [
                  `mean coverage ${percent(ngramCoverage.meanCoverage)} in runs of ${ngramCoverage.n} words (${ngramCoverage.instances} instances, ${samples(ngramCoverage.samplesPerInstance)} samples each, ${ngramCoverage.prompt.toLowerCase()} prompt)`,
                  ...(ngramCoverage.test
                    ? [
                        `against ${ngramCoverage.test.controlDataset}: AUC ${number(ngramCoverage.test.auc)}, one-sided p ${pValue(ngramCoverage.test.pValue)} (${ngramCoverage.test.instances} vs ${ngramCoverage.test.controlInstances}); the control's coverage ${percent(ngramCoverage.test.controlMeanCoverage)}`,
                      ]
                    : []),
                  ...(ngramCoverage.notCompared > 0
                    ? [`${ngramCoverage.notCompared} instance(s) not compared`]
                    : []),
                ]
              : []
          }
          runIds={ngramCoverage?.runIds ?? []}
          cannotTell={ngramCoverage?.cannotTell ?? ""}
        />
        <Evidence
          method="codec"
          title="CoDeC: the model's confidence with another instance in context"
          verdict={
            codec
              ? codec.verdict && codec.test
                ? `${VERDICT_WORDS[codec.verdict]} (drops against ${codec.test.controlDataset}, p = ${pValue(codec.test.pValue)})`
                : "Share only (no control dataset)"
              : null
          }
          counts={
            codec
              ? [
                  `confidence drops with context: ${codec.dropped} of ${codec.instances} (${percent(codec.dropShare)}, ${percent(codec.dropShareLow)}-${percent(codec.dropShareHigh)}); mean change ${number(codec.meanDelta)} per token`,
                  ...(codec.test
                    ? [
                        `against ${codec.test.controlDataset}: AUC ${number(codec.test.auc)}, one-sided p ${pValue(codec.test.pValue)} (${codec.test.instances} vs ${codec.test.controlInstances}); the control's share ${percent(codec.test.controlDropShare)}`,
                      ]
                    : []),
                  ...(codec.notCompared > 0 ? [`${codec.notCompared} instance(s) not compared`] : []),
                ]
              : []
          }
          runIds={codec?.runIds ?? []}
          cannotTell={codec?.cannotTell ?? ""}
        />
        <Evidence
          method="ts-guessing"
          title="TS-Guessing: a masked word asked for"
          verdict={
            tsGuessing
              ? tsGuessing.verdict && tsGuessing.test
                ? `${VERDICT_WORDS[tsGuessing.verdict]} (matches against ${tsGuessing.test.controlDataset}, p = ${pValue(tsGuessing.test.pValue)})`
                : "Rate only (no control dataset)"
              : null
          }
          counts={
            tsGuessing
              ? [
                  `masked words guessed exactly: ${tsGuessing.matched} of ${tsGuessing.instances} (${percent(tsGuessing.matchRate)}, ${percent(tsGuessing.matchRateLow)}-${percent(tsGuessing.matchRateHigh)})`,
                  ...(tsGuessing.test
                    ? [
                        `against ${tsGuessing.test.controlDataset}: AUC ${number(tsGuessing.test.auc)}, one-sided p ${pValue(tsGuessing.test.pValue)} (${tsGuessing.test.instances} vs ${tsGuessing.test.controlInstances}); the control's rate ${percent(tsGuessing.test.controlMatchRate)}`,
                      ]
                    : []),
                  ...(tsGuessing.notCompared > 0
                    ? [`${tsGuessing.notCompared} instance(s) not asked or not answered`]
                    : []),
                ]
              : []
          }
          runIds={tsGuessing?.runIds ?? []}
          cannotTell={tsGuessing?.cannotTell ?? ""}
        />
      </div>
    </figure>
  );
}

/** Every method's evidence of contamination, per dataset and split, side by side: evidence, not a score. */
export function ContaminationPage({ experimentId }: { experimentId: string }) {
  const [data, setData] = useState<ContaminationQuery | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reads = useMemo(latestOnly, []);
  useEffect(() => {
    reads(gql(ContaminationDocument, { id: experimentId }), setData, setError);
  }, [experimentId]);
  return (
    <Section
      title={data ? `Contamination evidence: ${data.experiment.name}` : "Contamination evidence"}
      actions={
        <a class="button" href={`#/experiments/${experimentId}`}>
          Back to the experiment
        </a>
      }
    >
      <ErrorBox error={error} />
      {data === null && !error ? <p>Loading…</p> : null}
      {data ? (
        <>
          <p class="muted">
            {data.experiment.provider} / {data.experiment.model}. Each method's result with its counts and
            what it cannot tell; memicl does not combine them into one score.
          </p>
          {data.contaminationSummary.length === 0 ? <p>No method has results yet.</p> : null}
          {data.contaminationSummary.map((row) => (
            <SampleEvidence key={row.sampleId} row={row} />
          ))}
        </>
      ) : null}
    </Section>
  );
}
