"""Every figure of the pipeline, drawn from the tables the stages wrote (never recomputed).

Each figure has two functions: ``draw_xxx(tables...) -> Figure`` builds it (a notebook shows
the returned figure inline), and ``fig_xxx(tables..., out_stem) -> list[Path]`` writes
``out_stem.pdf`` and ``out_stem.png`` with fixed metadata, so the same table gives the same
bytes on every run.  House style (paper column widths, fonts, labels): :mod:`.style`.

=====================  =====================================  ==========================
figure                 module                                 width
=====================  =====================================  ==========================
census frequencies     :mod:`.census`                         7 in (two columns)
one-card removal       :mod:`.census`                         7 in
classes and buckets    :mod:`.abstraction`                    7 in
abstraction size       :mod:`.abstraction_size`               7 in
convergence            :mod:`.solves`                         7 in
RNR frontier           :mod:`.solves`                         3.3 in (one column)
strategy heat maps     :mod:`.strategy`                       7 in
evidence               :mod:`.evidence`                       7 in
real-card best resp.   :mod:`.realcard_br`                    7 in
five-seat tables       :mod:`.multi`                          3.3 in per panel
solver comparison      :mod:`.comparison`                     7 in
rule book census       :mod:`.rulebook`                       7 in
=====================  =====================================  ==========================
"""

from poker51.figures.abstraction import draw_classes_buckets, fig_classes_buckets
from poker51.figures.abstraction_size import (
    draw_abstraction_size,
    draw_abstraction_size_cost,
    fig_abstraction_size,
    fig_abstraction_size_cost,
)
from poker51.figures.census import draw_census_frequencies, draw_removal, fig_census_frequencies, fig_removal_heatmap
from poker51.figures.comparison import draw_solver_comparison, fig_solver_comparison
from poker51.figures.evidence import draw_evidence, fig_evidence
from poker51.figures.multi import draw_multi, fig_multi
from poker51.figures.realcard_br import draw_realcard_br, fig_realcard_br
from poker51.figures.rulebook import draw_rulebook_census, fig_rulebook_census
from poker51.figures.solves import draw_convergence, draw_frontier, fig_convergence, fig_frontier
from poker51.figures.strategy import draw_strategy, fig_strategy
from poker51.figures.style import DOUBLE, SINGLE, save

__all__ = [
    "DOUBLE", "SINGLE", "draw_abstraction_size", "draw_abstraction_size_cost", "draw_census_frequencies",
    "draw_classes_buckets", "draw_convergence", "draw_evidence", "draw_frontier", "draw_multi", "draw_realcard_br",
    "draw_removal", "draw_rulebook_census", "draw_solver_comparison", "draw_strategy", "fig_abstraction_size",
    "fig_abstraction_size_cost", "fig_census_frequencies", "fig_classes_buckets", "fig_convergence", "fig_evidence",
    "fig_frontier", "fig_multi", "fig_realcard_br", "fig_removal_heatmap", "fig_rulebook_census",
    "fig_solver_comparison", "fig_strategy", "save",
]  # fmt: skip
