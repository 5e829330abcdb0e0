// The page's entry: an account (created on the first visit; its token in localStorage, sent only
// in the Authorization header and in the WebSocket's hello), then by the address:
//   ?room=<id>   that room's screen, by its kind (heads-up: headsup.js, five-seat: fiveseat.js,
//                the card room: cardroom.js)
//   ?history=1   the player's finished hands;  ?hand=<id>  one hand's log
//   otherwise    the lobby: play Riemann heads-up, open a five-seat table, or open a card-room
//                table of one of the rule book's games, and get its link.
import { ensureAccount, createRoom, getRoom } from "./api.js";
import { headsUpScreen } from "./headsup.js";
import { fiveSeatScreen } from "./fiveseat.js";
import { cardRoomScreen } from "./cardroom.js";
import { GAME_TITLES } from "./cardlog.js";
import { historyScreen, handScreen } from "./history.js";
import { el, jbits } from "./ui.js";

const root = document.getElementById("screen");
const setBank = (n) => { if (n !== null && n !== undefined) document.getElementById("bank").textContent = `Bank ${jbits(n)}`; };

function lobby(acc) {
  root.innerHTML = "";
  const fail = el("p", { class: "error", id: "error" });
  const go = (kind, params = () => ({})) => async () => {
    try { const r = await createRoom(kind, params()); location.search = "?room=" + encodeURIComponent(r.room); }
    catch (e) { fail.textContent = e.message; }
  };
  // the card room's games (the server checks the name; Omaha (5 Cards), Omaha (3 Cards), 3 Sets and
  // Random seat VIP members only, 3 Sets everyone in a practice room)
  const game = el("select", { id: "cardroom-game", "aria-label": "the game" },
    Object.entries(GAME_TITLES).map(([k, t]) => el("option", { value: k }, t)));
  const practice = el("input", { type: "checkbox", id: "cardroom-practice" });
  root.append(
    el("div", { class: "panel" }, el("h2", {}, "Heads-up against Riemann"),
      el("p", { class: "muted" }, "Five-card draw on the 51-card deck against Riemann v0.6, the published dealer policy."),
      el("button", { class: "primary", id: "play-riemann", onclick: go("headsup") }, "Play Riemann")),
    el("div", { class: "panel" }, el("h2", {}, "A five-seat table"),
      el("p", { class: "muted" }, "Open a table and share its link: anyone with it can watch or take an open seat."),
      el("button", { class: "primary", id: "open-table", onclick: go("fiveseat") }, "Open a table")),
    el("div", { class: "panel" }, el("h2", {}, "The card room"),
      el("p", { class: "muted" }, "A table of the rule book's games (Hold'em, the Omahas, 3 Sets, Random), blinds 1/2 chips, 100 chips a jbit: open it and share its link."),
      el("div", { class: "actions" }, game, el("label", {}, practice, " practice chips")),
      el("button", { class: "primary", id: "open-cardroom", onclick: go("cardroom", () => ({ game: game.value, practice: practice.checked })) }, "Open a card-room table")),
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
    else if (info.kind === "cardroom") cardRoomScreen(root, room, setBank, acc);
    else headsUpScreen(root, room, setBank);
    return;
  }
  if (hand) return handScreen(root, hand, acc);
  if (q.get("history")) return historyScreen(root);
  lobby(acc);
}
start().catch((e) => { root.textContent = "Error: " + e.message; });
