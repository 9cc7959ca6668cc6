import { Client } from "pg";
import { connect } from "../../../src/db/database";
import { BACKENDS, createTestDatabase, TestDatabase } from "../../support/databases";

/**
 * A process started while the server has no connection to spare ("too many clients") waits for room with backoff
 * instead of exiting: twenty workers started beside each other on one server lost three to it. A role with a
 * connection limit of two stands for a full server here; one of its two connections is held by another client.
 */
// A role's connection limit binds only a role that logs in as itself, which the embedded server's access rules
// (its own user only) do not allow: the server PostgreSQL CI provides is where this runs.
const SERVERS = BACKENDS.filter((backend) => backend === "postgres");
const describeServers =
  SERVERS.length > 0 ? describe.each(SERVERS) : describe.skip.each(["postgres" as const]);

describeServers("opening the database while the server is full (%s)", (backend) => {
  let database: TestDatabase;
  const role = `memicl_full_${process.pid}`;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    await database.dataSource.query(`CREATE ROLE ${role} LOGIN PASSWORD 'full' CONNECTION LIMIT 2`);
    await database.dataSource.query(`GRANT ALL ON SCHEMA public TO ${role}`);
    await database.dataSource.query(`GRANT ALL ON ALL TABLES IN SCHEMA public TO ${role}`);
  }, 60_000);
  afterAll(async () => {
    await database?.dataSource.query(`DROP OWNED BY ${role}`).catch(() => {});
    await database?.dataSource.query(`DROP ROLE IF EXISTS ${role}`).catch(() => {});
    await database?.close();
  });

  it("waits for a connection to come free, then opens (and migrates) as usual", async () => {
    const url = new URL(database.url);
    url.username = role;
    url.password = "full";
    const other = new Client({ connectionString: url.toString() });
    await other.connect();
    // The process needs both of the role's connections (its pool of two: one holds the migrations' turn).
    let opened = false;
    const opening = connect("server", url.toString(), "full", null, { poolSize: 2 }).then((db) => {
      opened = true;
      return db;
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(opened).toBe(false);
    await other.end();
    const db = await opening;
    expect(await db.dataSource.query("SELECT 1 AS one")).toEqual([{ one: 1 }]);
    await db.close();
  }, 90_000);

  it("does not wait on an address where no server listens", async () => {
    const url = new URL(database.url);
    url.port = "9";
    await expect(connect("server", url.toString(), "nowhere", null, {})).rejects.toThrow(
      /ECONNREFUSED|connect/,
    );
  });
});
