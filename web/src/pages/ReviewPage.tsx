import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { apiKey, gql } from "../api";
import { ErrorBox, number, percent, Section } from "../components/common";
import { wordDiff } from "../diff";
import { SETTING_LABELS } from "../figures/data";
import { judgeLabel } from "../format";
import {
  AgreementDocument,
  type AgreementQuery,
  CurrentKeyDocument,
  type JudgeKind,
  ReviewCompletionDocument,
  ReviewerAgreementDocument,
  type ReviewerAgreementQuery,
  ReviewQueueBlindDocument,
  ReviewQueueDocument,
  type ReviewQueueQuery,
  type ReviewReason,
  type SpanReading,
  type Verdict,
} from "../generated/operations";
import { latestOnly } from "../latest";

const VERDICTS = [
  { key: "e", verdict: "EXACT", label: "Exact" },
  { key: "n", verdict: "NEAR_EXACT", label: "Near-exact" },
  { key: "i", verdict: "INEXACT", label: "Inexact" },
] as const;
const REASONS: ReviewReason[] = [
  "ROUTED",
  "NEAR_EXACT",
  "UNREVIEWED",
  "DISAGREEMENT",
  "NEAR_THRESHOLD",
  "REVIEWER_TIE",
  "UNREADABLE",
  "UNSURE",
  "SAMPLE",
];
/** Why an item is in the queue, said beside it. */
const REASON_TEXT: Record<ReviewReason, string> = {
  ROUTED:
    "routed to review (an automatic verdict that is near-exact, unreadable or disputed; which is not said)",
  NEAR_EXACT: "its verdict is near-exact, the borderline",
  UNREVIEWED: "no human has judged it",
  DISAGREEMENT: "the automatic judges disagree",
  NEAR_THRESHOLD: "the heuristic's scores sit near a threshold",
  REVIEWER_TIE: "reviewers tie: another review decides",
  UNREADABLE: "an automatic judge's answer was unreadable",
  SAMPLE: "a random sample",
  UNSURE: "the heuristic judge could not class a span of it (its verdict sits between the report's bounds)",
};
/** How the heuristic judge classed a span it read (Judgment.spans). */
const SPAN_READING_TEXT: Record<SpanReading, string> = {
  FACT: "changed fact",
  FORM: "same fact, other form",
  UNSURE: "unsure (rewording or added clause)",
};
const REVIEWER_STORAGE = "memicl.reviewer";
const BLIND_STORAGE = "memicl.blindReview";

type Item = ReviewQueueQuery["completionsToReview"]["edges"][number]["node"];

/** The human review queue of an experiment: one completion at a time, recorded with a key (E, N, I). */
export function ReviewPage({ experimentId }: { experimentId: string }) {
  const scope = { experimentId };
  const [reason, setReason] = useState<ReviewReason>("ROUTED");
  const [judge, setJudge] = useState<JudgeKind>("HEURISTIC");
  const [queue, setQueue] = useState<Item[] | null>(null);
  // The reason the shown queue was loaded for (the chooser may already name the next one).
  const [queueReason, setQueueReason] = useState<ReviewReason>("ROUTED");
  const [index, setIndex] = useState(0);
  const [note, setNote] = useState("");
  const [reviewer, setReviewer] = useState(localStorage.getItem(REVIEWER_STORAGE) ?? "");
  const [agreement, setAgreement] = useState<AgreementQuery["judgeAgreement"] | null>(null);
  const [reviewers, setReviewers] = useState<ReviewerAgreementQuery["reviewerAgreement"] | null>(null);
  const [recorded, setRecorded] = useState<string[]>([]);
  // Blind review (the default): an item's automatic verdicts stay hidden until this reviewer has decided it, so
  // the agreement measured from the decisions is not the judge's own opinion read back.
  const [blind, setBlind] = useState(localStorage.getItem(BLIND_STORAGE) !== "off");
  const [decided, setDecided] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<unknown>(null);
  // A blind reviewer's key: the server serves no verdict, no other reviewer and no model to it at all. The page
  // asks who its key is first (null: not known yet), so that it asks for nothing such a key may not read.
  const [blindKey, setBlindKey] = useState<boolean | null>(apiKey() ? null : false);
  const [keyName, setKeyName] = useState<string | null>(null);
  useEffect(() => {
    if (!apiKey()) return;
    gql(CurrentKeyDocument)
      .then((data) => {
        setBlindKey(data.currentKey?.blind ?? false);
        setKeyName(data.currentKey?.name ?? null);
        if (data.currentKey?.blind) setBlind(true);
      })
      .catch((e) => {
        setBlindKey(false);
        setError(e);
      });
  }, []);

  // The queue and the agreement shown answer the reason and the judge chosen, whatever order answers come in.
  const queues = useMemo(latestOnly, []);
  const agreements = useMemo(latestOnly, []);
  const loadQueue = () => {
    if (blindKey === null) return;
    const asked = reason;
    // The reviewer's own queue: what they have not reviewed, whatever others did.
    const own = apiKey() ? null : reviewer.trim() || null;
    const load = async (): Promise<Item[]> => {
      if (!blindKey)
        try {
          const data = await gql(ReviewQueueDocument, { scope, reason: asked, reviewer: own });
          return data.completionsToReview.edges.map((edge) => edge.node);
        } catch (e) {
          if (!/reviews blind/.test(String((e as Error)?.message ?? e))) throw e;
          setBlindKey(true);
          setBlind(true);
        }
      const data = await gql(ReviewQueueBlindDocument, { scope, reason: asked });
      return data.completionsToReview.edges.map((edge) => ({
        ...edge.node,
        judgments: [],
        effectiveJudgment: null,
      }));
    };
    return queues(
      load(),
      (items) => {
        setQueue(items);
        setQueueReason(asked);
        setIndex(0);
      },
      setError,
    );
  };
  const loadAgreement = () =>
    blindKey !== false
      ? Promise.resolve()
      : agreements(
          Promise.all([gql(AgreementDocument, { scope, judge }), gql(ReviewerAgreementDocument, { scope })]),
          ([judged, reviewed]) => {
            setAgreement(judged.judgeAgreement);
            setReviewers(reviewed.reviewerAgreement);
          },
          setError,
        );
  // Each reviewer's queue is their own: a new name loads that reviewer's.
  useEffect(() => {
    loadQueue();
  }, [experimentId, reason, reviewer, blindKey]);
  useEffect(() => {
    loadAgreement();
  }, [experimentId, judge, blindKey]);

  const item = queue?.[index] ?? null;
  const reviewerInput = useRef<HTMLInputElement>(null);
  const record = async (verdict: Verdict) => {
    if (!item) return;
    // With API keys on, the key says who reviews; without, the page asks for a name first.
    if (!apiKey() && !reviewer.trim()) {
      setError(new Error("Enter your name as the reviewer first: reviews are recorded under it."));
      reviewerInput.current?.focus();
      return;
    }
    try {
      await gql(ReviewCompletionDocument, {
        input: {
          completionId: item.id,
          verdict,
          note: note.trim() || null,
          reviewer: reviewer.trim() || null,
        },
      });
      setDecided((current) => new Set([...current, item.id]));
      setRecorded((current) => [
        ...current,
        `${verdict} ← ${(item.extractedAnswer ?? item.output ?? "").slice(0, 60)}`,
      ]);
      setNote("");
      setError(null);
      await loadAgreement();
      if (queue && index + 1 < queue.length) setIndex(index + 1);
      else await loadQueue();
    } catch (e) {
      setError(e);
    }
  };

  // The keys act on what is on the screen: the handler is replaced at each render, and the one listener calls the
  // latest. (A listener re-registered in an effect runs after the screen has changed, so a key pressed in between
  // acted on the item before: ← after a decision did nothing.)
  const onKeyRef = useRef<(event: KeyboardEvent) => void>(() => {});
  onKeyRef.current = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    if (target.tagName === "TEXTAREA" || target.tagName === "INPUT" || event.metaKey || event.ctrlKey) return;
    const choice = VERDICTS.find((v) => v.key === event.key.toLowerCase());
    if (choice) {
      event.preventDefault();
      record(choice.verdict);
    }
    if (event.key === "ArrowRight" && queue && index + 1 < queue.length) setIndex(index + 1);
    if (event.key === "ArrowLeft" && index > 0) setIndex(index - 1);
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => onKeyRef.current(event);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const answer = item ? (item.extractedAnswer ?? item.output ?? "") : "";
  return (
    <>
      <Section
        title="Review"
        actions={
          <a class="button" href={`#/experiments/${experimentId}`}>
            Back to the experiment
          </a>
        }
      >
        <div class="toolbar">
          <label>
            Queue{" "}
            <select
              value={reason}
              onChange={(e) => setReason((e.target as HTMLSelectElement).value as ReviewReason)}
            >
              {(blindKey
                ? REASONS.filter((r) => ["ROUTED", "UNREVIEWED", "SAMPLE", "UNSURE"].includes(r))
                : REASONS
              ).map((r) => (
                <option key={r} value={r}>
                  {r.toLowerCase().replaceAll("_", "-")}
                </option>
              ))}
            </select>
          </label>
          {keyName !== null ? (
            <span class="muted" data-field="reviewer">
              Reviewing as {keyName}
            </span>
          ) : (
            <label>
              Reviewer{" "}
              <input
                ref={reviewerInput}
                value={reviewer}
                disabled={apiKey() !== null}
                title={apiKey() ? "With an API key, reviews are recorded under the key's name" : undefined}
                placeholder="your name"
                onInput={(e) => {
                  const value = (e.target as HTMLInputElement).value;
                  setReviewer(value);
                  localStorage.setItem(REVIEWER_STORAGE, value);
                }}
              />
            </label>
          )}
          <label title="The queue's name still says why an item is in it; the sample queue says nothing">
            <input
              type="checkbox"
              class="blind"
              checked={blind}
              disabled={blindKey === true}
              onChange={(e) => {
                const on = (e.target as HTMLInputElement).checked;
                setBlind(on);
                localStorage.setItem(BLIND_STORAGE, on ? "on" : "off");
              }}
            />{" "}
            Blind: automatic verdicts hidden until I decide
          </label>
          <span class="muted">
            {queue ? `${queue.length === 0 ? 0 : index + 1} of ${queue.length} in this page` : ""}
          </span>
        </div>
        <ErrorBox error={error} />
        {queue !== null && !item ? <p class="empty">Nothing to review in this queue.</p> : null}
        {item ? (
          <div class="review" data-completion={item.id} data-reason={queueReason}>
            <dl>
              <dt>Where it comes from</dt>
              <dd class="where">
                {item.run.setting ? (SETTING_LABELS[item.run.setting] ?? item.run.setting) : "performance"}, k
                = {item.run.shots}, label {item.sampledInstance.label}
              </dd>
              <dt>Why it is here</dt>
              <dd class="reason">{REASON_TEXT[queueReason]}</dd>
              <dt>Initial segment</dt>
              <dd class="segment">{item.sampledInstance.initialSegment}</dd>
              <dt>Reference (the dataset's continuation)</dt>
              <dd class="segment">{item.sampledInstance.subsequentSegment}</dd>
              <dt>
                Model's answer{" "}
                {item.extractedAnswer !== null && item.extractedAnswer !== item.output ? "(extracted)" : ""}
              </dt>
              <dd class="segment diff" title="differences from the reference">
                {wordDiff(item.sampledInstance.subsequentSegment, answer).map((part, i) =>
                  part.kind === "same" ? (
                    <span key={i}>{part.text}</span>
                  ) : part.kind === "added" ? (
                    <ins key={i} title="only in the answer">
                      {part.text}
                    </ins>
                  ) : (
                    <del key={i} title="only in the reference">
                      {part.text}
                    </del>
                  ),
                )}
              </dd>
              {item.extractedAnswer !== null && item.extractedAnswer !== item.output ? (
                <>
                  <dt>Raw output</dt>
                  <dd class="segment raw">{item.output}</dd>
                </>
              ) : null}
              <dt>Verdicts so far</dt>
              <dd>
                {blindKey ? (
                  <p class="muted blind-note">Not shown to a blind reviewer's key.</p>
                ) : blind && !decided.has(item.id) ? (
                  <p class="muted blind-note">Hidden until you decide (blind review).</p>
                ) : (
                  <ul class="verdicts">
                    {item.judgments.map((j) => (
                      <li key={j.id}>
                        <strong>{j.verdict}</strong> by {judgeLabel(j.judgeKind, j.judgeName)}
                        {j.note ? ` — ${j.note}` : ""}
                        {j.spans && j.spans.length > 0 ? (
                          <ul class="judged-spans">
                            {j.spans.map((span, i) => (
                              <li key={i} data-reading={span.reading}>
                                {SPAN_READING_TEXT[span.reading]}
                                {span.kind ? ` (${span.kind})` : ""}: <del>{span.reference || "—"}</del> →{" "}
                                <ins>{span.candidate || "—"}</ins>
                              </li>
                            ))}
                          </ul>
                        ) : j.spans ? (
                          <span class="muted">
                            {" "}
                            (differs only in form: case, punctuation, numbers, accents, a word's other form)
                          </span>
                        ) : null}
                      </li>
                    ))}
                  </ul>
                )}
              </dd>
            </dl>
            <label class="note">
              Note (optional)
              <textarea
                value={note}
                rows={2}
                onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)}
              />
            </label>
            <div class="verdict-buttons">
              {VERDICTS.map((v) => (
                <button
                  key={v.verdict}
                  type="button"
                  data-verdict={v.verdict}
                  onClick={() => record(v.verdict)}
                >
                  <kbd>{v.key.toUpperCase()}</kbd> {v.label}
                </button>
              ))}
            </div>
            <p class="muted">
              Keys: E exact, N near-exact, I inexact; ← → move through the page. <ins>Underlined</ins> words
              are only in the answer, <del>struck</del> ones only in the reference.
            </p>
          </div>
        ) : null}
      </Section>
      {blindKey !== false ? null : (
        <Section
          title="Judge vs human agreement"
          actions={
            <label>
              Judge{" "}
              <select
                value={judge}
                onChange={(e) => setJudge((e.target as HTMLSelectElement).value as JudgeKind)}
              >
                <option value="HEURISTIC">heuristic</option>
                <option value="LLM">LLM</option>
              </select>
            </label>
          }
        >
          {agreement ? (
            <dl class="agreement" data-n={agreement.n}>
              <dt>Compared</dt>
              <dd data-field="n">
                {agreement.n} completions judged by both ({percent(agreement.coverage)} of {agreement.total})
              </dd>
              <dt>Agreement</dt>
              <dd data-field="percentAgreement">
                {agreement.agreed} of {agreement.n} ({percent(agreement.percentAgreement)})
              </dd>
              <dt>Cohen's kappa (3 verdicts)</dt>
              <dd data-field="kappa">{number(agreement.kappa)}</dd>
              <dt>Kappa, memorized or not</dt>
              <dd data-field="kappaBinary">{number(agreement.kappaBinary)}</dd>
            </dl>
          ) : (
            <p>Loading…</p>
          )}
          {reviewers ? (
            <dl class="reviewer-agreement" data-items={reviewers.items} data-statistic={reviewers.statistic}>
              <dt>Between reviewers</dt>
              <dd data-field="reviewers">
                {reviewers.statistic === "NONE"
                  ? "no completion reviewed by every reviewer yet"
                  : `${reviewers.items} completions reviewed by all of ${reviewers.reviewers.join(", ")}` +
                    (reviewers.excluded > 0 ? ` (${reviewers.excluded} reviewed by some, left out)` : "")}
              </dd>
              <dt>{reviewers.statistic === "FLEISS" ? "Fleiss' kappa" : "Cohen's kappa"} (3 verdicts)</dt>
              <dd data-field="reviewerKappa">{number(reviewers.kappa)}</dd>
              <dt>Unanimous</dt>
              <dd data-field="unanimous">{percent(reviewers.percentAgreement)}</dd>
            </dl>
          ) : null}
          {recorded.length > 0 ? (
            <details>
              <summary>{recorded.length} recorded in this visit</summary>
              <ul>
                {recorded.map((line, i) => (
                  <li key={i}>{line}</li>
                ))}
              </ul>
            </details>
          ) : null}
        </Section>
      )}
    </>
  );
}
