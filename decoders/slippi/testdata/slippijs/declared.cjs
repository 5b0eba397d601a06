// declared.cjs records what slippi-js 9.1.2's getWinners() says of every
// replay of the shared Slippi corpus, into declared.json, the ground truth
// TestDeclaredAgreesWithGetWinners compares the summaries' Declared
// outcomes with. Run after `npm ci` in this directory:
//
//   node declared.cjs [corpus dir]
//   node declared.cjs --print <folder>
//
// The corpus defaults to ../shared/corpus/slp beside the checkout. Each
// entry: the players getWinners names ("P1,P3"; "" none), and what the
// Declared outcomes of the others follow from: the Game End's method and
// LRAS initiator as getGameEnd({skipProcessing: true}) reads them (null
// without one), and the ports of settings.players; "error" where slippi-js
// throws.
//
// With --print it prints getWinners for each .slp in the folder and writes
// nothing: the sjs columns of the Go tests' hand-built games (written by
// REWIND_WRITE_OUTCOMES=<dir> go test -run 'TestWrite(Outcome|Declared)Cases'
// in decoders/slippi), and the Multi-Man Melee clip in testdata/.
const { SlippiGame } = require("@slippi/slippi-js/node");
const fs = require("fs");
const path = require("path");

const version = require("@slippi/slippi-js/package.json").version;
if (version !== "9.1.2") throw new Error(`expected slippi-js 9.1.2, found ${version}`);

function slots(list) {
  return list.map((p) => `P${p.playerIndex + 1}`).join(",");
}

function read(file) {
  const game = new SlippiGame(file);
  try {
    const winners = slots(game.getWinners());
    const end = game.getGameEnd({ skipProcessing: true });
    const settings = game.getSettings();
    return {
      winners,
      method: end ? end.gameEndMethod : null,
      lras: end && end.lrasInitiatorIndex !== undefined ? end.lrasInitiatorIndex : null,
      players: settings ? slots(settings.players) : null,
    };
  } catch (e) {
    return { error: String(e && e.message ? e.message : e) };
  }
}

if (process.argv[2] === "--print") {
  const dir = process.argv[3];
  for (const f of fs.readdirSync(dir).sort()) {
    if (!f.endsWith(".slp")) continue;
    const r = read(path.join(dir, f));
    console.log(`${f}\t${r.error !== undefined ? "error: " + r.error : JSON.stringify(r.winners)}`);
  }
  process.exit(0);
}

const root = process.argv[2] || path.resolve(__dirname, "../../../../../shared/corpus/slp");
const out = {};
for (const d of fs.readdirSync(root).sort()) {
  const dir = path.join(root, d);
  if (!fs.statSync(dir).isDirectory()) continue;
  for (const f of fs.readdirSync(dir).sort()) {
    if (f.endsWith(".slp")) out[`${d}/${f}`] = read(path.join(dir, f));
  }
}
fs.writeFileSync(path.join(__dirname, "declared.json"), JSON.stringify(out, null, 1) + "\n");
console.log(`${Object.keys(out).length} files`);
