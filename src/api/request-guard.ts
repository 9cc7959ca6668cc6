import { Config } from "../config/config";

/** Names a browser uses for this machine's loopback interface. */
const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** `host` of a Host header or URL authority, lower-cased, without its port (IPv6 keeps its brackets). */
export function hostName(authority: string): string {
  const value = authority.trim().toLowerCase();
  if (value.startsWith("[")) return value.slice(0, value.indexOf("]") + 1);
  const colon = value.lastIndexOf(":");
  return colon >= 0 ? value.slice(0, colon) : value;
}

function isLoopbackName(name: string): boolean {
  return LOOPBACK_NAMES.has(name) || /^127\.\d+\.\d+\.\d+$/.test(name) || name.endsWith(".localhost");
}

/**
 * Whether a request's Host header names this server: a loopback name, the address it was told to listen on (when
 * that is a name or address, not a wildcard), or one of `MEMICL_ALLOWED_HOSTS` (`*`: any). A web page that
 * rebinds its own name to 127.0.0.1 sends its own name as Host and is refused, in every auth mode.
 */
export function hostAllowed(
  host: string | undefined,
  config: Pick<Config, "host" | "allowedHosts">,
): boolean {
  if (!host) return false;
  if (config.allowedHosts.includes("*")) return true;
  const name = hostName(host);
  if (isLoopbackName(name)) return true;
  const listening = config.host.toLowerCase();
  if (listening !== "0.0.0.0" && listening !== "::" && hostName(listening) === name) return true;
  return config.allowedHosts.some((allowed) => hostName(allowed) === name);
}

/**
 * Whether a request's Origin may drive this server: no Origin (not a browser: scripts, notebooks, the CLI), the
 * server's own origin (the dashboard it serves), or one of `MEMICL_CORS_ORIGINS`. Any other web page is refused,
 * over HTTP and WebSocket alike, whatever the auth mode.
 */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  config: Pick<Config, "corsOrigins">,
): boolean {
  if (origin === undefined) return true;
  if (config.corsOrigins.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (a sandboxed frame, a file) and anything else unreadable
  }
  return host !== undefined && url.host.toLowerCase() === host.trim().toLowerCase();
}

/** Why a request is refused before anything else runs, or null when it may go on. */
export function requestRefusal(
  headers: { host?: string; origin?: string },
  config: Pick<Config, "host" | "allowedHosts" | "corsOrigins">,
): string | null {
  if (!hostAllowed(headers.host, config))
    return `Host "${headers.host ?? ""}" is not a name of this server (a loopback name, or one of MEMICL_ALLOWED_HOSTS)`;
  if (!originAllowed(headers.origin, headers.host, config))
    return `Origin "${headers.origin}" may not call this server (its own origin, or one of MEMICL_CORS_ORIGINS)`;
  return null;
}
