import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// The dashboard: a static page built into dist/web, served by `memicl serve` at `/`.
// `npm run dev:web` serves it with hot reload and passes /graphql (HTTP and WebSocket) to a memicl on port 4000.
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  server: { proxy: { "/graphql": { target: "http://127.0.0.1:4000", ws: true } } },
  build: {
    outDir: fileURLToPath(new URL("../dist/web", import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1_000,
  },
});
