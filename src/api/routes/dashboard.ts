import fs from "node:fs";
import path from "node:path";
import express from "express";

/** The dashboard: a static page built by `npm run build` (web/ -> dist/web) that speaks only to /graphql. */
export function dashboardRoutes(): express.Router {
  const router = express.Router();
  const webDir = dashboardDirectory();
  if (webDir) {
    router.use(
      express.static(webDir, {
        index: "index.html",
        setHeaders: (response, file) =>
          response.setHeader(
            "cache-control",
            file.includes(`${path.sep}assets${path.sep}`)
              ? "public, max-age=31536000, immutable"
              : "no-cache",
          ),
      }),
    );
  } else {
    router.get("/", (_request, response) => {
      response
        .status(503)
        .type("text/plain")
        .send("The dashboard is not built: run `npm run build` (GraphQL is at /graphql).\n");
    });
  }
  return router;
}

/** dist/web of this checkout (from src/api/routes when run from source, from dist/src/api/routes when built). */
export function dashboardDirectory(): string | null {
  for (const candidate of [
    path.resolve(__dirname, "../../../../dist/web"),
    path.resolve(__dirname, "../../../dist/web"),
  ]) {
    if (fs.existsSync(path.join(candidate, "index.html"))) return candidate;
  }
  return null;
}
