"""The rule card's claims about the per-variant belief tables (issue 12, section 5).

Rule card v0.6, "Ⅰ back in play": under v0.4 and v0.5 Riemann played the standard policy
with a belief table rebuilt for each variant (seed 51, the standard table's sample sizes),
and "the rebuild mattered.  With the standard table, about 1 in 22 of its after-draw
decisions would have changed: Wild Ⅰ: 4.5% of 20,000 seeded spots.  Its reads would have
overstated its own hand by 2.4 points on average.  The bug: 4.2% of 20,000 seeded spots,
with almost no overall bias."

**A spot** (a design choice, ``docs/design-choices.md``): one after-draw decision of Riemann
v0.5 in real play.  Hand ``i`` of a variant is the engine's deck ``[seed, i]`` with 100 jbits
each; seat H is the training population's type ``i mod 4`` (:class:`TypePlayer`, seeded
``type_seed(seed, i mod 4)``), seat R v0.5 with the variant's own belief table.  Every time R
decides after the draw (checked to, facing a bet, a re-raise or a raise of its bet) the spot
records R's read and action with its own table and, on the same view, with the standard
table.  The first ``spots`` decisions are kept.  A spot *changes* when the two actions
differ; the read bias is the mean of (standard-table read − own read), in points (× 100).

Verdicts: a stated rate or bias **holds** when it lies inside the 95% interval of the
recomputed one (Wilson interval for a rate, Student t for a mean); "almost no overall bias"
holds when the whole interval lies within ±0.5 points (a fifth of Wild's stated 2.4).  The
study's spots and players are not published, so "differs" says our spots disagree, not that
the card's are wrong.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from poker51.abstraction.tables import AbstractionTables
from poker51.cards import cards_str
from poker51.games.population import Population
from poker51.io import canonical_json
from poker51.play.actions import Action, View
from poker51.play.engine import play_hand
from poker51.policies.types import TypePlayer, type_seed
from poker51.policies.v05 import V05Player
from poker51.realcard.evidence import mean_ci

CLAIM_COLUMNS = ["claim_id", "claim", "computed", "stated", "verdict"]
SPOT_COLUMNS = [
    "variant", "spot", "hand", "type", "cards", "line", "h_draw", "read_own", "read_standard", "action_own",
    "action_standard",
]  # fmt: skip
#: |bias| bound of "almost no overall bias", in points
NO_BIAS_POINTS = 0.5
Z95 = 1.959963984540054

#: the claims, with the numbers the card states (the only place they appear)
STATED: dict[str, dict] = {
    "belief_one_in_22": {
        "claim": "With the standard belief table, about 1 in 22 of v0.5's after-draw decisions in Wild I and "
        "the bug would have changed.",
        "stated": {"rate": 1 / 22},
    },
    "belief_wild_changed": {
        "claim": "Wild I: 4.5% of 20,000 seeded spots would have changed.",
        "stated": {"rate": 0.045, "spots": 20_000},
    },
    "belief_wild_bias": {
        "claim": "Wild I: with the standard table its reads would have overstated its own hand by 2.4 points "
        "on average.",
        "stated": {"bias_points": 2.4},
    },
    "belief_bug_changed": {
        "claim": "The bug: 4.2% of 20,000 seeded spots would have changed.",
        "stated": {"rate": 0.042, "spots": 20_000},
    },
    "belief_bug_bias": {
        "claim": "The bug: with the standard table, almost no overall bias in its reads.",
        "stated": {"bias_points_within": NO_BIAS_POINTS},
    },
}


class _Recorder:
    """Seat R: v0.5 with the variant's table, recording each after-draw decision with both tables."""

    def __init__(self, own: V05Player, standard: V05Player):
        self.own, self.standard = own, standard
        self.rows: list[tuple] = []
        self.hand = -1

    def choose_keep(self, view: View) -> int:
        return self.own.choose_keep(view)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if view.phase == "post":
            names, p_own = self.own.probabilities(view, legal)
            _, p_std = self.standard.probabilities(view, legal)
            line = "-".join(_token(r) for r in view.line if r.round == "post")
            self.rows.append(
                (
                    self.hand,
                    cards_str(sorted(view.cards)),
                    line,
                    int(view.opp_draw_count or 0),
                    self.own.read(view),
                    self.standard.read(view),
                    names[int(np.argmax(p_own))],
                    names[int(np.argmax(p_std))],
                )
            )
        return self.own.act(view, legal)


def _token(r) -> str:
    return "x" if r.kind == "check" else (f"b{r.amount}" if r.kind == "bet" else r.kind[0])


def belief_spots(
    variant: str, tables: AbstractionTables, standard_belief: np.ndarray, population: Population, spots: int, seed: int
) -> pd.DataFrame:
    """The first ``spots`` after-draw decisions of v0.5 (module docstring), :data:`SPOT_COLUMNS`."""
    if int(spots) < 1:
        raise ValueError(f"spots must be at least 1, got {spots}")
    rec = _Recorder(V05Player.from_tables(variant, tables), V05Player(variant, standard_belief))
    n_types = len(population.types)
    humans = [TypePlayer(t, variant, tables, type_seed(seed, i)) for i, t in enumerate(population.types)]
    hand = 0
    while len(rec.rows) < int(spots):
        rec.hand = hand
        human = humans[hand % n_types]
        play_hand(
            {"H": human, "R": rec}, stacks={"H": 100, "R": 100}, variant=variant, base_seed=int(seed), hand_index=hand
        )
        hand += 1
    cols = ["hand", "cards", "line", "h_draw", "read_own", "read_standard", "action_own", "action_standard"]
    df = pd.DataFrame(rec.rows[: int(spots)], columns=cols)
    df["variant"], df["spot"] = variant, np.arange(len(df), dtype=np.int64)
    df["type"] = [population.types[h % n_types].name for h in df["hand"]]
    return df[SPOT_COLUMNS]


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson score 95% interval of a binomial rate ``k / n``.

    >>> [round(x, 4) for x in wilson(90, 2000)]
    [0.0368, 0.055]
    """
    p = k / n
    den = 1 + Z95**2 / n
    mid = (p + Z95**2 / (2 * n)) / den
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / den
    return mid - half, mid + half


def _rate(df: pd.DataFrame) -> dict:
    k, n = int((df["action_own"] != df["action_standard"]).sum()), len(df)
    lo, hi = wilson(k, n)
    return {"spots": n, "changed": k, "rate": k / n, "ci_low": lo, "ci_high": hi, "one_in": n / k if k else None}


def _bias(df: pd.DataFrame) -> dict:
    d = 100.0 * (df["read_standard"].to_numpy() - df["read_own"].to_numpy())
    mean, sd, _, lo, hi = mean_ci(d)
    return {"spots": len(df), "bias_points": mean, "sd": sd, "ci_low": lo, "ci_high": hi}


def belief_claims(spots: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The claims table (:data:`CLAIM_COLUMNS`) from the spots of ``wild`` and ``bug`` (either
    may be missing: its claims then read "not computed")."""
    computed: dict[str, dict] = {}
    for v in ("wild", "bug"):
        if v in spots:
            computed[f"belief_{v}_changed"] = _rate(spots[v])
            computed[f"belief_{v}_bias"] = _bias(spots[v])
    pooled = [spots[v] for v in ("wild", "bug") if v in spots]
    if pooled:
        computed["belief_one_in_22"] = {
            **_rate(pd.concat(pooled)),
            "variants": [v for v in ("wild", "bug") if v in spots],
        }
    rows = []
    for claim_id, spec in STATED.items():
        got = computed.get(claim_id)
        if got is None:
            verdict = "not computed"
        elif "bias_points_within" in spec["stated"]:
            b = spec["stated"]["bias_points_within"]
            verdict = "holds" if -b <= got["ci_low"] and got["ci_high"] <= b else "differs"
        else:
            key = "rate" if "rate" in spec["stated"] else "bias_points"
            verdict = "holds" if got["ci_low"] <= spec["stated"][key] <= got["ci_high"] else "differs"
        rows.append((claim_id, spec["claim"], canonical_json(got or {}), canonical_json(spec["stated"]), verdict))
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS)


def belief_claims_markdown(df: pd.DataFrame, definition: str) -> str:
    """The belief claims as Markdown, with the definition of a spot."""
    lines = ["| claim_id | claim | verdict | stated | computed |", "|---|---|---|---|---|"]
    for r in df.itertuples(index=False):
        lines.append(f"| {r.claim_id} | {r.claim} | **{r.verdict}** | `{r.stated}` | `{r.computed}` |")
    return "# Belief-table claims of the rule card\n\n" + definition + "\n\n" + "\n".join(lines) + "\n"


SPOT_DEFINITION = (
    "A spot is one after-draw decision of Riemann v0.5 (the variant's own belief table) in seeded real-card "
    "play: hand i is the engine's deck [seed, i] at 100 jbits each, seat H the training population's type "
    "i mod 4; at each of R's after-draw decisions the read and action are recomputed with the standard table "
    "on the same view. Rates: Wilson 95% intervals; biases (standard read minus own read, in points): "
    "Student t 95% intervals. A stated value holds when it lies inside the interval; 'almost no bias' holds "
    f"when the interval lies within +/-{NO_BIAS_POINTS} points."
)

__all__ = [
    "CLAIM_COLUMNS", "SPOT_COLUMNS", "SPOT_DEFINITION", "STATED", "belief_claims", "belief_claims_markdown",
    "belief_spots", "wilson",
]  # fmt: skip
