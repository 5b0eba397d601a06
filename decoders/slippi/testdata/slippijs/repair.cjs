// Checks `rewind repair` against slippi-js 9.1.2 and writes repaired.ndjson.gz,
// what slippi-js says about every repaired file, so that rewind's Go tests
// (TestRepairAgainstSlippiJS) compare against it without node. Run after
// `npm ci` in this directory:
//
//   node repair.cjs [rewind binary] [corpus dir]
//
// The binary defaults to one built from the checkout into a temporary
// folder; the corpus to ../shared/corpus/slp beside the checkout (files
// from it are skipped when it is absent).
//
// Inputs: the corpus's recordings that stopped (corrupt.slp, incomplete.slp,
// streaming_game.slp) as they are, and replays cut as a crash leaves them:
// the header and the first k/7 of the event stream, raw length 0, no
// metadata, for k = 1..7. Each cut file gets the same modification time,
// so rewind's estimated startAt, and so the repaired bytes, are the same on
// every run; Go checks the bytes by their SHA-256.
//
// A line of the report is printed per file; a difference between what
// rewind's report says (frames, lastFrame, Game End method, the players'
// characters) and what slippi-js reads from the repaired file makes the
// script exit 1.
const { SlippiGame } = require("@slippi/slippi-js/node");
const { execFileSync, spawnSync } = require("child_process");
const crypto = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");
const zlib = require("zlib");

const version = require("@slippi/slippi-js/package.json").version;
if (version !== "9.1.2") throw new Error(`expected slippi-js 9.1.2, found ${version}`);

const repo = path.resolve(__dirname, "../../../..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rewind-repair-"));
let rewind = process.argv[2];
if (!rewind) {
  rewind = path.join(tmp, "rewind");
  execFileSync("go", ["build", "-o", rewind, "."], { cwd: repo, stdio: "inherit" });
}
const corpus = process.argv[3] || path.resolve(repo, "../shared/corpus/slp");
const samples = path.join(repo, "testdata/samples/slippi");

// The modification time every input gets (Go's repairTime).
const mtime = new Date("2024-01-01T00:00:00Z");
const parts = 7;

const inputs = [];
for (const f of fs.readdirSync(samples).sort()) {
  if (!f.endsWith(".slp")) continue;
  for (let k = 1; k <= parts; k++) inputs.push({ source: `samples/${f}`, cut: k });
}
// corpus recordings that stopped, as they are
for (const f of [
  "hohav__peppi/tests__data__corrupt.slp",
  "project-slippi__slippi-js/slp__incomplete.slp",
  "hohav__py-slippi/test__replays__streaming_game.slp",
]) {
  inputs.push({ source: `corpus/${f}`, cut: 0 });
}
// corpus replays of other versions and kinds, cut
for (const f of [
  "project-slippi__slippi-js/slp__test.slp", // 0.1.0, no bookends
  "project-slippi__slippi-js/slp__sheik_vs_ics_yoshis.slp", // 0.1.0, Nana
  "hohav__peppi/tests__data__game.slp", // 1.0.0
  "hohav__peppi/tests__data__v2.0.slp", // 2.0.1 (Frame Start, no bookends)
  "project-slippi__slippi-js/slp__realtimeTest.slp", // 2.0.1 console
  "hohav__peppi/tests__data__items.slp", // 3.7.0 items
  "project-slippi__slippi-js/slp__doubles.slp", // 1.2.0, four players
  "project-slippi__slippi-js/slp__rollbackFrameTest.slp", // 3.9.0 heavy rollback
  "PMcca__go-slippi/replays__netplay-online.slp", // 3.12.0 online
  "project-slippi__slippi-js/slp__gameModeTest__Training.slp", // training mode
  "project-slippi__slippi-js/slp__FodPlatforms.slp", // 3.17.0 stage events
]) {
  for (let k = 1; k <= parts; k++) inputs.push({ source: `corpus/${f}`, cut: k });
}

function sourcePath(source) {
  return source.startsWith("samples/")
    ? path.join(samples, source.slice("samples/".length))
    : path.join(corpus, source.slice("corpus/".length));
}

// cut keeps the header and the first k/parts of the event stream, raw
// length 0, as Go's cutRecording does.
function cut(buf, k) {
  let rawLen = buf.readUInt32BE(11);
  if (rawLen === 0) rawLen = buf.length - 15;
  const b = Buffer.from(buf.subarray(0, 15 + Math.floor((rawLen * k) / parts)));
  b.writeUInt32BE(0, 11);
  return b;
}

function slippiJS(file) {
  const g = new SlippiGame(file);
  const out = {};
  const s = g.getSettings();
  out.settings = s
    ? {
        slpVersion: s.slpVersion,
        stageId: s.stageId,
        players: s.players.map((p) => ({ playerIndex: p.playerIndex, characterId: p.characterId })),
      }
    : null;
  out.frames = Object.keys(g.getFrames()).length;
  const stats = g.getStats();
  out.lastFrame = stats ? stats.lastFrame : null;
  const end = g.getGameEnd();
  out.gameEnd = end ? { gameEndMethod: end.gameEndMethod, lrasInitiatorIndex: end.lrasInitiatorIndex } : null;
  const direct = g.getGameEnd({ skipProcessing: true });
  out.gameEndLast = direct ? direct.gameEndMethod : null; // read from the raw element's last bytes
  const m = g.getMetadata();
  out.metadata = m ? { startAt: m.startAt, lastFrame: m.lastFrame, playedOn: m.playedOn, players: {} } : null;
  for (const [port, p] of Object.entries((m && m.players) || {})) {
    out.metadata.players[port] = { characters: p.characters, names: p.names };
  }
  out.winners = g.getWinners();
  return out;
}

const lines = [];
let bad = 0;
for (const input of inputs) {
  const src = sourcePath(input.source);
  if (!fs.existsSync(src)) {
    console.log(`skip ${input.source}: not found`);
    continue;
  }
  const buf = fs.readFileSync(src);
  const inFile = path.join(tmp, "in.slp");
  const outFile = path.join(tmp, "out.slp");
  fs.writeFileSync(inFile, input.cut ? cut(buf, input.cut) : buf);
  fs.utimesSync(inFile, mtime, mtime);
  fs.rmSync(outFile, { force: true });
  const run = spawnSync(rewind, ["repair", inFile, "-o", outFile, "--json"], { encoding: "utf8" });
  const name = `${input.source}${input.cut ? ` cut ${input.cut}/${parts}` : ""}`;
  if (run.status !== 0) {
    console.log(`FAIL ${name}: rewind repair exit ${run.status}: ${run.stderr.trim()}`);
    bad++;
    continue;
  }
  const rep = JSON.parse(run.stdout);
  const line = { source: input.source, cut: input.cut, of: parts, status: rep.status };
  if (rep.status === "repaired") {
    const bytes = fs.readFileSync(outFile);
    line.sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
    line.slippijs = slippiJS(outFile);
    const sj = line.slippijs;
    const diffs = [];
    if (sj.frames !== rep.frames) diffs.push(`frames ${sj.frames} != ${rep.frames}`);
    if (sj.lastFrame !== rep.facts.lastFrame) diffs.push(`lastFrame ${sj.lastFrame} != ${rep.facts.lastFrame}`);
    if (!sj.gameEnd || sj.gameEnd.gameEndMethod !== rep.facts.gameEndMethod)
      diffs.push(`gameEnd ${JSON.stringify(sj.gameEnd)} != method ${rep.facts.gameEndMethod}`);
    if (sj.gameEndLast !== rep.facts.gameEndMethod) diffs.push(`Game End not last in the raw element`);
    if (!sj.metadata) diffs.push("no metadata");
    if (!sj.settings) diffs.push("no settings");
    if (diffs.length) bad++;
    console.log(
      `${diffs.length ? "DIFF" : "ok  "} ${name}: frames ${sj.frames}, lastFrame ${sj.lastFrame}, ` +
        `gameEnd ${sj.gameEnd && sj.gameEnd.gameEndMethod}, winners ${JSON.stringify(sj.winners)}` +
        (diffs.length ? `\n     ${diffs.join("; ")}` : ""),
    );
  } else {
    console.log(`${rep.status} ${name}: ${rep.reason}`);
  }
  lines.push(JSON.stringify(line));
}
fs.rmSync(tmp, { recursive: true, force: true });
const out = path.join(__dirname, "repaired.ndjson.gz");
fs.writeFileSync(out, zlib.gzipSync(lines.join("\n") + "\n", { level: 9 }));
console.log(`${lines.length} files -> ${out}; ${bad} differences`);
process.exit(bad ? 1 : 0);
