// Preloaded into a CLI process (`node -r`): on exit, writes which of the named packages it loaded to LOADED_OUT.
const fs = require("node:fs");

process.on("exit", () => {
  const names = new Set();
  for (const file of Object.keys(require.cache)) {
    const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(file);
    if (match) names.add(match[1].replace("\\", "/"));
  }
  fs.writeFileSync(process.env.LOADED_OUT, JSON.stringify([...names].sort()));
});
