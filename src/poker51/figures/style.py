"""The house style of every figure: paper column widths, fonts, fixed metadata, readable labels.

Widths follow a two-column paper: :data:`SINGLE` (3.3 in, one column) and :data:`DOUBLE`
(7 in, the page).  Fonts are 8 pt (titles 8.5 pt, tick labels 7 pt, never below 6 pt), so a
figure printed at its own width is read without zooming.

Figures are built as :class:`matplotlib.figure.Figure` objects, never through ``pyplot``: the
package sets no backend, so a notebook shows them inline while :func:`save` writes the PDF
(pdf backend) and the PNG (Agg) of the same figure.  :data:`PDF_METADATA` and
:data:`PNG_METADATA` leave out creation dates and software versions, so the same table gives
the same bytes on every run.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import matplotlib as mpl
from matplotlib.figure import Figure

#: one column of a two-column paper, and the full text width (inches)
SINGLE, DOUBLE = 3.3, 7.0
#: metadata that keeps the files byte-reproducible
PDF_METADATA: dict[str, Any] = {"CreationDate": None, "Producer": None, "Creator": None}
PNG_METADATA: dict[str, Any] = {"Software": None}
DPI = 200
#: the smallest font any figure uses (pt)
MIN_FONT = 6.0
STYLE: Any = {  # matplotlib types the rc keys as literals
    "font.family": "DejaVu Sans",  # shipped with matplotlib: the same glyphs on every machine
    "font.size": 8,
    "axes.titlesize": 8.5,
    "axes.labelsize": 8,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "legend.fontsize": 7,
    "figure.titlesize": 9,
    "axes.linewidth": 0.6,
    "xtick.major.width": 0.6,
    "ytick.major.width": 0.6,
    "lines.linewidth": 1.0,
    "svg.hashsalt": "poker51",
    "pdf.compression": 6,
    "pdf.fonttype": 42,  # TrueType: text stays text in the PDF
}


@contextmanager
def style() -> Iterator[None]:
    """The rc settings above, for the creation and the saving of one figure."""
    with mpl.rc_context(STYLE):
        yield


def new_figure(width: float, height: float) -> Figure:
    """A figure of ``width`` x ``height`` inches with constrained layout (no pyplot)."""
    return Figure(figsize=(width, height), layout="constrained")


def save(fig: Figure, out_stem: str | Path) -> list[Path]:
    """Write ``out_stem.pdf`` and ``out_stem.png`` with fixed metadata; returns both paths."""
    out_stem = Path(out_stem)
    out_stem.parent.mkdir(parents=True, exist_ok=True)
    pdf, png = out_stem.with_name(out_stem.name + ".pdf"), out_stem.with_name(out_stem.name + ".png")
    with style():
        fig.savefig(pdf, metadata=PDF_METADATA)
        fig.savefig(png, metadata=PNG_METADATA, dpi=DPI)
    return [pdf, png]


# --------------------------------------------------------------------------- labels
_CATEGORY_LABELS = {
    "high_card": "high card",
    "one_pair": "one pair",
    "two_pair": "two pair",
    "three_of_a_kind": "three of a kind",
    "straight": "straight",
    "flush": "flush",
    "full_house": "full house",
    "four_of_a_kind": "four of a kind",
    "straight_flush": "straight flush",
    "five_of_a_kind": "five of a kind",
}
_RANKS = {"T": "10s", "J": "jacks", "Q": "queens", "K": "kings", "A": "aces"}
_BASE_LABELS = {
    "no_pair_king_high_or_lower": "no pair, K high or less",
    "no_pair_ace_high": "no pair, A high",
    "four_to_an_open_ended_straight": "4 to an open straight",
    "four_to_a_flush": "4 to a flush",
    "pair_2_to_6": "pair of 2s to 6s",
    "two_pair": "two pair",
    "three_of_a_kind": "three of a kind",
    "straight": "straight",
    "flush": "flush",
    "full_house": "full house",
    "four_of_a_kind_or_better": "four of a kind or better",
}


def category_label(name: str) -> str:
    """A hand category in words.

    >>> category_label("three_of_a_kind")
    'three of a kind'
    """
    return _CATEGORY_LABELS.get(name, name.replace("_", " "))


def class_label(name: str) -> str:
    """A dealt-hand class name (``poker51.abstraction.classes``) in words: the base class, ``+ I``
    when the hand holds the marker, and the House rule's draw count.

    >>> class_label("pair_Q+I/d3"), class_label("four_to_a_flush/d1"), class_label("pair_7")
    ('pair of queens + I, draws 3', '4 to a flush, draws 1', 'pair of 7s')
    """
    base, _, draw = name.partition("/")
    marker = base.endswith("+I")
    base = base.removesuffix("+I")
    if base in _BASE_LABELS:
        text = _BASE_LABELS[base]
    elif base.startswith("pair_"):
        rank = base.removeprefix("pair_")
        text = f"pair of {_RANKS.get(rank, rank + 's')}"
    else:
        text = base.replace("_", " ")
    if marker:
        text += " + I"
    if draw.startswith("d"):
        text += f", draws {draw[1:]}"
    return text


def type_label(name: str) -> str:
    """A player type's config name in words: ``calling_station`` -> ``calling station``."""
    return name.replace("_", " ")
