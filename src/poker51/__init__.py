"""poker51: a research compute pipeline for Poker 51.

Heads-up five-card draw on the 51-card deck against the published dealer policy
Riemann.  The package recomputes, from its config and seeds, what the game's rule
card claims: the census of every deck, the abstraction, the CFR+ solves, the scores
and the exported strategy tables.  See ``docs/`` and the project README.
"""

__version__ = "0.1.0"
