// Cards drawn legibly: "As" -> A♠ (hearts and diamonds in red).
const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };

export function cardEl(name, { kept = false, onTap = null } = {}) {
  const el = document.createElement("div");
  if (!name) { el.className = "card back"; return el; }
  const rank = name[0] === "T" ? "10" : name[0];
  el.className = "card" + ("hd".includes(name[1]) ? " red" : "") + (kept ? " kept" : "");
  el.textContent = rank + SUITS[name[1]];
  el.title = name;
  if (onTap) el.onclick = onTap;
  return el;
}
