// Entry point for the TypeORM CLI (`npm run migration:generate -- migrations/Name`): DATABASE_URL must be set.
import "reflect-metadata";
import { createDataSource } from "./data-source";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL must point at a scratch PostgreSQL database to generate migrations");
export default createDataSource({ url, poolSize: 2 });
