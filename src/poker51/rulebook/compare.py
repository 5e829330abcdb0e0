"""The games side by side: how often each category occurs, and "rarer is higher".

Every ranking of hands promises that a higher category is rarer.  For each game
(:func:`comparison_table`) the table holds, per category (best first, royal flush apart),
the count, the probability, its 95% interval for an estimate, its rank by rarity (1 = the
rarest) and ``inversions``: how many lower categories are *rarer* than it (0 everywhere
means the promise holds).  For an estimate an inversion counts only when the two 95%
intervals are disjoint; overlapping intervals are counted in ``undecided``.

Poker 51's 51-card deck comes from the census stage's ``counts.parquet`` (five-card hands of
the ``standard`` deck: 52 cards without the marker 2c); its royal flushes are split from the
straight flushes by counting, in that deck, the suits whose ten to ace are all present.
:func:`claims_markdown` states, for each game, which promises break, with the numbers.
"""

from __future__ import annotations

from math import comb

import numpy as np
import pandas as pd

from poker51.cards import MARKER
from poker51.io import TableError
from poker51.rulebook.estimate import GameCensus
from poker51.rulebook.games import BEST_FIRST, CATEGORY_NAMES, GAMES, ROYAL_FLUSH, STRAIGHT_FLUSH

__all__ = ["COLUMNS", "claims_markdown", "comparison_table", "poker51_census"]

#: the comparison table's columns
COLUMNS = [
    "game",
    "title",
    "exact",
    "hands",
    "category",
    "category_id",
    "count",
    "probability",
    "ci_low",
    "ci_high",
    "rarity_rank",
    "inversions",
    "undecided",
]
#: Poker 51 decks of the census stage that the table can show: name -> cards not in play
POKER51_DECKS = {"standard": (MARKER,), "full52": ()}
_TITLES = {"standard": "Poker 51 (51 cards, five-card hands)", "full52": "Five cards from 52"}


def poker51_census(counts: pd.DataFrame, deck: str) -> GameCensus:
    """A deck's five-card census from the census stage's counts table, royal flushes apart."""
    rows = counts[counts["deck"] == deck]
    if rows.empty:
        raise TableError(f"the census counts have no deck {deck!r} (add it to census.decks)")
    removed = set(POKER51_DECKS[deck])
    cards = [c for c in range(52) if c not in removed]
    if int(rows["hands"].iloc[0]) != comb(len(cards), 5):
        raise TableError(f"deck {deck}: {int(rows['hands'].iloc[0])} hands, expected C({len(cards)}, 5)")
    by_name = dict(zip(rows["category"], rows["count"].astype(int)))
    royal = sum(all(4 * r + s in cards for r in range(8, 13)) for s in range(4))
    out = {}
    for c in BEST_FIRST:
        name = CATEGORY_NAMES[c]
        if c == ROYAL_FLUSH:
            out[name] = royal
        elif c == STRAIGHT_FLUSH:
            out[name] = int(by_name.get(name, 0)) - royal
        else:
            out[name] = int(by_name.get(name, 0))
    if by_name.get("five_of_a_kind", 0):
        raise TableError(f"deck {deck} has five of a kind: not an ordinary deck")
    return GameCensus(deck, comb(len(cards), 5), True, out)


def _inversions(p: np.ndarray, lo: np.ndarray, hi: np.ndarray, exact: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per category (best first): lower categories rarer than it (decided), and undecided pairs."""
    n = len(p)
    inv = np.zeros(n, np.int64)
    und = np.zeros(n, np.int64)
    for i in range(n):
        for j in range(i + 1, n):  # j is lower than i
            if hi[j] < lo[i]:  # exact: lo = hi = p
                inv[i] += 1
            elif not exact and not lo[j] > hi[i]:
                und[i] += 1
    return inv, und


def comparison_table(censuses: list[GameCensus]) -> pd.DataFrame:
    """One row per (game, category), best category first within a game; columns :data:`COLUMNS`."""
    rows = []
    for c in censuses:
        names = [CATEGORY_NAMES[k] for k in BEST_FIRST]
        counts = np.array([c.counts[k] for k in names], dtype=np.int64)
        p = counts / c.hands
        if c.ci95 is None:
            lo, hi = p.copy(), p.copy()
        else:
            lo = np.array([c.ci95[k][0] for k in names])
            hi = np.array([c.ci95[k][1] for k in names])
        inv, und = _inversions(p, lo, hi, c.exact)
        order = np.argsort(p, kind="stable")  # rarest first
        rarity = np.empty(len(p), np.int64)
        rarity[order] = np.arange(1, len(p) + 1)
        title = GAMES[c.game].title if c.game in GAMES else _TITLES.get(c.game, c.game)
        for i, k in enumerate(BEST_FIRST):
            rows.append(
                (c.game, title, c.exact, c.hands, names[i], k, int(counts[i]), float(p[i]))
                + (float(lo[i]), float(hi[i]), int(rarity[i]), int(inv[i]), int(und[i]))
            )
    df = pd.DataFrame(rows, columns=COLUMNS)
    for col in ("category_id",):
        df[col] = df[col].astype(np.int8)
    return df


def claims_markdown(df: pd.DataFrame) -> str:
    """What each game does to "rarer is higher", computed from the comparison table."""
    lines = [
        '# Rule book games: category frequencies and "rarer is higher"',
        "",
        "Computed by the `rulebook_census` stage (`poker51.rulebook.compare`); every number below",
        "is read from `census.parquet`.  A category *breaks* the promise when a lower category is",
        "rarer than it.",
        "",
    ]
    for game, g in df.groupby("game", sort=False):
        exact = bool(g["exact"].iloc[0])
        how = "exact, every hand" if exact else "seeded estimate with 95% intervals"
        lines += [f"## {g['title'].iloc[0]} (`{game}`): {int(g['hands'].iloc[0]):,} hands, {how}", ""]
        lines += [
            "| category | count | probability | rarity rank | lower categories rarer |",
            "|---|---:|---:|---:|---:|",
        ]
        for _, r in g.iterrows():
            lines.append(
                f"| {r['category'].replace('_', ' ')} | {int(r['count']):,} | {r['probability']:.6g}"
                f" | {int(r['rarity_rank'])} | {int(r['inversions'])} |"
            )
        broken = g[g["inversions"] > 0]
        lines.append("")
        if broken.empty:
            lines.append("Verdict: **holds**: every category is rarer than every category below it.")
        else:
            pairs = []
            by = g.set_index("category_id")
            for _, r in broken.iterrows():
                lower = [
                    by.loc[j, "category"].replace("_", " ")
                    for j in by.index
                    if j < r["category_id"] and by.loc[j, "ci_high"] < r["ci_low"]
                ]
                pairs.append(f"{r['category'].replace('_', ' ')} is more common than {', '.join(lower)}")
            lines.append(f"Verdict: **breaks** in {len(broken)} of {len(g)} categories: " + "; ".join(pairs) + ".")
        if not exact and int(g["undecided"].sum()):
            lines.append(f"({int(g['undecided'].sum())} pairs of categories are undecided: their intervals overlap.)")
        lines.append("")
    return "\n".join(lines)
