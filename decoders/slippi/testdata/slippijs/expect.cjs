// Writes expected.ndjson.gz: what slippi-js 9.1.2's getStats() returns for
// every replay of the shared Slippi corpus, one JSON line per file, so that
// rewind's Go tests compare against it without node. Run once after
// `npm ci` in this directory:
//
//   node expect.cjs [corpus dir]     (default: ../shared/corpus/slp beside the checkout)
//
// A line is {"file": "<dir>/<name>", "stats": <getStats() as JSON.stringify
// writes it>}; "stats" is null where getStats() returns undefined, and a
// file slippi-js throws on has "error" instead.
const { SlippiGame } = require("@slippi/slippi-js/node");
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");

const version = require("@slippi/slippi-js/package.json").version;
if (version !== "9.1.2") throw new Error(`expected slippi-js 9.1.2, found ${version}`);

const root = process.argv[2] || path.resolve(__dirname, "../../../../../shared/corpus/slp");
const files = [];
for (const d of fs.readdirSync(root).sort()) {
  const dir = path.join(root, d);
  if (!fs.statSync(dir).isDirectory()) continue;
  for (const f of fs.readdirSync(dir).sort()) files.push(`${d}/${f}`);
}
const lines = [];
for (const f of files) {
  const line = { file: f };
  try {
    const stats = new SlippiGame(path.join(root, f)).getStats();
    line.stats = stats === undefined ? null : stats;
  } catch (e) {
    line.error = String(e && e.message ? e.message : e);
  }
  lines.push(JSON.stringify(line));
}
const out = path.join(__dirname, "expected.ndjson.gz");
fs.writeFileSync(out, zlib.gzipSync(lines.join("\n") + "\n", { level: 9 }));
console.log(`${files.length} files -> ${out}`);
