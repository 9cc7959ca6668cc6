import { Command, InvalidArgumentError } from "commander";
import { ROLES } from "../auth/role-names";
import { CODE_VERSION } from "../config/code-version";
import { IMPORT_FORMATS } from "../dataset/import/import-format";
import { DEFAULT_FITTED, THRESHOLD_NAMES } from "../judge/calibration-grid";
import { HEURISTIC_JUDGE_VERSIONS } from "../judge/heuristic-versions";
import { SETTING_NAMES } from "../study/settings";

/**
 * Each command's module is loaded when that command runs: `memicl --version` or `calibrate-judge` does not load
 * the database layer, and a database command does not load the GraphQL server (about half a second each).
 */
/** The configuration, read when a command runs (its validation library is not loaded for --help or --version). */
const loadConfig = () => (require("../config/config") as typeof import("../config/config")).loadConfig();

const commands = {
  db: () => require("./db.command") as typeof import("./db.command"),
  runActions: () => require("./run-actions.command") as typeof import("./run-actions.command"),
  delete: () => require("./delete.command") as typeof import("./delete.command"),
  experiment: () => require("./experiment.command") as typeof import("./experiment.command"),
  budget: () => require("./budget.command") as typeof import("./budget.command"),
  experiments: () => require("./experiments.command") as typeof import("./experiments.command"),
  export: () => require("./export.command") as typeof import("./export.command"),
  import: () => require("./import.command") as typeof import("./import.command"),
  judgeAgreement: () => require("./judge-agreement.command") as typeof import("./judge-agreement.command"),
  calibrateJudge: () => require("./calibrate-judge.command") as typeof import("./calibrate-judge.command"),
  hardNegatives: () => require("./hard-negatives.command") as typeof import("./hard-negatives.command"),
  oneSlotEdits: () => require("./one-slot-edits.command") as typeof import("./one-slot-edits.command"),
  keys: () => require("./keys.command") as typeof import("./keys.command"),
  migrate: () => require("./migrate.command") as typeof import("./migrate.command"),
  prompt: () => require("./prompt.command") as typeof import("./prompt.command"),
  estimate: () => require("./estimate.command") as typeof import("./estimate.command"),
  report: () => require("./report.command") as typeof import("./report.command"),
  compare: () => require("./compare.command") as typeof import("./compare.command"),
  sample: () => require("./sample.command") as typeof import("./sample.command"),
  serve: () => require("./serve.command") as typeof import("./serve.command"),
  worker: () => require("./worker.command") as typeof import("./worker.command"),
  workers: () => require("./workers.command") as typeof import("./workers.command"),
  providers: () => require("./providers.command") as typeof import("./providers.command"),
};

const list = (value: string) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

export function buildProgram(): Command {
  const program = new Command("memicl")
    .description("Measure memorization in in-context learning")
    .version(CODE_VERSION.replace(/^memicl@/, ""), "-V, --version", "print the version")
    .showHelpAfterError();

  program
    .command("serve")
    .description("start the GraphQL server (embedded database unless DATABASE_URL is set)")
    .action(() => commands.serve().runServe(loadConfig()));

  program
    .command("migrate")
    .description("bring the database schema up to date and list the applied migrations")
    .action(() => commands.migrate().runMigrate(loadConfig()));

  program
    .command("import")
    .description("import a dataset file (CSV, GLUE TSV, JSONL or TREC labels), streamed, in one transaction")
    .argument("<file>", "the file to import")
    .requiredOption("--name <name>", "dataset to create, or to add this file to")
    .option(
      "--format <format>",
      `${IMPORT_FORMATS.join("|")} (default: from the file extension)`,
      (value) => {
        if (!(IMPORT_FORMATS as readonly string[]).includes(value))
          throw new InvalidArgumentError(`one of ${IMPORT_FORMATS.join(", ")}`);
        return value;
      },
    )
    .option("--split <split>", "the split these rows belong to", "train")
    .option("--text-fields <fields>", "one text field (classification) or two (NLI), comma-separated", list)
    .option("--label-field <field>", "the field holding the label", "label")
    .option(
      "--id-field <field>",
      "the field holding the row's own id (default: idx, id, index or guid when present)",
    )
    .option("--columns <names>", "column names of a CSV/TSV without a header row, comma-separated", list)
    .option("--allow-new-labels", "adding to a dataset: accept labels it does not have yet")
    .option("--trec-labels <level>", "TREC labels: coarse or fine", (value) => {
      if (value !== "coarse" && value !== "fine") throw new InvalidArgumentError("coarse or fine");
      return value;
    })
    .option(
      "--encoding <encoding>",
      "how the file's bytes are text: utf8 (default, strict) or latin1",
      (value) => {
        if (value !== "utf8" && value !== "latin1") throw new InvalidArgumentError("utf8 or latin1");
        return value;
      },
    )
    .option(
      "--verbalizers <file>",
      "label verbalizers, one `label: words` per line (e.g. DBpedia's classes.txt)",
    )
    .option(
      "--control-of <dataset>",
      "mark this dataset as the control of another (name or id): data the examined model cannot have seen",
    )
    .action((file, options) => commands.import().runImport(loadConfig(), file, options));

  program
    .command("sample")
    .description("draw a study sample: balanced instances and demonstrations, segmented, nested k-shot sets")
    .requiredOption("--dataset <name>", "dataset name or id")
    .option("--seed <n>", "seed of every random choice (random when absent; always recorded)", integer)
    .option("--instances <n>", "instances under test", integer, 200)
    .option("--demonstrations <n>", "demonstrations", integer, 200)
    .option("--split <split>", "split of the instances under test", "train")
    .option("--demonstration-split <split>", "split of the demonstrations", "train")
    .option("--shots <list>", "k values", integers, [0, 25, 50, 100, 200])
    .option("--cut <min,max>", "share of a single text's tokens in its initial segment", cutRange, [0.6, 0.8])
    .option("--name <name>", "a name for the sample")
    .option("--design-version <n>", "3 (the default), or 2 to reproduce a sample drawn before it", integer, 3)
    .option("--min-target-words <n>", "design 3: the fewest words a reference should have", integer, 3)
    .action((options) => commands.sample().runSample(loadConfig(), options));

  program
    .command("prompt")
    .description("print the exact messages a run would send for one instance (no model is called)")
    .requiredOption("--sample <id>", "sample id")
    .option(
      "--kind <kind>",
      "memorization, performance, continuation (the sampling methods': k = 0, --setting full-information or raw) " +
        "or logprob (the scored text; --in-context for CoDeC's second pass) or guessing (TS-Guessing's masked word)",
      "memorization",
    )
    .option(
      "--in-context",
      "with --kind logprob: CoDeC's pass, the text after another instance of the sample",
    )
    .option("--setting <setting>", `memorization setting: ${SETTING_NAMES.join(", ")}`, "full-information")
    .option("--shots <k>", "number of demonstrations", integer, 25)
    .option("--instance <id>", "dataset instance id (default: the sample's first)")
    .option("--template-version <n>", "template version (default: latest)", integer)
    .action((options) => commands.prompt().runPrompt(loadConfig(), options));

  program
    .command("estimate")
    .description("calls, prompt tokens and a cost bound for the full grid of one or more samples")
    .requiredOption("--sample <id...>", "sample id(s)")
    .option("--shots <list>", "k values (default: each sample's own)", integers)
    .option("--repeats <n>", "repeats of each performance prompt", integer, 3)
    .option("--input-price <usd>", "USD per million prompt tokens", Number.parseFloat)
    .option("--output-price <usd>", "USD per million output tokens", Number.parseFloat)
    .option(
      "--provider <name>",
      "check the prompts against this provider's limits (warns of any it can never send)",
    )
    .option("--methods <list>", "replication,guided-general,quiz,logprob (default: replication)", list)
    .action((options) => commands.estimate().runEstimate(loadConfig(), options));

  program
    .command("worker")
    .description(
      "work on queued completions without serving HTTP; start as many as you like, on any machine sharing the database",
    )
    .option(
      "--concurrency <n>",
      "calls this worker makes at once (default: MEMICL_WORKER_CONCURRENCY)",
      integer,
    )
    .action((options) => commands.worker().runWorker(loadConfig(), options));

  program
    .command("workers")
    .description(
      "list the live workers on this database: who they are, what they can call, what they are doing",
    )
    .action(() => commands.workers().runWorkers(loadConfig()));

  program
    .command("providers")
    .description(
      "list the configured providers: usable here (key set) or why not, and how many live workers can call each",
    )
    .option(
      "--check [name]",
      "make one tiny call to each usable provider (or only NAME) and report it; a provider that can score " +
        "prompts (LOGPROB) also gets the scoring probe a LOGPROB start makes",
      false,
    )
    .option(
      "--model <name>",
      "the model to call with --check (default: gpt-4o-mini; simulated for the simulated one)",
    )
    .action((options) => commands.providers().runProviders(loadConfig(), options));

  program
    .command("experiment")
    .description(
      "queue the whole grid for one model: every sample x k x (memorization settings + performance)",
    )
    .requiredOption("--sample <id...>", "sample id(s)")
    .requiredOption("--provider <name>", "a configured provider (`simulated` is built in)")
    .requiredOption("--model <name>", "the model to call")
    .option("--name <name>", "experiment name")
    .option("--shots <list>", "k values (default: each sample's own)", integers)
    .option("--settings <list>", "memorization settings (default: all three)", list)
    .option("--kinds <list>", "memorization,performance (default: both)", list)
    .option("--repeats <n>", "repeats of each performance prompt", integer, 3)
    .option("--idempotency-key <key>", "sending the same key again returns the experiment it created")
    .option("--no-cache", "do not reuse stored responses")
    .option("--wait", "work on it here (unless a server does) and show progress until it finishes", false)
    .option(
      "--progress-every <seconds>",
      "with --wait and stderr not a terminal: seconds between progress lines",
      integer,
      30,
    )
    .option(
      "--max-cost <usd>",
      "the experiment's budget: no call starts that could take its cost above it (needs the provider's prices)",
      positiveNumber,
    )
    .option("--yes", "start without asking after the estimate (it asks only on a terminal)", false)
    .option("--batch", "send the calls through the provider's Batch API (its `batch` option is the default)")
    .option("--online", "make the calls online even where the provider's default is its Batch API")
    .option(
      "--methods <list>",
      "replication,guided-general,quiz,logprob,cdd,ngram-coverage,codec,ts-guessing (default: replication, whose default settings include the general instruction; quiz adds the Data Contamination Quiz; logprob scores each text by its token log-probabilities; cdd and ngram-coverage sample continuations of each first piece; codec scores each text alone and after another instance; ts-guessing asks for one masked word of each)",
      list,
    )
    .option(
      "--quiz-provider <name>",
      "the quiz's option generator's provider (default: the generator of the sample's existing options, so models share one quiz; else --provider)",
    )
    .option(
      "--quiz-model <name>",
      "the quiz's option generator model (default: as --quiz-provider's; else --model)",
    )
    .option("--quiz-generations <n>", "generations an instance's options may take (default 3)", integer)
    .option(
      "--logprob-reference <provider/model>",
      "logprob: a reference model that scores the same texts (the reference score)",
    )
    .option(
      "--members <ids>",
      "logprob: samples whose instances were in the training data (a calibration study: AUC, TPR at low FPR)",
      list,
    )
    .option("--non-members <ids>", "logprob: samples whose instances were not in the training data", list)
    .option(
      "--cdd-prompt <prompt>",
      "cdd: guided (the full-information prompt at k = 0, for chat models) or raw (the first piece alone, for base models; needs a completions endpoint)",
    )
    .option(
      "--cdd-samples <n>",
      "cdd: sampled continuations per instance (default 50, the authors')",
      integer,
    )
    .option("--cdd-temperature <t>", "cdd: the samples' temperature (default 0.8)", positiveNumber)
    .option(
      "--cdd-alpha <share>",
      "cdd: near the greedy continuation within this share of the longest length (default 0.05)",
      Number,
    )
    .option(
      "--cdd-xi <share>",
      "cdd: an instance is leaked above this share of near samples (default 0.01)",
      Number,
    )
    .option(
      "--ngram-prompt <prompt>",
      "ngram-coverage: guided (default) or raw (the first piece alone; needs a completions endpoint)",
    )
    .option(
      "--ngram-samples <n>",
      "ngram-coverage: sampled continuations per instance (default 20, the authors')",
      integer,
    )
    .action((options) => commands.experiment().runExperiment(loadConfig(), options));

  program
    .command("budget")
    .description("set, raise or remove the budget of an experiment or a run; resumes the runs it paused")
    .argument("<id>", "an experiment (the budget of all its runs) or a run (its own budget)")
    .option("--max-cost <usd>", "the new budget in US dollars", positiveNumber)
    .option("--remove", "remove the budget", false)
    .action((id, options) => commands.budget().runBudget(loadConfig(), id, options));

  program
    .command("judge-agreement")
    .description("score a judge, as configured, against a gold CSV (columns reference, candidate, human)")
    .argument("<gold>", "the gold CSV")
    .option("--judge <judge>", "heuristic or llm:PROVIDER/MODEL", "heuristic")
    .option(
      "--judge-version <version>",
      "heuristic: heuristic-8 (the default), heuristic-7, heuristic-6 or heuristic-5; LLM: llm-judge-1 (memicl's, the default) or time-travel-1 (the method's authors' own, word for word)",
    )
    .action((file, options) => commands.judgeAgreement().runJudgeAgreement(loadConfig(), file, options));

  program
    .command("calibrate-judge")
    .description("fit the heuristic judge's thresholds on a gold CSV; report leave-one-dataset-out agreement")
    .argument("<gold>", "the gold CSV")
    .option(
      "--fit <names>",
      `the thresholds to fit, comma-separated, of ${THRESHOLD_NAMES.join(", ")}; the others keep their defaults`,
      DEFAULT_FITTED.join(","),
    )
    .option("--judge-version <version>", `the heuristic version: ${HEURISTIC_JUDGE_VERSIONS.join(", ")}`)
    .action((file, options) => commands.calibrateJudge().runCalibrateJudge(file, options));

  program
    .command("hard-negatives")
    .description(
      "judge hard negatives built from sentence-pair files (one changed number, entity, antonym, referent)",
    )
    .argument(
      "<files...>",
      "CSV or TSV files with sentence1 and sentence2 columns (or first_piece and reference)",
    )
    .option("--judge-version <version>", `the heuristic version: ${HEURISTIC_JUDGE_VERSIONS.join(", ")}`)
    .option("--show <n>", "print up to n missed pairs per file", integer, 0)
    .action((files, options) => commands.hardNegatives().runHardNegatives(files, options));

  program
    .command("one-slot-edits")
    .description(
      "judge seeded one-slot edits of a dataset's texts: a changed noun, verb, number or name must be inexact, " +
        "the same fact in another form (separators, number words, contractions, a typo in a name) memorized",
    )
    .argument(
      "<files...>",
      "sentence-pair files (as hard-negatives reads them) or CSVs of single texts without a header (DBpedia's)",
    )
    .option(
      "--per-kind <n>",
      "edits per kind and file (fewer where a file has fewer rows to edit)",
      integer,
      200,
    )
    .option("--seed <n>", "the edits' seed", integer, 1)
    .option("--judge-version <version>", `the heuristic version: ${HEURISTIC_JUDGE_VERSIONS.join(", ")}`)
    .option("--show <n>", "print up to n misjudged edits per file", integer, 0)
    .action((files, options) => commands.oneSlotEdits().runOneSlotEdits(files, options));

  program
    .command("report")
    .description("the study's tables for one experiment")
    .argument("<experiment>", "experiment id")
    .option("--format <format>", "markdown, json or csv", "markdown")
    .action((experiment, options) => commands.report().runReport(loadConfig(), experiment, options));

  program
    .command("compare")
    .description("experiments (models) side by side on the instances both ran: paired tests, cell by cell")
    .argument("<experiments...>", "two to ten experiment ids")
    .option("--format <format>", "markdown, json or csv", "markdown")
    .action((experiments, options) => commands.compare().runCompare(loadConfig(), experiments, options));

  program
    .command("export")
    .description("every completion of an experiment with every judgment, streamed")
    .argument("<experiment>", "experiment id")
    .option("--format <format>", "csv or jsonl", "csv")
    .option("--output <file>", "write to a file instead of standard output")
    .action((experiment, options) => commands.export().runExport(loadConfig(), experiment, options));

  program
    .command("experiments")
    .description("every experiment, newest first: id, name, model, its runs' states and progress")
    .action(() => commands.experiments().runExperimentsList(loadConfig()));

  for (const [action, description] of [
    ["cancel", "cancel a run, or every unfinished run of an experiment: no new calls are made"],
    ["resume", "queue again what a run (or every run of an experiment) is still missing"],
    ["retry-failed", "queue the failed items of a run (or of every run of an experiment) again"],
  ] as const)
    program
      .command(action)
      .description(description)
      .argument("<id>", "a run id or an experiment id")
      .action((id) => commands.runActions().runRunAction(loadConfig(), action, id));

  program
    .command("delete")
    .description("delete an experiment, a sample or a dataset with everything that depends on it")
    .argument("<kind>", "experiment, sample or dataset")
    .argument("<id>", "its id")
    .option("--dry-run", "say what would go, and delete nothing", false)
    .option("--yes", "delete without asking (it asks only on a terminal)", false)
    .action((kind, id, options) => {
      if (!["experiment", "sample", "dataset"].includes(kind))
        throw new (require("../common/errors") as typeof import("../common/errors")).BadInputError(
          `kind: experiment, sample or dataset, not "${kind}"`,
        );
      return commands.delete().runDelete(loadConfig(), kind, id, options);
    });

  const db = program
    .command("db")
    .description("the embedded database: where it is, stopping its server, and removing it");
  db.command("info")
    .description(
      "which database commands run here use, how its folder was found, and whether its server runs",
    )
    .action(() => commands.db().runDbInfo(loadConfig()));
  db.command("stop")
    .description(
      "stop the embedded database's server now; refused while a memicl process uses it (commands leave it up " +
        "for MEMICL_EMBEDDED_IDLE_SECONDS, 600 by default, so the next one starts at once)",
    )
    .action(() => commands.db().runDbStop(loadConfig()));
  db.command("remove")
    .description(
      "delete the embedded database (its folder and cluster); refused while a memicl process uses it",
    )
    .option("--yes", "really delete it", false)
    .action((options) => commands.db().runDbRemove(loadConfig(), options));

  const keys = program
    .command("keys")
    .description(`API keys for MEMICL_AUTH=keys (roles: ${ROLES.join(" < ")})`);
  keys
    .command("create")
    .description("create a key and print it once (only its hash is stored)")
    .requiredOption("--name <name>", "who the key is for (a person's or a script's name; reviews record it)")
    .requiredOption("--role <role>", ROLES.join("|"))
    .option(
      "--blind",
      "a blind reviewer (role reviewer): its queries never reach an automatic verdict, another reviewer's, or the model",
      false,
    )
    .action((options) => commands.keys().runKeysCreate(loadConfig(), options));
  keys
    .command("list")
    .description("every key: name, role, prefix, live or revoked, last use")
    .action(() => commands.keys().runKeysList(loadConfig()));
  keys
    .command("revoke")
    .description("revoke a key: refused from the next request on")
    .argument("<name-or-id>", "the key's name or id")
    .action((nameOrId) => commands.keys().runKeysRevoke(loadConfig(), nameOrId));

  return program;
}

function integer(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError("a whole number");
  return Number(value);
}

function positiveNumber(value: string): number {
  const number = Number(value);
  if (value.trim() === "" || !(number > 0) || !Number.isFinite(number))
    throw new InvalidArgumentError("a positive number (US dollars)");
  return number;
}

function integers(value: string): number[] {
  return list(value).map(integer);
}

function cutRange(value: string): [number, number] {
  const parts = list(value).map(Number);
  if (parts.length !== 2 || parts.some((part) => !(part > 0 && part < 1)) || parts[0] >= parts[1]) {
    throw new InvalidArgumentError("two shares between 0 and 1, smaller first, e.g. 0.6,0.8");
  }
  return [parts[0], parts[1]];
}

/** Runs the CLI; known failures print one clear line and exit 1. */
export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    // The kinds of failure a user can act on, loaded only now (a command that ran has loaded them already).
    const { ConfigError } = require("../config/config") as typeof import("../config/config");
    const { DomainError } = require("../common/errors") as typeof import("../common/errors");
    const { ImportError } =
      require("../dataset/import/import.errors") as typeof import("../dataset/import/import.errors");
    const { EmbeddedDatabaseError } = require("../db/embedded") as typeof import("../db/embedded");
    if (
      error instanceof ConfigError ||
      error instanceof DomainError ||
      error instanceof ImportError ||
      error instanceof EmbeddedDatabaseError
    ) {
      process.stderr.write(`memicl: ${error.message}\n`);
    } else {
      process.stderr.write(`memicl: unexpected error: ${(error as Error).stack ?? error}\n`);
    }
    process.exitCode = 1;
  }
}
