import { createNeonArena } from "@rtool/sim";
import { buildPrompt } from "../../packages/core/src/prompt/build";
import { toToolSpecs } from "../../packages/core/src/prompt/tools";
import { loadTokenizer } from "../../packages/core/src/tokenizer/read-tokenizer";
import { shipAgentSpec } from "./src/arena-agents";

const tok = loadTokenizer("../../packages/model-rt-tiny/model");
const ships = createNeonArena();
const spec = shipAgentSpec("enemy-1", () => ships);
const tools = toToolSpecs(ships.tools);
const prev: number[][] = [];
const dirs = ["up", "down", "left", "right"];
for (let frame = 0; frame < 12; frame++) {
  ships.step(1 / 30);
  const env = spec.environment!();
  const hist = (spec.history as () => string[])();
  const text = buildPrompt("v2", {
    query: spec.query as string,
    tools,
    environment: env,
    history: hist,
    system: spec.system,
  });
  const ids = tok.encode(text);
  let best = 0;
  for (const p of prev) {
    let i = 0;
    while (i < p.length && i < ids.length && p[i] === ids[i]) i++;
    best = Math.max(best, i);
  }
  const last = prev.at(-1) ?? [];
  let i = 0;
  while (i < last.length && last[i] === ids[i]) i++;
  console.log(
    frame,
    ids.length,
    "vs prev",
    i,
    "best",
    best,
    "| diverges at:",
    JSON.stringify(tok.decode(ids.slice(i, i + 12))),
  );
  if (frame === 0) console.log(JSON.stringify(text.slice(text.indexOf("<|im_start|>user"))));
  prev.push(ids);
  ships.apply(
    { function: frame % 3 === 0 ? "fire" : "move", args: { direction: dirs[frame % 4] } },
    "enemy-1",
  );
}
