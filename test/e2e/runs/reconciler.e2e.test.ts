import { createServices, Services } from "../../../src/app/services";
import { startWorkers } from "../../../src/app/workers";
import { claimCompletions, completeCompletions } from "../../../src/completion/completion.sql";
import { loadConfig } from "../../../src/config/config";
import { createLogger } from "../../../src/logging/logger";
import { reconcile } from "../../../src/run/reconciler";
import { HeldClaims } from "../../../src/worker/held-claims";
import { WorkerRegistration } from "../../../src/worker/worker-registry";
import { BACKENDS } from "../../support/databases";
import { classificationSample, finished, startRun, waitForRun } from "../../support/runs";
import { startTestServer, TestServer } from "../../support/server";

/**
 * The reconciler queues again only what lost its job: an item a worker fetched a moment ago and has not claimed
 * yet still has one; an item whose job a dead worker fetched long ago does not.
 */
describe.each(BACKENDS)("the reconciler (%s database)", (backend) => {
  let api: TestServer;
  let services: Services;
  const timing = { leaseSeconds: 30 };
  const logger = createLogger("silent");

  beforeAll(async () => {
    api = await startTestServer(backend);
    services = createServices(api.database, loadConfig({ LOG_LEVEL: "silent" }), logger);
  }, 60_000);
  afterAll(async () => {
    await services?.close();
    await api?.close();
  });

  /** A zero-shot memorization run of `instances` items on the simulated model, queued. */
  const zeroShotRun = async (name: string, rows: number, instances: number, model: string) => {
    const sampleId = await classificationSample(api, name, {
      rows,
      instances,
      demonstrations: 0,
      shots: [0],
    });
    const { run } = await startRun(api, {
      sampleId,
      kind: "MEMORIZATION",
      setting: "ONLY_SEGMENT_PAIRS",
      shots: 0,
      provider: "simulated",
      model,
    });
    return run;
  };

  it("leaves an item fetched but not yet claimed alone, and queues one a dead worker fetched long ago", async () => {
    await zeroShotRun("fetched", 20, 6, "m");
    const jobs = () =>
      api.database.dataSource.query(
        "SELECT state::text AS state, count(*)::int AS count FROM pgboss.job WHERE name LIKE 'memicl-completion.%' GROUP BY state ORDER BY state",
      );
    expect(await jobs()).toEqual([{ state: "created", count: 6 }]);
    expect((await reconcile(api.database.dataSource, services.queue, logger, timing))?.requeued).toBe(0);

    // A worker has fetched the jobs (active) and not claimed the items yet: they are still PENDING.
    await api.database.dataSource.query(
      "UPDATE pgboss.job SET state = 'active', started_on = now() WHERE name LIKE 'memicl-completion.%'",
    );
    expect((await reconcile(api.database.dataSource, services.queue, logger, timing))?.requeued).toBe(0);
    expect(await jobs()).toEqual([{ state: "active", count: 6 }]);

    // Fetched an hour ago by a worker that never claimed them: lost, queued again, and the lost jobs end (they
    // stayed active until pg-boss expired them, three hours on).
    await api.database.dataSource.query(
      "UPDATE pgboss.job SET started_on = now() - interval '1 hour' WHERE name LIKE 'memicl-completion.%'",
    );
    expect((await reconcile(api.database.dataSource, services.queue, logger, timing))?.requeued).toBe(6);
    expect(await jobs()).toEqual([
      { state: "completed", count: 6 },
      { state: "created", count: 6 },
    ]);
  }, 60_000);

  it("takes a lapsed lease only from a worker that let it go or is dead, never from one whose beat is late", async () => {
    const run = await zeroShotRun("late-beat", 20, 4, "late-beat");
    const db = api.database.dataSource;
    const ids: string[] = (
      await db.query("SELECT id::text AS id FROM completion WHERE run_id = $1 ORDER BY completion.id", [
        run.id,
      ])
    ).map((row: { id: string }) => row.id);
    // Three workers, each holding one item whose lease lapsed 10 s ago and was last renewed 40 s ago: this
    // process (its beat timer far off: the test beats by hand), and two on another host.
    const held = new HeldClaims();
    const registration = new WorkerRegistration(db, services.queue, logger, { leaseSeconds: 3_600 }, held);
    await registration.start({ role: "worker", concurrency: 1, providers: [] });
    const late = registration.id;
    const live = "00000000-0000-4000-8000-00000000000b";
    const dead = "00000000-0000-4000-8000-00000000000c";
    for (const [id, seenSecondsAgo] of [
      [live, 1], // beat a second ago without renewing: it let the item go
      [dead, 70], // no beat for more than two leases: dead
    ] as const)
      await db.query(
        `INSERT INTO worker (id, host, pid, role, concurrency, providers, code_version, last_seen_at)
         VALUES ($1, 'elsewhere', 1, 'worker', 1, '{}', 'test', clock_timestamp() - make_interval(secs => $2))`,
        [id, seenSecondsAgo],
      );
    // Has not beaten since it renewed: its beat is late.
    await db.query(
      "UPDATE worker SET last_seen_at = clock_timestamp() - interval '40 seconds' WHERE id = $1",
      [late],
    );
    const hold = (completionId: string, owner: string) =>
      db.query(
        `UPDATE completion SET status = 'RUNNING', lease_token = gen_random_uuid(), lease_owner = $2,
           lease_until = clock_timestamp() - interval '10 seconds',
           lease_renewed_at = (SELECT last_seen_at FROM worker WHERE id = $2)
             + CASE WHEN $2 = '${live}'::uuid THEN interval '-39 seconds' ELSE interval '0' END
         WHERE id = $1`,
        [completionId, owner],
      );
    await hold(ids[0], late);
    await hold(ids[1], live);
    await hold(ids[2], dead);
    const states = async () =>
      (
        await db.query(
          "SELECT status::text AS status FROM completion WHERE id = ANY($1::bigint[]) ORDER BY id",
          [ids.slice(0, 3)],
        )
      ).map((row: { status: string }) => row.status);

    await reconcile(db, services.queue, logger, timing);
    expect(await states()).toEqual(["RUNNING", "PENDING", "PENDING"]);
    // Nor can another worker's claim take it, nor a resume.
    const [claimed] = await db.query(claimCompletions, [[ids[0]], 30, live]);
    expect(claimed).toBeUndefined();
    await services.runLifecycle.resume(run.id);
    expect((await states())[0]).toBe("RUNNING");

    // The late worker beats again, still working on the item: its lease is renewed and stays its own.
    held.add(ids[0]);
    await registration.beat();
    const [renewed] = await db.query(
      `SELECT c.lease_until > clock_timestamp() AS live, c.lease_renewed_at = w.last_seen_at AS same_moment
       FROM completion c JOIN worker w ON w.id = c.lease_owner WHERE c.id = $1`,
      [ids[0]],
    );
    expect(renewed).toEqual({ live: true, same_moment: true });

    // Then it lets the item go (its call could not be recorded) and beats on: once the lease lapses it is taken.
    held.delete(ids[0]);
    await db.query(
      "UPDATE completion SET lease_until = clock_timestamp() - interval '1 second' WHERE id = $1",
      [ids[0]],
    );
    await reconcile(db, services.queue, logger, timing);
    expect((await states())[0]).toBe("RUNNING");
    await registration.beat();
    await reconcile(db, services.queue, logger, timing);
    expect((await states())[0]).toBe("PENDING");
    await registration.stop();
    await db.query("DELETE FROM worker WHERE id = ANY($1::uuid[])", [[live, dead]]);
  });

  it("looks at every waiting item however long the backlog, and queues crash orphans first", async () => {
    const run = await zeroShotRun("backlog", 40, 12, "backlog");
    const ids: string[] = (
      await api.database.dataSource.query(
        "SELECT id::text AS id FROM completion WHERE run_id = $1 ORDER BY id",
        [run.id],
      )
    ).map((row: { id: string }) => row.id);
    // The last three items lost their jobs; two others were claimed by a worker that died.
    await api.database.dataSource.query(
      "DELETE FROM pgboss.job WHERE name LIKE 'memicl-completion.%' AND data->>'completionId' = ANY($1::text[])",
      [[...ids.slice(-3), ...ids.slice(0, 2)]],
    );
    await api.database.dataSource.query(
      `UPDATE completion SET status = 'RUNNING', lease_token = gen_random_uuid(), lease_until = now() - interval '1 minute'
       WHERE id = ANY($1::bigint[])`,
      [ids.slice(0, 2)],
    );
    // Batches of five: the orphans sit behind two batches of items that have their jobs.
    const result = await reconcile(api.database.dataSource, services.queue, logger, timing, 5);
    expect(result).toMatchObject({ released: 2, requeued: 5 });
    const jobs: { id: string; priority: number }[] = await api.database.dataSource.query(
      `SELECT data->>'completionId' AS id, priority FROM pgboss.job
       WHERE name LIKE 'memicl-completion.%' AND state = 'created' AND data->>'completionId' = ANY($1::text[])
       ORDER BY 1`,
      [[...ids.slice(-3), ...ids.slice(0, 2)]],
    );
    expect(jobs).toHaveLength(5);
    // The crash orphans are fetched before the backlog.
    expect(
      jobs
        .filter((job) => job.priority === 1)
        .map((job) => job.id)
        .sort(),
    ).toEqual(ids.slice(0, 2).sort());
    expect((await reconcile(api.database.dataSource, services.queue, logger, timing, 5))?.requeued).toBe(0);
  }, 60_000);

  it("queues a quiz's items only once their options are final, and says what they wait for", async () => {
    const sampleId = await classificationSample(api, "quizzed", {
      rows: 20,
      instances: 4,
      demonstrations: 0,
      shots: [0],
    });
    // Nothing else waits: the earlier tests' runs stop, their jobs go.
    await api.database.dataSource.query(
      "UPDATE run SET status = 'CANCELLED' WHERE status IN ('QUEUED', 'RUNNING')",
    );
    await api.database.dataSource.query("DELETE FROM pgboss.job WHERE name LIKE 'memicl-completion.%'");
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { runs { id kind optionSetId } } }`,
      {
        input: { name: "quiz", sampleIds: [sampleId], provider: "simulated", model: "m", methods: ["QUIZ"] },
      },
    );
    expect(started.errors).toBeUndefined();
    const runs = started.data!.startExperiment.runs;
    const db = api.database.dataSource;
    const jobs = async () =>
      (
        await db.query(
          "SELECT count(*)::int AS count FROM pgboss.job WHERE name LIKE 'memicl-completion.%' AND state = 'created'",
        )
      )[0].count;
    // The generation's four items have jobs; the 20 quiz items wait for options, without jobs.
    expect(await jobs()).toBe(4);
    expect((await reconcile(db, services.queue, logger, timing))?.requeued).toBe(0);
    const quizRun = runs.find((run: any) => run.kind === "QUIZ").id;
    const reason = async () =>
      (await db.query("SELECT waiting_reason FROM run WHERE id = $1", [quizRun]))[0].waiting_reason;
    expect(await reason()).toBe(
      `waiting for the options of 4 instance(s) from option set ${runs[0].optionSetId} (its generation run: ` +
        `${runs.find((run: any) => run.kind === "QUIZ_OPTIONS").id} queued)`,
    );

    // Every job lost (a crash between commit and queue): the generation's items are queued again, not the quiz's.
    await db.query("DELETE FROM pgboss.job WHERE name LIKE 'memicl-completion.%'");
    expect((await reconcile(db, services.queue, logger, timing))?.requeued).toBe(4);

    // One instance's options became final (their writer died before queueing its quizzes): its five are queued.
    const generation = runs.find((run: any) => run.kind === "QUIZ_OPTIONS");
    const [item] = await db.query(
      "SELECT id, sampled_instance_id FROM completion WHERE run_id = $1 ORDER BY id LIMIT 1",
      [generation.id],
    );
    await db.query(
      `INSERT INTO quiz_option (option_set_id, sampled_instance_id, completion_id, options, generations, valid, final)
       VALUES ($1, $2, $3, '["a", "b", "c", "d"]', 1, true, true)`,
      [generation.optionSetId, item.sampled_instance_id, item.id],
    );
    expect((await reconcile(db, services.queue, logger, timing))?.requeued).toBe(5);
    // Now an item can move: what holds it back is the missing worker, not the options.
    expect(await reason()).toMatch(/^no live worker can call provider "simulated"/);
  });

  it("counts an item once when two jobs for it are fetched together", async () => {
    const run = await zeroShotRun("twice", 30, 10, "twice");
    const ids: string[] = (
      await api.database.dataSource.query("SELECT id::text AS id FROM completion WHERE run_id = $1", [run.id])
    ).map((row: { id: string }) => row.id);
    // A second job for three items, fetched first (priority), so each sits in one batch beside its first job.
    await services.queue.enqueue(
      "completion",
      ids.slice(0, 3).map((id) => ({ completionId: id, provider: "simulated" })),
      { priority: 1 },
    );
    const workers = await startWorkers(services, loadConfig({ LOG_LEVEL: "silent" }), {
      role: "test",
      concurrency: 8,
      logger,
    });
    try {
      const done = await waitForRun(api, run.id, finished, 30_000);
      expect(done).toMatchObject({ status: "SUCCEEDED", doneCount: 10, failedCount: 0 });
      const [{ succeeded }] = await api.database.dataSource.query(
        "SELECT count(*)::int AS succeeded FROM completion WHERE run_id = $1 AND status = 'SUCCEEDED'",
        [run.id],
      );
      expect(succeeded).toBe(10);
    } finally {
      await workers.stop();
    }
  }, 60_000);

  it("counts an answer once when a stale claim's answer for the item lands in the same batch as the new one's", async () => {
    const run = await zeroShotRun("stale", 20, 2, "stale");
    const db = api.database.dataSource;
    const [{ id }] = await db.query(
      "SELECT id::text AS id FROM completion WHERE run_id = $1 ORDER BY id LIMIT 1",
      [run.id],
    );
    const claim = async () =>
      (
        await db.query(
          `UPDATE completion SET status = 'RUNNING', lease_token = gen_random_uuid(), lease_until = now() + interval '1 minute'
           WHERE id = $1 RETURNING lease_token`,
          [id],
        )
      )[0][0].lease_token as string;
    // Claimed, its lease lapsed and the item released, then claimed again: two answers, one of a stale claim.
    const stale = await claim();
    const fresh = await claim();
    const row = (token: string) => ({
      id,
      lease_token: token,
      output: "answer",
      finish_reason: "stop",
      prompt_tokens: 10,
      completion_tokens: 2,
      cached_tokens: 0,
      latency_ms: 1,
      attempts: 1,
      reported_model: "m",
      system_fingerprint: null,
      cache_hit: false,
      parsed_label: null,
      correct: null,
      prompt_hash: "h",
      cost_usd: null,
      cache_key: null,
      provider: "simulated",
      model: "stale",
      response: null,
      verdict: "INEXACT",
      judge_version: "heuristic-5",
      details: {},
      extracted_answer: "answer",
      extraction_rule: "layout-2",
    });
    await db.query(completeCompletions, [JSON.stringify([row(stale), row(fresh)])]);
    const [state] = await db.query("SELECT done_count FROM run WHERE id = $1", [run.id]);
    expect(state.done_count).toBe(1);
    const [{ judgments }] = await db.query(
      "SELECT count(*)::int AS judgments FROM judgment WHERE completion_id = $1",
      [id],
    );
    expect(judgments).toBe(1);
  });
  it("leaves no waiting reason on a finished run, whichever statement finishes it or writes one after", async () => {
    const run = await zeroShotRun("finished-reason", 10, 3, "finished-reason");
    const db = api.database.dataSource;
    const reason = 'waiting for the tokens-per-minute limit of provider "simulated"';
    await db.query("UPDATE run SET waiting_reason = $2 WHERE id = $1", [run.id, reason]);
    expect((await db.query("SELECT waiting_reason FROM run WHERE id = $1", [run.id]))[0].waiting_reason).toBe(
      reason,
    );
    for (const status of ["SUCCEEDED", "FAILED", "CANCELLED"]) {
      await db.query("UPDATE run SET status = 'RUNNING', waiting_reason = $2 WHERE id = $1", [
        run.id,
        reason,
      ]);
      await db.query("UPDATE run SET status = $2 WHERE id = $1", [run.id, status]);
      const [row] = await db.query("SELECT waiting_reason FROM run WHERE id = $1", [run.id]);
      expect({ status, reason: row.waiting_reason }).toEqual({ status, reason: null });
      // A reason written late (a process that read the run before it finished) does not stick either.
      await db.query("UPDATE run SET waiting_reason = $2 WHERE id = $1", [run.id, reason]);
      expect(
        (await db.query("SELECT waiting_reason FROM run WHERE id = $1", [run.id]))[0].waiting_reason,
      ).toBeNull();
    }
    // A run its budget paused keeps the reason it was paused for.
    await db.query(
      "UPDATE run SET status = 'PAUSED_BUDGET', waiting_reason = 'budget: reached' WHERE id = $1",
      [run.id],
    );
    expect((await db.query("SELECT waiting_reason FROM run WHERE id = $1", [run.id]))[0].waiting_reason).toBe(
      "budget: reached",
    );
    await db.query("UPDATE run SET status = 'CANCELLED' WHERE id = $1", [run.id]);
  });
});
