"""Every figure: drawn at a paper column width with readable fonts, written byte-identically,
and saying what the issue asked of it (poker51.figures)."""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest
from helpers import random_policy, small_abstraction
from matplotlib.image import AxesImage
from matplotlib.text import Text

from poker51 import figures
from poker51.census.count import census, counts_frame
from poker51.census.decks import named_deck
from poker51.figures.solves import P_CMAP
from poker51.figures.strategy import strategy_matrix
from poker51.figures.style import MIN_FONT
from poker51.games.abstract import build_game
from poker51.study.summary import SPOTS, strategy_summary

P = np.round(np.arange(0, 1.01, 0.1), 1)
VARIANTS = ("standard", "wild", "bug")


def _convergence() -> pd.DataFrame:
    rows = [
        {"variant": v, "p": p, "iteration": it, "exploitability": (1 + k) / it, "seconds": it * 0.01}
        for k, v in enumerate(VARIANTS)
        for p in P
        for it in (10, 20, 40, 80)
    ]
    return pd.DataFrame(rows)


def _scores() -> pd.DataFrame:
    rows = []
    for k, v in enumerate(VARIANTS):
        for p in P:
            table = "nash" if p == 0 else ("rnr" if p == 0.5 else "sweep")
            rows.append({"variant": v, "table": table, "p": p, "value_low": 0.01 * k, "guarantee": -p**3,
                         "vs_population": 0.6 + p + 0.01 * k})  # fmt: skip
        rows.append({"variant": v, "table": "v0.5", "p": np.nan, "value_low": 0.01 * k, "guarantee": -3.0,
                     "vs_population": 0.55})  # fmt: skip
    return pd.DataFrame(rows)


def _evidence() -> pd.DataFrame:
    rows = [
        {"variant": v, "type": t, "policy": pol, "hands": 100, "mean": m, "ci_low": m - 0.2, "ci_high": m + 0.2}
        for v in VARIANTS[:2]
        for t in ("calling_station", "rock")
        for pol, m in (("v0.6", 0.5), ("v0.5", 0.3), ("v0.6-v0.5", 0.2))
    ]
    return pd.DataFrame(rows)


def _abstraction() -> tuple[dict, dict, dict]:
    classes, buckets, transitions = {}, {}, {}
    names = ["no_pair_ace_high", "pair_7", "pair_7+I/d3", "three_of_a_kind/d2"]
    for v in VARIANTS[:2]:
        classes[v] = pd.DataFrame({"class": range(4), "name": names, "probability": [0.5, 0.3, 0.1, 0.1]})
        tops = np.array([0] * 10 + [1] * 20 + [2] * 5 + [3] * 3 + [4, 8])
        buckets[v] = pd.DataFrame({"bucket": range(40), "low": tops << 20, "high": tops << 20})
        m = np.random.default_rng(1).random((4, 40)) * (np.random.default_rng(2).random((4, 40)) > 0.5)
        m /= m.sum(axis=1, keepdims=True)
        c, b = np.nonzero(m)
        transitions[v] = pd.DataFrame({"drawer": "riemann", "class": c, "bucket": b, "probability": m[c, b]})
    return classes, buckets, transitions


def _comparison() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Checks of three algorithms x three runs per variant; pcfr+'s cold run misses the target."""
    rows, timing = [], []
    for v in VARIANTS:
        for k, a in enumerate(("cfr+", "dcfr", "pcfr+")):
            for run in ("nash", "cold", "warm"):
                for it in (10, 20, 40, 80):
                    e = (1 + k) * (0.5 if run == "warm" else 1.0) / it
                    if a == "pcfr+" and run == "cold":
                        e += 0.1
                    p = 0.0 if run == "nash" else 0.1
                    rows.append({"variant": v, "algorithm": a, "run": run, "p": p, "iteration": it,
                                 "exploitability": e, "reached": e <= 0.04, "target": 0.04})  # fmt: skip
                    timing.append({"variant": v, "algorithm": a, "run": run, "iteration": it, "seconds": it * 0.1})
    return pd.DataFrame(rows), pd.DataFrame(timing)


def _abstraction_size() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Study rows of four bucket counts (real-card results with intervals) and their timings
    (seconds per iteration growing as private states ** 1.5)."""
    b = np.array([10, 20, 40, 80])
    m = np.array([1.2, 1.4, 1.5, 1.5])
    df = pd.DataFrame({"buckets": b, "p": 0.5, "value_low": -0.01 * b / 80, "value_high": 0.02 + 0 * b,
                       "nash_guarantee": -0.01 * b / 80, "rnr_guarantee": -0.05 + 0 * b, "rnr_vs_population": 1.4,
                       "pop_hands": 400, "pop_mean": m, "pop_ci_low": m - 0.2, "pop_ci_high": m + 0.2,
                       "holdout_mean": m - 0.4, "holdout_ci_low": m - 0.6, "holdout_ci_high": m - 0.2,
                       "lbr_hands": 1000, "lbr_win": -0.1 * m, "lbr_win_ci_low": -0.1 * m - 0.1,
                       "lbr_win_ci_high": -0.1 * m + 0.1})  # fmt: skip
    states = b + 19
    timing = pd.DataFrame({"buckets": b, "private_states": states, "nash_cpu_seconds_per_iteration": 1e-4 * states**1.5,
                           "rnr_cpu_seconds_per_iteration": 2e-4 * states**1.5,
                           "nash_seconds_per_iteration": 3e-4 * states, "rnr_seconds_per_iteration": 3e-4 * states,
                           "peak_solve_mb": 2.0 * states,
                           "peak_rss_mb": 900 + 2.0 * states})  # fmt: skip
    return df, timing


def _realcard_br() -> pd.DataFrame:
    p = np.array([0.0, 0.5, 1.0])
    rows = [(v, t, q) for v in ("standard", "wild") for t, q in zip(("nash", "rnr", "sweep"), p)]
    df = pd.DataFrame(rows, columns=["variant", "table", "p"])
    return df.assign(v_abstract=0.03 + df["p"] ** 2, v_ind=0.07 + 1.2 * df["p"] ** 2,
                     v_ind_abstract_human=0.03 + 1.1 * df["p"] ** 2)  # fmt: skip


@pytest.fixture(scope="module")
def tiny_summary() -> pd.DataFrame:
    game = build_game(small_abstraction())
    return strategy_summary(game, random_policy(game, seed=5))


@pytest.fixture(scope="module")
def drawings(tiny_summary):
    """(name, draw function, fig_ function and its table arguments) of every figure."""
    counts = counts_frame([census(named_deck(d)) for d in ("full52", "standard", "wild")])
    classes, buckets, transitions = _abstraction()
    names = ["no_pair_ace_high", "pair_7", "two_pair"]
    return {
        "census": (figures.draw_census_frequencies, figures.fig_census_frequencies, (counts,)),
        "classes_buckets": (figures.draw_classes_buckets, figures.fig_classes_buckets, (classes, buckets, transitions)),
        "convergence": (figures.draw_convergence, figures.fig_convergence, (_convergence(),)),
        "frontier": (figures.draw_frontier, figures.fig_frontier, (_scores(),)),
        "strategy": (figures.draw_strategy, figures.fig_strategy, (tiny_summary, names, 4, "tiny")),
        "evidence": (figures.draw_evidence, figures.fig_evidence, (_evidence(),)),
        "solver_comparison": (figures.draw_solver_comparison, figures.fig_solver_comparison, _comparison()),
        "realcard_br": (figures.draw_realcard_br, figures.fig_realcard_br, (_realcard_br(),)),
        "abstraction_size": (figures.draw_abstraction_size, figures.fig_abstraction_size, _abstraction_size()[:1]),
        "abstraction_size_cost": (
            figures.draw_abstraction_size_cost,
            figures.fig_abstraction_size_cost,
            _abstraction_size()[1:],
        ),
    }


def test_paper_widths_and_readable_fonts(drawings):
    for name, (draw, _, args) in drawings.items():
        fig = draw(*args)
        width = fig.get_figwidth()
        assert width in (figures.SINGLE, figures.DOUBLE), (name, width)
        fig.canvas.draw()  # ticks are made at draw time
        small = [(t.get_text(), t.get_fontsize()) for t in fig.findobj(Text) if t.get_visible() and t.get_text()]
        assert small and all(size >= MIN_FONT for _, size in small), (name, [s for s in small if s[1] < MIN_FONT])


@pytest.mark.slow
def test_files_are_byte_identical(drawings, tmp_path):
    # the census, removal and evidence figures are checked the same way in tests/census, tests/play
    for name, (_, write, args) in drawings.items():
        if name in ("census", "evidence"):
            continue
        a = write(*args, tmp_path / "a" / name)
        b = write(*args, tmp_path / "b" / name)
        for pa, pb in zip(a, b, strict=True):
            assert pa.read_bytes() == pb.read_bytes(), pa


def test_convergence_has_a_panel_per_variant_and_colours_by_p():
    conv = _convergence()
    fig = figures.draw_convergence(conv)
    panels = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    assert len(panels) == len(VARIANTS) and len(fig.axes) == len(VARIANTS) + 1  # one colour bar
    cmap = matplotlib.colormaps[P_CMAP]
    for ax in panels:
        assert ax.get_legend() is None  # nothing covers the data
        colours = [tuple(line.get_color()) for line in ax.get_lines()]
        assert colours == [cmap(p) for p in P]  # one line per p, coloured by p on [0, 1]


def test_frontier_puts_no_text_on_the_data():
    fig = figures.draw_frontier(_scores())
    ax = fig.axes[0]
    assert len(ax.texts) == 0 and ax.get_legend() is None  # the legend is below the axes, off the data
    assert len(fig.legends) == 1
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels == [*sorted(VARIANTS), "published table", "v0.5 policy"]


def test_strategy_masks_impossible_actions(tiny_summary):
    n = int(tiny_summary["state"].max()) + 1
    for street in (0, 1):
        agg, agg_impossible = strategy_matrix(tiny_summary, street, "aggressive", n)
        fold, fold_impossible = strategy_matrix(tiny_summary, street, "fold", n)
        raise_cols = [SPOTS.index("reraised"), SPOTS.index("raised")]
        check_col = SPOTS.index("checked")
        assert agg_impossible.any(axis=0).nonzero()[0].tolist() == raise_cols
        assert fold_impossible.any(axis=0).nonzero()[0].tolist() == [check_col]
        # every reached cell of an offered action holds a probability, never a masked 0
        offered = ~np.isnan(agg)
        assert (agg[offered] > 0).all() and not (agg_impossible & offered).any()
        assert np.isnan(fold[:, check_col]).all()
    fig = figures.draw_strategy(tiny_summary, ["a", "b", "c"], 4, "tiny")
    grey_layers = [im for ax in fig.axes for im in ax.get_images() if isinstance(im, AxesImage)]
    assert len(grey_layers) == 8  # four heat maps, each with its grey layer of impossible cells


def test_solver_comparison_shows_every_run_and_the_missed_target():
    df, timing = _comparison()
    fig = figures.draw_solver_comparison(df, timing)
    top = [ax for ax in fig.axes if ax.get_yscale() == "log"]
    assert [ax.get_title() for ax in top] == sorted(VARIANTS)
    assert all(len(ax.get_lines()) == 9 + 1 for ax in top)  # 3 algorithms x 3 runs, and the target
    bottom = [ax for ax in fig.axes if ax.get_yscale() == "linear"]
    bars = [b for ax in bottom for b in ax.patches]
    assert len(bars) == 3 * 9
    hatched = [b for b in bars if b.get_hatch()]
    assert len(hatched) == 3  # pcfr+ cold, once per variant: its whole time, at its last check
    assert all(b.get_height() == pytest.approx(8.0) for b in hatched)
    labels = {t.get_text() for ax in bottom for t in ax.texts}
    assert {"20", "40", "80"} <= labels  # iterations at the first check under the target


def test_abstraction_size_shows_the_bracket_and_three_real_card_series_with_their_intervals():
    df, timing = _abstraction_size()
    fig = figures.draw_abstraction_size(df)
    left, middle, right = fig.axes
    for ax in fig.axes:
        assert [t.get_text() for t in ax.get_xticklabels()] == ["10", "20", "40", "80"]
    assert len(left.collections) == 1  # the shaded bracket
    lines = {line.get_label(): line for line in left.get_lines()}
    assert np.allclose(lines["p = 0.5 table's guarantee"].get_ydata(), -0.05)
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels == ["vs population, abstract game", "vs population", "vs hold-out types"]
    pop, holdout = middle.containers  # errorbar containers: data line, caps, bars
    assert np.allclose(pop.lines[0].get_ydata(), df["pop_mean"])
    assert np.allclose([seg[:, 1].min() for seg in holdout.lines[2][0].get_segments()], df["holdout_ci_low"])
    (lbr,) = right.containers
    assert np.allclose(lbr.lines[0].get_ydata(), 0.1 * df["pop_mean"])  # Riemann's side: minus what LBR wins
    bars = lbr.lines[2][0].get_segments()
    assert np.allclose([seg[:, 1].min() for seg in bars], 0.1 * df["pop_mean"] - 0.1)
    assert np.allclose([seg[:, 1].max() for seg in bars], 0.1 * df["pop_mean"] + 0.1)
    # with the realcard_br stage's columns: a fourth panel, V_A and V_ind against the bucket count
    ind = df.assign(v_abstract=0.03, v_ind=np.linspace(0.09, 0.06, len(df)), v_ind_abstract_human=np.nan)
    four = figures.draw_abstraction_size(ind)
    assert len(four.axes) == 4 and np.allclose(four.axes[3].get_lines()[1].get_ydata(), ind["v_ind"])
    cost = figures.draw_abstraction_size_cost(timing)
    legend = [t.get_text() for t in cost.axes[0].get_legend().get_texts()]
    assert legend == ["Nash: exponent 1.50", "p table: exponent 1.50"]


# --------------------------------------------------------------------------- at print size (issue 29)
def _box(artist, fig):
    return artist.get_window_extent(fig.canvas.get_renderer())


def test_classes_buckets_title_clears_the_category_names_and_the_colourbar_is_attached():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = figures.draw_classes_buckets(*_abstraction())
    FigureCanvasAgg(fig)
    fig.draw_without_rendering()
    bars = [ax for ax in fig.axes if ax.get_title(loc="left").endswith("classes")]
    heats = [ax for ax in fig.axes if ax.get_xlabel().startswith("final bucket")]
    (bar,) = [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]
    assert len(bars) == len(heats) == 2
    for b, h in zip(bars, heats, strict=True):
        (title_text,) = [t for t in b.findobj(Text) if t.get_text().endswith("classes")]
        title = _box(title_text, fig)
        names = [_box(t, fig) for sec in h.child_axes for t in sec.get_xticklabels() if t.get_text()]
        assert names and all(title.y0 >= n.y1 - 1 or title.x1 <= n.x0 for n in names)
    last = heats[-1].get_position()
    cb = bar.get_position()
    assert cb.y1 < last.y0 and last.x0 - 0.01 <= cb.x0 < cb.x1 <= last.x1 + 0.01  # under its panel, no wider
    assert min(t.get_fontsize() for b in bars for t in b.get_yticklabels()) >= 6.5


def test_solver_comparison_log_ticks_are_plain_numbers():
    fig = figures.draw_solver_comparison(*_comparison())
    top = fig.axes[0]
    for axis in (top.xaxis, top.yaxis):
        for formatter in (axis.get_major_formatter(), axis.get_minor_formatter()):
            formatter.set_locs([])
    fmt = top.xaxis.get_major_formatter()
    assert fmt(100.0) == "100" and fmt(0.01) == "0.01"
    assert "10^" not in top.yaxis.get_minor_formatter()(0.03) and "e" not in top.yaxis.get_minor_formatter()(0.03)


def test_every_five_seat_panel_has_the_same_seat_axis():
    rows = [(2, 1, "mixed"), (5, 1, "mixed"), (5, 2, "mixed"), (5, 2, "regular")]
    df = pd.DataFrame(rows, columns=["seats", "riemanns", "opponents"]).assign(
        riemann_abits=0.1, riemann_abits_lo=-0.2, riemann_abits_hi=0.4
    )
    fig = figures.draw_multi(df)
    for ax in fig.axes:
        assert list(ax.get_xticks()) == [2, 3, 4, 5] and ax.get_xlim() == (1.5, 5.5)


def test_removal_colourbar_reads_plain_percentages():
    from poker51.census.removal import removal_table

    fig = figures.draw_removal(removal_table())
    (bar,) = [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]
    labels = [t.get_text() for t in bar.get_yticklabels()]
    assert "0" in labels and all(s == "0" or s[0] in "+-" and "10" not in s[1:3] for s in labels), labels


def test_realcard_br_has_a_panel_per_variant_with_three_series_and_the_published_p():
    fig = figures.draw_realcard_br(_realcard_br())
    axes = [ax for ax in fig.axes if ax.get_title()]
    assert [ax.get_title() for ax in axes] == ["standard: 3 tables", "wild: 3 tables"]
    for ax in axes:
        series = [line for line in ax.get_lines() if len(line.get_xdata()) == 3]
        assert len(series) == 3
        assert any(list(line.get_xdata()) == [0.5, 0.5] for line in ax.get_lines())  # the published table's p
