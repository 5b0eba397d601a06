// garbage-ports.cjs writes garbage-ports.json: what slippi-js 9.1.2 reads
// from a 0.1.0 recording whose post-frame updates name ports no player has,
// and from rewind's repairs of it cut short, for garbage_test.go.
//
//   npm ci        (package.json pins @slippi/slippi-js 9.1.2)
//   node garbage-ports.cjs [rewind binary] [corpus dir]
//
// The binary defaults to one built from the checkout into a temporary
// folder; the corpus to ../shared/corpus/slp beside the checkout.
//
// The case is made by hand from the corpus's slp__test.slp (0.1.0, P1
// Falco vs P3 Captain Falcon, no other port in Game Start): the player
// index byte of four post-frame updates is rewritten to 4, 3, 5 and 124
// (ports 5, 4, 6 and 125), as such recordings have been seen with. Two
// shapes: "recorded", the file as it is with the four bytes changed, and
// "post-only", the same with every pre-frame update and its Event Payloads
// entry taken out, as the reported recordings' Event Payloads list only
// Game Start, Post-Frame Update and Game End. The Go test rebuilds both
// from the edits recorded and checks their SHA-256.
//
// Each shape is read whole (settings, frames, frames per player index,
// winners) and repaired by rewind as it is (cut 0/20), then cut as a crash
// leaves it at 8/20, 14/20 and 19/20 of its event stream (40, 70, 95%, raw
// length 0, no metadata) and repaired; every input gets the modification
// time of repair.cjs. slippi-js reads each input and each repaired file.
const { SlippiGame } = require("@slippi/slippi-js/node");
const { execFileSync, spawnSync } = require("child_process");
const crypto = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");

const version = require("@slippi/slippi-js/package.json").version;
if (version !== "9.1.2") throw new Error(`expected slippi-js 9.1.2, found ${version}`);

const repo = path.resolve(__dirname, "../../../..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rewind-garbage-"));
let rewind = process.argv[2];
if (!rewind) {
  rewind = path.join(tmp, "rewind");
  execFileSync("go", ["build", "-o", rewind, "."], { cwd: repo, stdio: "inherit" });
}
const corpus = process.argv[3] || path.resolve(repo, "../shared/corpus/slp");
const source = "project-slippi__slippi-js/slp__test.slp";
const mtime = new Date("2024-01-01T00:00:00Z");
const PRE = 0x37;
const POST = 0x38;

// The post-frame updates whose player index is rewritten: frame, the
// player index Game Start gives it, the one written instead.
const wanted = [
  { frame: -123, from: 0, to: 4 },
  { frame: 600, from: 2, to: 3 },
  { frame: 1500, from: 0, to: 5 },
  { frame: 2500, from: 2, to: 124 },
];

function sizes(buf) {
  const n = buf[16];
  const s = {};
  for (let q = 17; q + 3 <= 16 + n; q += 3) s[buf[q]] = buf.readUInt16BE(q + 1);
  return s;
}

// events lists [offset, code] of the raw element's events after Event Payloads.
function events(buf) {
  const s = sizes(buf);
  const out = [];
  const end = 15 + buf.readUInt32BE(11);
  for (let p = 16 + buf[16]; p < end; p += 1 + s[buf[p]]) out.push([p, buf[p]]);
  return out;
}

function edit(buf) {
  const edits = [];
  for (const [p, c] of events(buf)) {
    if (c !== POST || buf[p + 6] !== 0) continue;
    const f = buf.readInt32BE(p + 1);
    const w = wanted.find((w) => w.frame === f && w.from === buf[p + 5]);
    if (w) edits.push({ offset: p + 5, frame: f, from: w.from, to: w.to });
  }
  if (edits.length !== wanted.length) throw new Error(`found ${edits.length} of ${wanted.length} updates`);
  const out = Buffer.from(buf);
  for (const e of edits) out[e.offset] = e.to;
  return { out, edits };
}

// postOnly takes the pre-frame updates and their Event Payloads entry out.
function postOnly(buf) {
  const s = sizes(buf);
  const n = buf[16];
  const entries = [];
  for (let q = 17; q + 3 <= 16 + n; q += 3) if (buf[q] !== PRE) entries.push(buf.subarray(q, q + 3));
  const parts = [Buffer.from([0x35, 1 + 3 * entries.length]), ...entries];
  for (const [p, c] of events(buf)) if (c !== PRE) parts.push(buf.subarray(p, p + 1 + s[c]));
  const raw = Buffer.concat(parts);
  const head = Buffer.from(buf.subarray(0, 15));
  head.writeUInt32BE(raw.length, 11);
  return Buffer.concat([head, raw, buf.subarray(15 + buf.readUInt32BE(11))]);
}

// cut keeps the header and the first k/parts of the event stream, raw
// length 0, as Go's cutRecording does.
function cut(buf, k, parts) {
  const rawLen = buf.readUInt32BE(11);
  const b = Buffer.from(buf.subarray(0, 15 + Math.floor((rawLen * k) / parts)));
  b.writeUInt32BE(0, 11);
  return b;
}

const sha = (b) => crypto.createHash("sha256").update(b).digest("hex");

function read(input) {
  const g = new SlippiGame(input);
  const s = g.getSettings();
  const frames = g.getFrames();
  const perIndex = {};
  for (const fr of Object.values(frames)) {
    for (const [idx, p] of Object.entries(fr.players || {})) if (p) perIndex[idx] = (perIndex[idx] || 0) + 1;
  }
  const end = g.getGameEnd();
  return {
    settingsPlayers: s ? s.players.map((p) => ({ playerIndex: p.playerIndex, characterId: p.characterId })) : null,
    frames: Object.keys(frames).length,
    framesPerPlayerIndex: perIndex,
    latestFrame: g.getLatestFrame() ? g.getLatestFrame().frame : null,
    gameEndMethod: end ? end.gameEndMethod : null,
    winners: g.getWinners(),
  };
}

const original = fs.readFileSync(path.join(corpus, source));
const { out: recorded, edits } = edit(original);
const shapes = { recorded, "post-only": postOnly(recorded) };
const result = { source, edits, shapes: {} };
for (const [name, buf] of Object.entries(shapes)) {
  const shape = { sha256: sha(buf), whole: read(buf), cuts: [] };
  for (const k of [0, 8, 14, 19]) {
    const inFile = path.join(tmp, "in.slp");
    const outFile = path.join(tmp, "out.slp");
    const c = k ? cut(buf, k, 20) : buf;
    fs.writeFileSync(inFile, c);
    fs.utimesSync(inFile, mtime, mtime);
    fs.rmSync(outFile, { force: true });
    const run = spawnSync(rewind, ["repair", inFile, "-o", outFile, "--json"], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`${name} cut ${k}/20: rewind repair exit ${run.status}: ${run.stderr}`);
    const rep = JSON.parse(run.stdout);
    const line = { cut: [k, 20], read: read(c), status: rep.status };
    if (rep.status === "repaired") {
      const bytes = fs.readFileSync(outFile);
      line.sha256 = sha(bytes);
      line.repaired = read(bytes);
    }
    shape.cuts.push(line);
    console.log(`${name} cut ${k}/20: cut file ${line.read.frames} frames; repaired ${line.repaired ? line.repaired.frames : "-"} frames, players ${JSON.stringify(line.repaired && line.repaired.settingsPlayers)}`);
  }
  result.shapes[name] = shape;
  console.log(`${name}: ${shape.whole.frames} frames, players ${JSON.stringify(shape.whole.settingsPlayers)}, per index ${JSON.stringify(shape.whole.framesPerPlayerIndex)}`);
}
fs.rmSync(tmp, { recursive: true, force: true });
fs.writeFileSync(path.join(__dirname, "garbage-ports.json"), JSON.stringify(result, null, 1) + "\n");
