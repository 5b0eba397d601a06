// How fast slippi-js reads the shared slp corpus (settings, metadata, all
// frames, rollback frames), for comparison with BenchmarkDecodeSlippiCorpus.
// Run from a directory where `npm install @slippi/slippi-js` was done:
//   node slippijs_bench.cjs [corpus dir]
const { SlippiGame } = require("@slippi/slippi-js/node");
const fs = require("fs");
const path = require("path");
const root = process.argv[2] || "/work/shared/corpus/slp";
const files = [];
for (const d of fs.readdirSync(root)) {
  const p = path.join(root, d);
  if (!fs.statSync(p).isDirectory()) continue;
  for (const f of fs.readdirSync(p)) if (f.endsWith(".slp")) files.push(path.join(p, f));
}
files.sort();
let bytes = 0, frames = 0, fails = 0;
const t0 = process.hrtime.bigint();
const per = {};
for (const f of files) {
  const t1 = process.hrtime.bigint();
  const buf = fs.readFileSync(f);
  bytes += buf.length;
  try {
    const g = new SlippiGame(buf);
    g.getSettings();
    g.getMetadata();
    const fr = g.getFrames();
    frames += Object.keys(fr).length;
    g.getRollbackFrames();
  } catch (e) { fails++; }
  per[path.basename(f)] = Number(process.hrtime.bigint() - t1) / 1e6;
}
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
console.log(JSON.stringify({ files: files.length, bytes, frames, fails, ms, rollbackFrameTest_ms: per["slp__rollbackFrameTest.slp"] }));
