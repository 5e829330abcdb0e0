"""Provenance of every table: the rule that wrote it, the configuration that decided it, the
seeds it depends on, and the units of its columns.

Every Parquet file of the pipeline carries, in its ``poker51.*`` key-value metadata
(:func:`poker51.io.write_parquet`), the dictionary :func:`provenance` returns plus ``units``:

- ``rule`` and ``wildcards``: the Snakemake rule and job that wrote the table;
- ``config``: the rule's parameters, the values of the config that job used (file locations
  left out: a results directory is not configuration);
- ``config_sha256``: SHA-256 of ``{rule, wildcards, config, inputs}``, where ``inputs`` lists,
  in the rule's input order, the ``config_sha256`` of every input table or JSON that carries
  one and the SHA-256 of every YAML config file read (as canonical JSON of its content).  It is
  a Merkle chain: two tables have the same hash exactly when the same configuration decided
  them, all the way up the DAG, and a config key a table does not depend on leaves its hash
  (and its bytes, and Snakemake's rerun decision) alone.  The whole config and its hash are in
  ``receipt.json``;
- ``seeds``: every seed among the rule's parameters (``rule.key``) and those of its inputs;
- ``units``: column -> unit, :data:`JBITS` for every value in jbits per hand.

>>> a = provenance("census", {}, {"decks": ["standard"]}, [])
>>> a["rule"], a["config"], a["seeds"], len(a["config_sha256"])
('census', {'decks': ['standard']}, {}, 64)
>>> b = provenance("evidence", {"variant": "wild"}, {"hands": 10, "seed": 7, "log": "results/x.log"}, [])
>>> b["config"], b["seeds"]
({'hands': 10, 'seed': 7}, {'evidence.seed': 7})
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from poker51.io import TableError, canonical_json, read_metadata

#: the unit of every value Riemann wins or loses
JBITS = "jbits per hand (Riemann's, + = Riemann wins)"
PROBABILITY = "probability"
HANDS = "five-card hands (exact count)"
STRENGTH = "strength code: category << 20 | kickers (poker51.hands.evaluate)"


def _is_location(value: Any) -> bool:
    return isinstance(value, str) and "/" in value


def _seeds(config: Mapping[str, Any], prefix: str) -> Iterator[tuple[str, Any]]:
    for key, value in config.items():
        if isinstance(value, Mapping):
            yield from _seeds(value, f"{prefix}.{key}")
        elif "seed" in str(key):
            yield f"{prefix}.{key}", value


def input_provenance(path: str | Path) -> dict[str, Any] | None:
    """``{"config_sha256", "seeds"}`` of an input file, or None for a file that carries none
    (arrays, wall-clock timings: their sibling table or summary carries it)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        meta = read_metadata(path)
        meta = meta.get("provenance", meta)  # exported strategy tables nest it
    elif suffix == ".json":
        try:
            obj = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise TableError(f"{path}: not readable JSON ({exc})") from None
        meta = obj.get("provenance", {}) if isinstance(obj, dict) else {}
    elif suffix in (".yaml", ".yml"):
        import yaml  # only the pipeline reads config files

        try:
            content = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise TableError(f"{path}: not a readable YAML file ({exc})") from None
        return {"config_sha256": hashlib.sha256(canonical_json(content).encode()).hexdigest(), "seeds": {}}
    else:
        return None
    if not isinstance(meta, dict) or "config_sha256" not in meta:
        return None
    return {"config_sha256": meta["config_sha256"], "seeds": dict(meta.get("seeds", {}))}


def provenance(
    rule: str, wildcards: Mapping[str, Any], params: Mapping[str, Any], inputs: Sequence[str | Path]
) -> dict[str, Any]:
    """``{"rule", "wildcards", "config", "config_sha256", "seeds"}`` of one job (module docstring).

    ``params`` are the rule's parameters as Snakemake passes them; ``inputs`` its input files in
    rule order.  Deterministic: the same job on the same inputs gives the same dictionary,
    whatever the results directory is.
    """
    config = {str(k): v for k, v in params.items() if not _is_location(v)}
    seeds: dict[str, Any] = {}
    upstream = []
    for path in inputs:
        prov = input_provenance(path)
        if prov is None:
            continue
        upstream.append(prov["config_sha256"])
        seeds.update(prov["seeds"])
    seeds.update(_seeds(config, rule))
    wild = {str(k): v for k, v in wildcards.items()}
    chain = {"rule": rule, "wildcards": wild, "config": config, "inputs": upstream}
    return {
        "rule": rule,
        "wildcards": wild,
        "config": config,
        "config_sha256": hashlib.sha256(canonical_json(chain).encode()).hexdigest(),
        "seeds": dict(sorted(seeds.items())),
    }


def table_metadata(prov: Mapping[str, Any] | None, units: Mapping[str, str], **extra: Any) -> dict[str, Any]:
    """The key-value metadata of one table: ``extra`` (for example the variant), the job's
    :func:`provenance` and the ``units`` of its columns."""
    return {**extra, **(prov or {}), "units": dict(units)}


def units_for(columns: Sequence[str], unit: str, exclude: Sequence[str] = ()) -> dict[str, str]:
    """``{column: unit}`` for the ``columns`` not in ``exclude``.

    >>> units_for(["variant", "mean", "ci_low"], "jbits", exclude=["variant"])
    {'mean': 'jbits', 'ci_low': 'jbits'}
    """
    return {c: unit for c in columns if c not in exclude}
