import { ComponentChildren } from "preact";

/** The fields of an experiment's progress every page shows. */

/** A progress bar that reads without colour: the counts are written beside it. */
export function ProgressBar({
  done,
  failed,
  expected,
  label,
}: {
  done: number;
  failed: number;
  expected: number;
  label: string;
}) {
  const share = (count: number) => (expected > 0 ? Math.min(100, (100 * count) / expected) : 0);
  const ok = done;
  return (
    <div
      class="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={expected}
      aria-valuenow={done + failed}
    >
      <div class="bar">
        <span class="done" style={{ width: `${share(ok)}%` }} />
        <span class="failed" style={{ width: `${share(failed)}%` }} />
      </div>
      <span class="counts" data-done={done} data-expected={expected}>
        {done} / {expected}
        {failed > 0 ? ` (${failed} failed)` : ""}
      </span>
    </div>
  );
}

export function Status({ status }: { status: string }) {
  return <span class={`status status-${status.toLowerCase()}`}>{status}</span>;
}

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}

export function Section({
  title,
  children,
  actions,
}: {
  title: string;
  children: ComponentChildren;
  actions?: ComponentChildren;
}) {
  return (
    <section>
      <div class="section-head">
        <h2>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

export { money } from "../format";

export const percent = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? "–" : `${(100 * value).toFixed(digits)}%`;

export const number = (value: number | null | undefined, digits = 3) =>
  value === null || value === undefined ? "–" : value.toFixed(digits);

/** A p-value: three decimals, small ones in scientific notation, never a bare 0.000. */
export const pValue = (value: number | null | undefined) =>
  value === null || value === undefined
    ? "–"
    : value === 0
      ? "< 0.0001"
      : value < 0.001
        ? value.toExponential(1)
        : value.toFixed(3);
