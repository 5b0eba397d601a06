// names.cjs writes slippi-js's stage names (id -> name) to stages.json, the
// ground truth TestStageNamesMatchSlippiJS compares the decoder's table with.
//
//   npm install   (package.json pins @slippi/slippi-js 9.1.2)
//   node names.cjs
//
// slippi-js exports getStageInfo but not its table, so every id a u16 stage
// field can hold is asked for; unknown ids answer "Unknown Stage".
const fs = require("fs");
const path = require("path");
const { stages } = require("@slippi/slippi-js/node");

const out = {};
for (let id = 0; id < 0x10000; id++) {
  const info = stages.getStageInfo(id);
  if (info.id !== -1) {
    out[id] = info.name;
  }
}
fs.writeFileSync(path.join(__dirname, "stages.json"), JSON.stringify(out, null, 1) + "\n");
