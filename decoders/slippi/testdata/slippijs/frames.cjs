// frames.cjs writes what slippi-js 9.1.2 reads, frame by frame, for the Go
// tests in slippijs_test.go to compare with (values nobody else checks):
//
//   netplay-frames.json  testdata/samples/slippi/tests__data__netplay.slp,
//                        frames -123..-121 (what the CLI golden
//                        testdata/golden/dump-netplay-first-frames.ndjson
//                        dumps): every pre- and post-frame value slippi-js
//                        reads, per player index.
//   unlisted-port.json   tests__data__v3.16.slp with Game Start's port 2
//                        marked empty (player type 3), the major scene set to
//                        10-Man Melee and the stage to 285, which is how a
//                        Multi-Man Melee enemy port looks: the players the
//                        settings list, the frames each player index has, and
//                        the values at a few frames.
//
//   npm install   (package.json pins @slippi/slippi-js 9.1.2)
//   node frames.cjs
const fs = require("fs");
const path = require("path");
const { SlippiGame } = require("@slippi/slippi-js/node");

const samples = path.join(__dirname, "..", "..", "..", "..", "testdata", "samples", "slippi");

function write(name, value) {
  fs.writeFileSync(path.join(__dirname, name), JSON.stringify(value, null, 1) + "\n");
}

// perFrame keeps the pre and post objects of the leaders at each frame.
function perFrame(frames, from, to) {
  const out = {};
  for (let f = from; f <= to; f++) {
    const fr = frames[f];
    if (!fr) continue;
    out[f] = {};
    for (const [idx, p] of Object.entries(fr.players || {})) {
      if (p) out[f][idx] = { pre: p.pre || null, post: p.post || null };
    }
  }
  return out;
}

{
  const game = new SlippiGame(path.join(samples, "tests__data__netplay.slp"));
  write("netplay-frames.json", { file: "tests__data__netplay.slp", frames: perFrame(game.getFrames(), -123, -121) });
}

{
  const buf = fs.readFileSync(path.join(samples, "tests__data__v3.16.slp"));
  const gameStart = 15 + 1 + buf[16]; // after the raw element's header and Event Payloads
  if (buf[gameStart] !== 0x36) throw new Error("no Game Start where expected");
  buf[gameStart + 0x66 + 0x24] = 3; // port 2: empty
  buf[gameStart + 0x1a4] = 0x21; // major scene: 10-Man Melee
  buf.writeUInt16BE(285, gameStart + 0x13); // stage: Battlefield (Multi-Man Melee)
  const game = new SlippiGame(buf);
  const frames = game.getFrames();
  const counts = {};
  for (const fr of Object.values(frames)) {
    for (const [idx, p] of Object.entries(fr.players || {})) {
      if (p) counts[idx] = (counts[idx] || 0) + 1;
    }
  }
  write("unlisted-port.json", {
    file: "tests__data__v3.16.slp",
    patch: { gameStartOffset: gameStart, playerType2: 3, majorScene: 0x21, stage: 285 },
    settingsPlayers: game.getSettings().players.map((p) => p.playerIndex),
    framesPerPlayerIndex: counts,
    frames: Object.assign(perFrame(frames, -123, -122), perFrame(frames, 0, 0), perFrame(frames, 100, 100), perFrame(frames, 184, 184)),
  });
}
