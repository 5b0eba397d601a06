// For each .slp under the folders given: slippi-js 9.1.2's players (port, connect code, name)
// and getWinners() ports, one TSV line per file. Run: node codes.cjs DIR...
const { SlippiGame } = require("@slippi/slippi-js/node");
const fs = require("fs"), path = require("path");
function walk(d, out) { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p, out); else if (p.endsWith(".slp")) out.push(p); } return out; }
for (const root of process.argv.slice(2)) {
  for (const f of walk(root, []).sort()) {
    let codes = "", winners = "";
    try {
      const g = new SlippiGame(f);
      const s = g.getSettings();
      codes = (s?.players ?? []).map(p => `P${p.port}=${p.connectCode || ""}`).join(",");
      winners = (g.getWinners() ?? []).map(w => `P${w.playerIndex + 1}`).join(",");
    } catch (e) { codes = "error"; }
    console.log([path.relative(root, f), codes, winners].join("\t"));
  }
}
