import { useEffect, useMemo, useState } from "preact/hooks";
import { gql } from "../api";
import { ErrorBox, money, Section } from "../components/common";
import { SETTING_LABELS, SETTINGS } from "../figures/data";
import {
  EstimateDocument,
  type EstimateQuery,
  type MemorizationSetting,
  RenderDocument,
  type RenderQuery,
  type RunKind,
  SamplesDocument,
  type SamplesQuery,
  StartExperimentDocument,
} from "../generated/operations";
import { latestOnly } from "../latest";

type SampleItem = SamplesQuery["samples"]["edges"][number]["node"];

/** Before an experiment: the rendered prompt of any setting and k of a sample, the grid's cost, and a start. */
export function PreviewPage() {
  const [samples, setSamples] = useState<SampleItem[] | null>(null);
  const [providers, setProviders] = useState<SamplesQuery["providers"]>([]);
  const [sampleId, setSampleId] = useState("");
  const [kind, setKind] = useState<RunKind>("MEMORIZATION");
  const [setting, setSetting] = useState<MemorizationSetting>("FULL_INFORMATION");
  const [shots, setShots] = useState(0);
  const [prices, setPrices] = useState({ input: "", output: "" });
  const [prompt, setPrompt] = useState<RenderQuery["renderPrompt"] | null>(null);
  const [estimate, setEstimate] = useState<EstimateQuery["estimateGrid"] | null>(null);
  const [start, setStart] = useState({ name: "", provider: "", model: "", repeats: "3", budget: "" });
  /** The pre-flight estimate for the grid as it would start (at the provider's prices), shown before it does. */
  const [preflight, setPreflight] = useState<EstimateQuery["estimateGrid"] | null>(null);
  const [error, setError] = useState<unknown>(null);
  // The prompt and the estimate shown answer the setting, k and prices shown (docs in ../latest.ts).
  const renders = useMemo(latestOnly, []);
  const estimates = useMemo(latestOnly, []);

  useEffect(() => {
    gql(SamplesDocument)
      .then((data) => {
        const items = data.samples.edges.map((edge) => edge.node);
        setSamples(items);
        setProviders(data.providers);
        if (items.length > 0) setSampleId(items[0].id);
        const usable = data.providers.find((p) => p.usableHere);
        if (usable) setStart((s) => ({ ...s, provider: usable.name }));
      })
      .catch(setError);
  }, []);

  const sample = samples?.find((s) => s.id === sampleId) ?? null;
  useEffect(() => {
    if (!sample) return;
    const k = sample.shotCounts.includes(shots) ? shots : sample.shotCounts[0];
    if (k !== shots) {
      setShots(k);
      return;
    }
    renders(
      gql(RenderDocument, {
        input: { sampleId: sample.id, kind, shots: k, ...(kind === "MEMORIZATION" ? { setting } : {}) },
      }),
      (data) => {
        setPrompt(data.renderPrompt);
        setError(null);
      },
      setError,
    );
  }, [sample, kind, setting, shots]);
  useEffect(() => {
    if (!sample) return;
    const price = (text: string) => (text.trim() === "" ? null : Number(text));
    // Typed prices win; without them, the provider and model chosen below price the grid from the providers
    // file (the same prices the start's check uses).
    const chosen =
      start.provider && start.model.trim() ? { provider: start.provider, model: start.model.trim() } : {};
    estimates(
      gql(EstimateDocument, {
        input: {
          sampleIds: [sample.id],
          ...chosen,
          inputPricePerMillionTokens: price(prices.input),
          outputPricePerMillionTokens: price(prices.output),
        },
      }),
      (data) => setEstimate(data.estimateGrid),
      setError,
    );
  }, [sample, prices, start.provider, start.model]);

  const checkFirst = async (event: Event) => {
    event.preventDefault();
    if (!sample) return;
    try {
      const data = await gql(EstimateDocument, {
        input: {
          sampleIds: [sample.id],
          provider: start.provider,
          model: start.model,
          performanceRepeats: Number(start.repeats),
        },
      });
      setPreflight(data.estimateGrid);
      setError(null);
    } catch (e) {
      setError(e);
    }
  };

  const startExperiment = async () => {
    if (!sample) return;
    try {
      const budget = start.budget.trim();
      const data = await gql(StartExperimentDocument, {
        input: {
          name: start.name || `${sample.dataset.name} ${start.model}`,
          sampleIds: [sample.id],
          provider: start.provider,
          model: start.model,
          performanceRepeats: Number(start.repeats),
          ...(budget === "" ? {} : { maxCostUsd: Number(budget) }),
        },
      });
      location.hash = `#/experiments/${data.startExperiment.experiment.id}`;
    } catch (e) {
      setError(e);
    }
  };

  if (samples === null)
    return <Section title="Prompt preview">{error ? <ErrorBox error={error} /> : <p>Loading…</p>}</Section>;
  if (samples.length === 0)
    return (
      <Section title="Prompt preview">
        <p class="empty">
          No samples yet: import a dataset and draw a sample (<code>memicl import</code>,{" "}
          <code>memicl sample</code>).
        </p>
      </Section>
    );
  return (
    <>
      <Section title="Prompt preview">
        <div class="toolbar">
          <label>
            Sample{" "}
            <select value={sampleId} onChange={(e) => setSampleId((e.target as HTMLSelectElement).value)}>
              {samples.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.dataset.name} · {s.name ?? `seed ${s.seed}`} · {s.instanceCount} instances
                </option>
              ))}
            </select>
          </label>
          <label>
            Kind{" "}
            <select value={kind} onChange={(e) => setKind((e.target as HTMLSelectElement).value as RunKind)}>
              <option value="MEMORIZATION">memorization</option>
              <option value="PERFORMANCE">performance</option>
            </select>
          </label>
          {kind === "MEMORIZATION" ? (
            <label>
              Setting{" "}
              <select
                value={setting}
                onChange={(e) => setSetting((e.target as HTMLSelectElement).value as MemorizationSetting)}
              >
                {SETTINGS.map((s) => (
                  <option key={s} value={s}>
                    {SETTING_LABELS[s]}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <label>
            k{" "}
            <select value={shots} onChange={(e) => setShots(Number((e.target as HTMLSelectElement).value))}>
              {sample?.shotCounts.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          </label>
        </div>
        <ErrorBox error={error} />
        {prompt ? (
          <div class="prompt">
            <p class="muted">
              Template {prompt.templateKey} v{prompt.templateVersion} · {prompt.tokenCount.toLocaleString()}{" "}
              tokens ({prompt.tokenizer})
            </p>
            {prompt.messages.map((message: { role: string; content: string }, i: number) => (
              <div key={i} class="message">
                <div class="role">{message.role}</div>
                <pre>{message.content}</pre>
              </div>
            ))}
          </div>
        ) : null}
      </Section>
      <Section title="Estimate of the whole grid">
        <div class="toolbar">
          <label>
            $ per 1M input tokens{" "}
            <input
              inputMode="decimal"
              value={prices.input}
              placeholder="from the providers file"
              onChange={(e) => setPrices({ ...prices, input: (e.target as HTMLInputElement).value })}
            />
          </label>
          <label>
            $ per 1M output tokens{" "}
            <input
              inputMode="decimal"
              value={prices.output}
              placeholder="from the providers file"
              onChange={(e) => setPrices({ ...prices, output: (e.target as HTMLInputElement).value })}
            />
          </label>
        </div>
        {estimate ? (
          <dl class="estimate">
            <dt>Calls</dt>
            <dd>{estimate.calls.toLocaleString()}</dd>
            <dt>Prompt tokens</dt>
            <dd>{Math.round(estimate.promptTokens).toLocaleString()}</dd>
            <dt>Output tokens at most</dt>
            <dd>{Math.round(estimate.maxOutputTokens).toLocaleString()}</dd>
            <dt>Cost at most</dt>
            <dd data-cost={estimate.maxCostUsd ?? ""}>
              {estimate.maxCostUsd !== null
                ? `${money(estimate.maxCostUsd)}${
                    prices.input.trim() || prices.output.trim() || !start.model.trim()
                      ? ""
                      : ` (${start.provider} / ${start.model.trim()}'s prices from the providers file)`
                  }`
                : start.model.trim()
                  ? `no price for ${start.provider} / ${start.model.trim()} in the providers file: type prices above`
                  : "choose a provider and model below (priced in the providers file), or type prices above"}
            </dd>
          </dl>
        ) : null}
        {estimate ? <p class="muted">{estimate.note}</p> : null}
      </Section>
      <Section title="Start an experiment on this sample">
        <form class="toolbar" onSubmit={checkFirst} onInput={() => setPreflight(null)}>
          <label>
            Name{" "}
            <input
              value={start.name}
              onInput={(e) => setStart({ ...start, name: (e.target as HTMLInputElement).value })}
            />
          </label>
          <label>
            Provider{" "}
            <select
              value={start.provider}
              onChange={(e) => setStart({ ...start, provider: (e.target as HTMLSelectElement).value })}
            >
              {providers.map((p) => (
                <option key={p.name} value={p.name} disabled={!p.usableHere} title={p.unusableReason ?? ""}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Model{" "}
            <input
              required
              value={start.model}
              onInput={(e) => setStart({ ...start, model: (e.target as HTMLInputElement).value })}
            />
          </label>
          <label>
            Performance repeats{" "}
            <input
              type="number"
              min={1}
              max={20}
              value={start.repeats}
              onInput={(e) => setStart({ ...start, repeats: (e.target as HTMLInputElement).value })}
            />
          </label>
          <label>
            Budget ($){" "}
            <input
              inputMode="decimal"
              name="budget"
              placeholder="none"
              value={start.budget}
              onInput={(e) => setStart({ ...start, budget: (e.target as HTMLInputElement).value })}
            />
          </label>
          <button type="submit">Check and start…</button>
        </form>
        {preflight ? (
          <div class="preflight" role="dialog" aria-label="before it starts">
            <p>
              This grid makes <strong>{preflight.calls.toLocaleString()}</strong> calls with{" "}
              {Math.round(preflight.promptTokens).toLocaleString()} prompt tokens and at most{" "}
              {Math.round(preflight.maxOutputTokens).toLocaleString()} output tokens;{" "}
              {preflight.maxCostUsd === null
                ? `its cost is unknown (provider ${start.provider} has no price for ${start.model} here)`
                : `it costs at most ${money(preflight.maxCostUsd)}`}
              {start.budget.trim() !== ""
                ? `; budget ${money(Number(start.budget))} (it pauses before a call that could exceed it)`
                : "; no budget"}
              .
            </p>
            <button type="button" onClick={startExperiment}>
              Start it
            </button>{" "}
            <button type="button" onClick={() => setPreflight(null)}>
              Back
            </button>
          </div>
        ) : null}
      </Section>
    </>
  );
}
