"""The workflow's configuration: validation before any rule runs, the computed config and its
hash, the SLURM profile's checks.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from poker51.errors import ConfigError, InputError
from poker51.games.population import load_population
from poker51.io import canonical_json
from poker51.policies.holdout import load_holdout
from poker51.slurm import ClusterJob, check_submission
from poker51.validation import config_origin, validate

#: config keys that shape no output: where the results go, and the solves' checkpoint
#: housekeeping (a resumed solve equals a fresh one).  They are left out of the config hash
#: and the receipt, and no rule has them as params, so changing one reruns nothing.
HOUSEKEEPING: tuple[tuple[str, ...], ...] = (
    ("results",), ("solve", "keep_checkpoints"), ("solve", "checkpoint_every"), ("solve", "threads")
)  # fmt: skip


def computed_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """``config`` without the :data:`HOUSEKEEPING` keys, maps sorted by key (a copy): the config
    that decides the computation, as the receipt records it.  Sorted, so that a rule param
    holding it does not change (and rerun the rule) when a config file's keys are reordered.

    >>> computed_config({"solve": {"p": 0.5, "keep_checkpoints": True}, "results": "r", "census": {}})
    {'census': {}, 'solve': {'p': 0.5}}
    """

    def tidy(node: Any, path: tuple[str, ...]) -> Any:
        if isinstance(node, Mapping):
            return {k: tidy(node[k], (*path, k)) for k in sorted(node) if (*path, k) not in HOUSEKEEPING}
        return copy.deepcopy(node)

    return tidy(config, ())


def config_hash(config: Mapping[str, Any]) -> str:
    """SHA-256 of :func:`computed_config`: the config that decides the computation (the output
    directory and checkpoint housekeeping do not)."""
    return hashlib.sha256(canonical_json(computed_config(config)).encode()).hexdigest()


def validate_config(
    config: dict[str, Any], schema: str | Path, files: Sequence[str | Path], overrides: Mapping[str, Any]
) -> None:
    """Check the workflow's ``config`` against ``schema`` (defaults filled in place), its
    population file against the population schema and its hold-out types file
    (:func:`poker51.policies.holdout.load_holdout`), and that ``lbr.max_tries`` is at least
    ``lbr.particles``, before any rule runs.

    ``files``: the config files in the order Snakemake merged them (lowest precedence first);
    ``overrides``: the ``--config`` values.  Raises :class:`~poker51.errors.ConfigError`, one
    line naming the file and the key (``config/smoke.yaml: solve.iterations: expected integer,
    got 'many'``).
    """
    origin = config_origin(files, overrides)
    validate(config, schema, "config", origin=origin)
    load_population(config["population"])
    if config.get("holdout"):
        load_holdout(config["holdout"])
    lbr = config["lbr"]
    if lbr["max_tries"] < lbr["particles"]:
        where = origin(["lbr", "max_tries"])
        raise ConfigError(f"{where}: lbr.max_tries: {lbr['max_tries']} is below lbr.particles ({lbr['particles']})")


def check_slurm(jobs: Sequence[tuple[str, Any, Any]], status_command: str | None) -> str | None:
    """Before a SLURM run submits anything (the workflow's ``onstart``): every cluster job's
    ``(rule, slurm_partition, slurm_account)`` and the plugin's status command, checked against
    the cluster by :func:`poker51.slurm.check_submission`.  Returns ``None`` when the run can
    go ahead, else the one-line problem (the workflow prints it and exits 2)."""
    text = [(rule, str(p) if p else None, str(a) if a else None) for rule, p, a in jobs]
    try:
        check_submission([ClusterJob(*job) for job in text], status_command)
    except InputError as exc:
        return str(exc)
    return None
