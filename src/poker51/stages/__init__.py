"""Stage functions: what the thin Snakemake scripts (``workflow/scripts``) call, and nothing else.

Each takes plain paths and parameters (what ``snakemake.input``/``params`` hold), calls the
package and writes its outputs, so the workflow holds no logic and every stage can also be
run from Python.  The workflow imports only this package (and :mod:`poker51.rules` for names).

One module per stage, named after its rules file (``solve`` for ``workflow/rules/solve.smk``),
and ``from poker51.stages import run_solve`` imports that module alone: a pipeline run starts
about 60 Python processes, and a solve job has no use for the real-card engine, the rule book
or the LBR kernels (docs/design-choices.md, "A job imports what it uses").  The names below
are resolved on first use (PEP 562).
"""

from __future__ import annotations

import importlib
from typing import Any

#: where each public name lives: a module of this package, or (for the three helpers every
#: script takes from here) a foundation module
_HOME: dict[str, str] = {
    **dict.fromkeys(["Provenance", "gather", "game_cache_dir"], "poker51.stages.common"),
    **dict.fromkeys(
        ["HOUSEKEEPING", "computed_config", "config_hash", "validate_config", "check_slurm"], "poker51.stages.config"
    ),
    **dict.fromkeys(["run_census", "run_removal", "census_figure", "removal_figure"], "poker51.stages.census"),
    **dict.fromkeys(["run_abstraction", "abstraction_figure"], "poker51.stages.abstraction"),
    **dict.fromkeys(["game_and_types", "run_solve"], "poker51.stages.solve"),
    **dict.fromkeys(
        ["run_solver_comparison", "gather_solver_comparison", "solver_comparison_figure"],
        "poker51.stages.solver_comparison",
    ),
    **dict.fromkeys(
        ["run_abstraction_size", "gather_abstraction_size", "abstraction_size_figure", "abstraction_size_cost_figure"],
        "poker51.stages.abstraction_study",
    ),
    **dict.fromkeys(
        [
            "run_scores",
            "gather_scores",
            "LBR_TABLE",
            "LBR_COLUMN_UNITS",
            "add_lbr_columns",
            "BR_COLUMNS",
            "BR_COLUMN_UNITS",
            "add_br_columns",
            "score_figures",
            "convergence_time_figure",
            "strategy_figure",
        ],
        "poker51.stages.scores",
    ),  # fmt: skip
    **dict.fromkeys(["run_export", "run_receipt", "headline_tables"], "poker51.stages.export"),
    **dict.fromkeys(["run_evidence", "gather_evidence"], "poker51.stages.evidence"),
    "run_verify": "poker51.stages.verify",
    "run_verify_hands": "poker51.stages.verify",
    **dict.fromkeys(["run_lbr", "gather_lbr", "run_belief_spots", "run_belief_claims"], "poker51.stages.realcards"),
    **dict.fromkeys(
        ["run_realcard_riemann", "run_realcard_br", "gather_realcard_br", "realcard_br_figure"],
        "poker51.stages.realcard_br",
    ),
    **dict.fromkeys(
        ["run_realcard_bounds", "gather_realcard_bounds", "add_bounds_columns", "best_bounds"],
        "poker51.stages.realcard_bounds",
    ),
    **dict.fromkeys(["run_realcard_types", "gather_realcard_types"], "poker51.stages.realcard_types"),
    **dict.fromkeys(["run_multi", "multi_figure"], "poker51.stages.multi"),
    "rulebook_figure": "poker51.stages.rulebook",
    "run_rulebook_census": "poker51.rulebook.stage",
    "logged": "poker51.log",
    "provenance": "poker51.provenance",
    "ConfigError": "poker51.errors",
}


def __getattr__(name: str) -> Any:
    """Import the module that holds ``name`` on first use (PEP 562) and keep the name here."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'poker51.stages' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))


__all__ = sorted(_HOME)
