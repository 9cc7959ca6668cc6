#!/usr/bin/env node
// Fails when the entities and the migrations disagree: on a scratch database made from the migrations alone,
// TypeORM's schema diff for the entities must be empty (what `npm run migration:generate` would write).
// Usage: node scripts/check-migrations.js postgres://user@host:port/db   (after `npm run build`)
require("reflect-metadata");
const { Client } = require("pg");
const { createDataSource } = require("../dist/src/db/data-source");

async function main() {
  const adminUrl = process.argv[2] ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl)
    throw new Error("give a PostgreSQL URL (or set TEST_DATABASE_URL) to make a scratch database on");
  const name = `memicl_migration_check_${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dataSource = createDataSource({ url: url.toString(), poolSize: 2 });
  try {
    await dataSource.initialize();
    await dataSource.runMigrations();
    const { upQueries } = await dataSource.driver.createSchemaBuilder().log();
    if (upQueries.length > 0) {
      console.error("entities and migrations differ; a migration would need:");
      for (const query of upQueries) console.error(`  ${query.query}`);
      process.exitCode = 1;
    } else {
      console.log(`entities match the ${dataSource.migrations.length} migrations`);
    }
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
