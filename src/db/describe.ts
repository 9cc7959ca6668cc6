import { type DataDirSource, describeDataDirSource } from "../config/data-dir";
import type { EmbeddedCluster } from "./embedded";

/** One line for humans: the embedded database, where its files are, and whether this process started it. */
export function describeCluster(cluster: EmbeddedCluster, source?: DataDirSource): string {
  const notes = [
    ...(source ? [describeDataDirSource(source)] : []),
    ...(cluster.clusterDir.startsWith(cluster.dataDir) ? [] : [`files in ${cluster.clusterDir}`]),
  ];
  const where = notes.length > 0 ? `${cluster.dataDir} (${notes.join("; ")})` : cluster.dataDir;
  const how = cluster.how === "started" ? "started by this process" : "already running";
  return `embedded PostgreSQL ${cluster.version} in ${where}, ${how} (pid ${cluster.serverPid})`;
}

/** A database URL with its password hidden. */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}
