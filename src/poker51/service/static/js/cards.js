// Cards drawn legibly: "As" -> A♠ with the rank in the corner and a large suit (hearts and
// diamonds red, clubs and spades black); a hidden card is a back.  A tappable card is a button
// (keyboard and screen readers reach it); `kept` raises it, `out` marks a card to discard.
const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const SUIT_NAMES = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
const RANK_NAMES = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };

export const cardText = (name) => (name[0] === "T" ? "10" : name[0]) + SUITS[name[1]];

export function cardEl(name, { kept = false, out = false, onTap = null } = {}) {
  const el = document.createElement(onTap ? "button" : "div");
  if (!name) {
    el.className = "card back";
    el.setAttribute("aria-label", "a hidden card");
    return el;
  }
  const rank = name[0] === "T" ? "10" : name[0];
  el.className = "card" + ("hd".includes(name[1]) ? " red" : "") + (kept ? " kept" : "") + (out ? " out" : "");
  el.dataset.card = name;
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.textContent = rank + SUITS[name[1]];
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.textContent = SUITS[name[1]];
  el.append(corner, pip);
  el.setAttribute("aria-label", `${RANK_NAMES[name[0]] || name[0]} of ${SUIT_NAMES[name[1]]}` + (kept ? ", kept" : "") + (out ? ", to discard" : ""));
  if (onTap) { el.type = "button"; el.onclick = onTap; el.setAttribute("aria-pressed", String(Boolean(kept || out))); }
  return el;
}

export function cardRow(names, opts = () => ({})) {
  const row = document.createElement("div");
  row.className = "cards";
  names.forEach((c, i) => row.append(cardEl(c, opts(c, i))));
  return row;
}
