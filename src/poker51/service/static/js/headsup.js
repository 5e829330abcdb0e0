// The heads-up screen: tap cards to keep (the draw count is shown), the legal actions only,
// Draw / Stand pat, the draw-odds panel for the selected keep, Riemann's words, the result.
import { RoomSocket } from "./socket.js";
import { cardEl } from "./cards.js";

export function headsUpScreen(root, roomId, setBank) {
  let view = null, keep = 0, odds = null, error = "";
  const sock = new RoomSocket(roomId, (f) => {
    if (f.type === "welcome" || f.type === "view") { view = f.view; if (f.bank !== null) setBank(f.bank); }
    else if (f.type === "event" && f.event.type === "state" && !f.replayed) { view = f.event.view; }
    else if (f.type === "ack") { setBank(f.bank); error = ""; }
    else if (f.type === "answer" && f.what === "odds") { odds = f; }
    else if (f.type === "error") { error = `${f.detail}${f.rule ? " [" + f.rule + "]" : ""}`; }
    if (f.type === "error" && f.code === "stale_turn") sock.raw({ type: "view" });
    render();
  });

  function askOdds() { odds = null; sock.query("odds", { keep }); }

  function render() {
    root.innerHTML = "";
    if (!view) { root.textContent = "Connecting…"; return; }
    const h = view.hand, v = h && h.view;
    const p = (t) => { const e = document.createElement("p"); e.textContent = t; root.append(e); return e; };
    const button = (label, fn) => { const b = document.createElement("button"); b.textContent = label;
      b.onclick = fn; root.append(b); return b; };
    p(`Heads-up against Riemann (${view.rules}, ${view.variant}).` + (view.seat ? "" : " You are watching."));
    if (v) {
      p(`Riemann: ${v.opp_stack} jbits${v.opp_draw_count !== null ? `, drew ${v.opp_draw_count}` : ""}`);
      const theirs = document.createElement("div"); theirs.className = "cards";
      const shown = v.result ? v.result.hands.R : [null, null, null, null, null];
      shown.forEach((c) => theirs.append(cardEl(c))); root.append(theirs);
      const words = p((h.said || []).map((s) => "“" + s.text + "”").join(" ")); words.className = "words";
      p(`Pot ${v.pot} · to call ${v.to_call} · your stack ${v.stack}`);
      const mine = document.createElement("div"); mine.className = "cards";
      const choosing = v.needs_keep && v.phase === "pre";
      (v.cards || [null, null, null, null, null]).forEach((c, i) => mine.append(cardEl(c, {
        kept: choosing ? (keep >> i) & 1 : v.keep !== null && (v.keep >> i) & 1 && v.phase !== "post" && !v.result,
        onTap: choosing ? () => { keep ^= 1 << i; askOdds(); render(); } : null,
      })));
      root.append(mine);
      if (choosing) {
        p(`You keep ${[0, 1, 2, 3, 4].filter((i) => (keep >> i) & 1).length}: you will draw ` +
          `${5 - [0, 1, 2, 3, 4].filter((i) => (keep >> i) & 1).length}. Your first action locks it.`);
        if (odds) {
          const t = document.createElement("table"); t.className = "odds";
          Object.entries(odds.counts).filter(([, n]) => n > 0).forEach(([cat, n]) => {
            const row = t.insertRow(); row.insertCell().textContent = cat.replace(/_/g, " ");
            row.insertCell().textContent = (100 * n / odds.total).toFixed(2) + "%";
          });
          root.append(t);
        }
      }
      for (const a of v.legal || []) {
        if (a.kind === "draw") continue;
        const label = a.kind === "check" || a.kind === "fold" ? a.kind : `${a.kind} ${a.amount}`;
        button(label, () => sock.command("act", { kind: a.kind, amount: a.amount, ...(v.needs_keep ? { keep } : {}) }));
      }
      if (h.can_draw) button(v.keep === 31 ? "Stand pat" : "Draw", () => sock.command("draw"));
      if (v.result) {
        const who = { H: "You win", R: "Riemann wins" }[v.result.winner] || "Split pot";
        p(`${who} (${v.result.reason}): your net ${v.result.net.H >= 0 ? "+" : ""}${v.result.net.H}.`);
        p(`Deck seed ${h.seed}; commitment ${h.commitment.slice(0, 16)}…`);
      }
    }
    if (view.can_deal) button("Deal", () => { keep = 0; odds = null; sock.command("deal"); });
    if (error) { const e = p(error); e.className = "error"; }
  }
  render();
  return sock;
}
