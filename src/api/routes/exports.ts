import express from "express";
import { DataSource } from "typeorm";
import { DomainError } from "../../common/errors";
import { Logger } from "../../logging/logger";
import { exportCompletions } from "../../report/export.service";
import { ReportService } from "../../report/report.service";
import { comparisonCsv, reportCsv } from "../../report/report-csv";

/**
 * Streamed exports (any live key may read): an experiment's completions with every judgment (CSV or JSONL),
 * and its study report as the same CSV `memicl report --format csv` prints.
 */
export function exportRoutes(
  dataSource: DataSource,
  report: ReportService,
  requireKey: express.RequestHandler,
  logger: Logger,
): express.Router {
  const router = express.Router();
  const fail = (response: express.Response, error: unknown) => {
    if (error instanceof DomainError && !response.headersSent) {
      response.status(error.code === "NOT_FOUND" ? 404 : 400).json({ error: error.message });
    } else {
      logger.error({ err: error }, "export failed");
      if (!response.headersSent) response.status(500).json({ error: "Internal server error" });
      else response.destroy();
    }
  };
  router.get("/export/experiments/:id/report.csv", requireKey, async (request, response) => {
    const { id } = request.params as { id: string };
    try {
      const text = reportCsv(await report.studyReport(id));
      response.setHeader("content-type", "text/csv; charset=utf-8");
      response.setHeader("content-disposition", `attachment; filename="report-${id}.csv"`);
      response.end(text);
    } catch (error) {
      fail(response, error);
    }
  });
  router.get("/export/comparison.csv", requireKey, async (request, response) => {
    const ids = String(request.query.experiments ?? "")
      .split(",")
      .map((id) => id.trim())
      .filter(Boolean);
    try {
      const text = comparisonCsv(await report.compare(ids));
      response.setHeader("content-type", "text/csv; charset=utf-8");
      response.setHeader("content-disposition", `attachment; filename="comparison.csv"`);
      response.end(text);
    } catch (error) {
      fail(response, error);
    }
  });
  router.get("/export/experiments/:id/completions.:format", requireKey, async (request, response) => {
    const { id, format } = request.params as { id: string; format: string };
    if (format !== "csv" && format !== "jsonl") {
      response.status(400).json({ error: "format must be csv or jsonl" });
      return;
    }
    try {
      response.setHeader(
        "content-type",
        format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson",
      );
      response.setHeader("content-disposition", `attachment; filename="completions-${id}.${format}"`);
      await exportCompletions(dataSource, id, format, response);
      response.end();
    } catch (error) {
      fail(response, error);
    }
  });
  return router;
}
