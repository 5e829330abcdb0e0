// The page's entry: an account (created on the first visit; its token in localStorage, sent only
// in the Authorization header and in the WebSocket's hello), then by the address:
//   ?room=<id>   that room's screen, by its kind (heads-up: headsup.js, five-seat: fiveseat.js)
//   ?history=1   the player's finished hands;  ?hand=<id>  one hand's log
//   otherwise    the lobby: play Riemann heads-up, or open a five-seat table and get its link.
import { ensureAccount, createRoom, getRoom } from "./api.js";
import { headsUpScreen } from "./headsup.js";
import { fiveSeatScreen } from "./fiveseat.js";
import { historyScreen, handScreen } from "./history.js";
import { el, jbits } from "./ui.js";

const root = document.getElementById("screen");
const setBank = (n) => { if (n !== null && n !== undefined) document.getElementById("bank").textContent = `Bank ${jbits(n)}`; };

function lobby(acc) {
  root.innerHTML = "";
  const fail = el("p", { class: "error", id: "error" });
  const go = (kind) => async () => {
    try { const r = await createRoom(kind); location.search = "?room=" + encodeURIComponent(r.room); }
    catch (e) { fail.textContent = e.message; }
  };
  root.append(
    el("div", { class: "panel" }, el("h2", {}, "Heads-up against Riemann"),
      el("p", { class: "muted" }, "Five-card draw on the 51-card deck against Riemann v0.6, the published dealer policy."),
      el("button", { class: "primary", id: "play-riemann", onclick: go("headsup") }, "Play Riemann")),
    el("div", { class: "panel" }, el("h2", {}, "A five-seat table"),
      el("p", { class: "muted" }, "Open a table and share its link: anyone with it can watch or take an open seat."),
      el("button", { class: "primary", id: "open-table", onclick: go("fiveseat") }, "Open a table")),
    el("p", {}, el("a", { href: "/?history=1", id: "history-link" }, "Your hands"), ` · bank ${jbits(acc.bank)}`),
    fail);
}

async function start() {
  const acc = await ensureAccount();
  setBank(acc.bank);
  const q = new URLSearchParams(location.search);
  const room = q.get("room"), hand = q.get("hand");
  if (room) {
    const info = await getRoom(room);
    if (info.kind === "fiveseat") fiveSeatScreen(root, room, setBank, acc);
    else headsUpScreen(root, room, setBank);
    return;
  }
  if (hand) return handScreen(root, hand);
  if (q.get("history")) return historyScreen(root);
  lobby(acc);
}
start().catch((e) => { root.textContent = "Error: " + e.message; });
