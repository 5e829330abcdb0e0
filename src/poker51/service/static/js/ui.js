// A small element builder: el("button", {class: "primary", onclick: f}, "Deal").  Text children
// are text nodes (never parsed as HTML), so names from the server cannot inject markup.
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) e[k] = v;
    else if (k === "disabled") e.disabled = Boolean(v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/** Jbits from cents: 350 -> "3.5", 400 -> "4". */
export const jb = (cents) => {
  const x = Number(cents) / 100;
  return Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0$/, "");
};

/** The hand categories in the order of poker51.rules.CATEGORIES; a strength's category is strength >> 20. */
export const CATEGORIES = ["high card", "one pair", "two pair", "three of a kind", "straight", "flush", "full house",
  "four of a kind", "straight flush", "five of a kind"];
export const category = (strength) => CATEGORIES[Math.floor(Number(strength) / 1048576)] || "?";

/** "1 jbit", "3 jbits", "2.5 jbits" from cents. */
export const jbits = (cents, unit = "jbit") => `${jb(cents)} ${unit}${Number(cents) === 100 ? "" : "s"}`;
/** "1 jbit", "5 jbits" from whole jbits. */
export const whole = (n, unit = "jbit") => `${n} ${unit}${Number(n) === 1 ? "" : "s"}`;

/** The decision clock, redrawn by its screen's timer: every [data-clock] element shows the seconds
 * left until `deadline` (the service's clock, epoch seconds; the browser's clock is assumed near
 * it), red under 10 s, and #clockbar's width the share left of `total` seconds. */
export function showClock(deadline, total) {
  const left = Math.max(0, Math.min(total, deadline - Date.now() / 1000));
  for (const c of document.querySelectorAll("[data-clock]")) {
    c.textContent = `${Math.ceil(left)} s`;
    c.className = "clock" + (left < 10 ? " low" : "");
  }
  const bar = document.getElementById("clockbar");
  if (bar) bar.style.width = `${(100 * left) / total}%`;
}
