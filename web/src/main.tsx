import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { apiKey, gql, setApiKey } from "./api";
import { VersionDocument } from "./generated/operations";
import { ComparePage } from "./pages/ComparePage";
import { ContaminationPage } from "./pages/ContaminationPage";
import { ExperimentPage } from "./pages/ExperimentPage";
import { ExperimentsPage } from "./pages/ExperimentsPage";
import { PreviewPage } from "./pages/PreviewPage";
import { ReviewPage } from "./pages/ReviewPage";
import "./style.css";

/** Routes live in the hash (#/experiments/<id>, #/review/<id>, #/contamination/<id>, #/preview): the server serves one static page. */
function useRoute(): string[] {
  const parse = () => location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  const [route, setRoute] = useState(parse);
  useEffect(() => {
    const onChange = () => setRoute(parse());
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
}

function KeyForm() {
  const [open, setOpen] = useState(false);
  const [version, setVersion] = useState<string | null>(null);
  const [value, setValue] = useState(apiKey() ?? "");
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    // With API keys on, the first request says so; then the page asks for one.
    gql(VersionDocument)
      .then((data) => setVersion(data.version.codeVersion))
      .catch((error) => {
        if (error.code === "UNAUTHENTICATED" || error.code === "FORBIDDEN") {
          setOpen(true);
          setNote(error.message);
        }
      });
  }, []);
  if (!open)
    return (
      <span>
        {version ? <span class="muted">{version} · </span> : null}
        <button type="button" class="link" onClick={() => setOpen(true)}>
          API key{apiKey() ? " ✓" : ""}
        </button>
      </span>
    );
  return (
    <form
      class="key-form"
      onSubmit={(event) => {
        event.preventDefault();
        setApiKey(value.trim() || null);
        location.reload();
      }}
    >
      {note ? <span class="muted">{note}</span> : null}
      <input
        type="password"
        placeholder="memicl_…"
        value={value}
        onInput={(e) => setValue((e.target as HTMLInputElement).value)}
      />
      <button type="submit">Use key</button>
    </form>
  );
}

function App() {
  const route = useRoute();
  const [page, id] = route;
  let content = <ExperimentsPage />;
  if (page === "experiments" && id) content = <ExperimentPage key={id} id={id} />;
  else if (page === "review" && id) content = <ReviewPage key={id} experimentId={id} />;
  else if (page === "preview") content = <PreviewPage />;
  else if (page === "compare" && id) content = <ComparePage key={id} ids={id.split(",")} />;
  else if (page === "contamination" && id) content = <ContaminationPage key={id} experimentId={id} />;
  const current = page ?? "experiments";
  return (
    <>
      <header>
        <a class="brand" href="#/">
          memicl
        </a>
        <nav>
          <a href="#/" aria-current={current === "experiments" ? "page" : undefined}>
            Experiments
          </a>
          <a href="#/preview" aria-current={current === "preview" ? "page" : undefined}>
            Prompt preview
          </a>
          <a href="graphql" target="_blank" rel="noreferrer">
            GraphQL
          </a>
        </nav>
        <KeyForm />
      </header>
      <main>{content}</main>
    </>
  );
}

render(<App />, document.getElementById("app")!);
