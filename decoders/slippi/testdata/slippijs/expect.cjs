// Writes expected.ndjson.gz: what slippi-js 9.1.2's getStats() returns for
// every replay of the shared Slippi corpus, one JSON line per file, so that
// rewind's Go tests compare against it without node. Run once after
// `npm ci` in this directory:
//
//   node expect.cjs [corpus dir]     (default: ../shared/corpus/slp beside the checkout)
//
// A line is {"file": "<dir>/<name>", "stats": <getStats() as JSON.stringify
// writes it>}; "stats" is null where getStats() returns undefined, and a
// file slippi-js throws on has "error" instead. Lines with "cut": k are the
// file cut short (see cut below).
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
// Recordings cut short: the file's first k/3 of its event stream with the
// raw length zeroed, as a replay still being written looks. They exercise
// which frames slippi-js counts when no Game End closes the game.
const cuts = [
  "hohav__peppi/tests__data__v0.1.slp",
  "hohav__peppi/tests__data__game.slp",
  "hohav__peppi/tests__data__v2.0.slp",
  "hohav__peppi/tests__data__items.slp",
  "hohav__peppi/tests__data__v3.16.slp",
  "project-slippi__slippi-js/slp__rollbackFrameTest.slp",
  "project-slippi__slippi-js/slp__unranked_game1.slp",
  "PMcca__go-slippi/replays__netplay-online.slp",
];

function stats(input) {
  const line = {};
  try {
    const s = new SlippiGame(input).getStats();
    line.stats = s === undefined ? null : s;
  } catch (e) {
    line.error = String(e && e.message ? e.message : e);
  }
  return line;
}

// cut keeps the header and the first k/3 of the raw element, length zeroed.
function cut(buf, k) {
  const rawLen = buf.readUInt32BE(11);
  const b = Buffer.from(buf.subarray(0, 15 + Math.floor((rawLen * k) / 3)));
  b.writeUInt32BE(0, 11);
  return b;
}

const lines = [];
for (const f of files) {
  lines.push(JSON.stringify({ file: f, ...stats(path.join(root, f)) }));
}
for (const f of cuts) {
  const buf = fs.readFileSync(path.join(root, f));
  for (const k of [1, 2, 3]) lines.push(JSON.stringify({ file: f, cut: k, ...stats(cut(buf, k)) }));
}
const out = path.join(__dirname, "expected.ndjson.gz");
fs.writeFileSync(out, zlib.gzipSync(lines.join("\n") + "\n", { level: 9 }));
console.log(`${lines.length} lines (${files.length} files, ${lines.length - files.length} cut short) -> ${out}`);
