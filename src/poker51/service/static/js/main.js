// The page's entry: an account (created on the first visit), then ?room=<id> opens that room's
// screen, else the lobby with "Play Riemann".  One module per screen (headsup.js; the
// five-seat screens come next to it).
import { ensureAccount, createRoom } from "./api.js";
import { headsUpScreen } from "./headsup.js";

const root = document.getElementById("screen");
const setBank = (n) => { if (n !== null && n !== undefined) document.getElementById("bank").textContent = `bank ${n} jbits`; };

async function start() {
  const acc = await ensureAccount();
  setBank(acc.bank);
  const room = new URLSearchParams(location.search).get("room");
  if (room) { headsUpScreen(root, room, setBank); return; }
  root.innerHTML = "";
  const b = document.createElement("button");
  b.textContent = "Play Riemann (heads-up)";
  b.onclick = async () => { const r = await createRoom("headsup"); location.search = "?room=" + r.room; };
  root.append(b);
}
start().catch((e) => { root.textContent = "Error: " + e.message; });
