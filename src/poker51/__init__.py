"""poker51: a research compute pipeline for Poker 51.

Heads-up five-card draw on the 51-card deck against the published dealer policy
Riemann.  The package recomputes, from its config and seeds, what the game's rule
card claims: the census of every deck, the abstraction, the CFR+ solves, the scores
and the exported strategy tables.  See ``docs/`` and the project README.

A finished run's tables, typed: ``poker51.load_results("results")`` (:mod:`poker51.results`),
imported on first use so that ``import poker51.<module>`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from poker51.results import Results, VariantResults, load_results

_LAZY = ("Results", "VariantResults", "load_results")


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from poker51 import results

        return getattr(results, name)
    raise AttributeError(f"module 'poker51' has no attribute {name!r}")


__all__ = ["Results", "VariantResults", "__version__", "load_results"]
