"""Config and scenario files checked against their JSON schemas, with one-line errors naming the file and the key.

Both config files go through here: ``config/config.yaml`` (schema
``workflow/schemas/config.schema.yaml``, checked by ``workflow/rules/common.smk`` when the DAG
is built) and ``config/population.yaml`` (schema :data:`POPULATION_SCHEMA`, checked there too
and by :func:`poker51.games.population.load_population`).  :func:`validate` fills each
property's ``default`` into the instance (as ``snakemake.utils.validate`` does) and raises
:class:`~poker51.errors.ConfigError` with one line, ``{file}: {key}: {problem}``, for the most
relevant error (:func:`jsonschema.exceptions.best_match`), not a dump of the sub-schema.
The engines' scenario files go the same way, through :func:`load_scenario` with a schema of
:data:`SCHEMAS` (package data, ``{name}.schema.yaml``, found by :func:`scenario_schema`).

>>> schema = {"type": "object", "additionalProperties": False,
...           "properties": {"softness": {"type": "number", "default": 0}}}
>>> validate({"softnes": 0.1}, schema, "population.yaml")
Traceback (most recent call last):
...
poker51.errors.ConfigError: population.yaml: softnes: unknown key (did you mean 'softness'?; expected: softness)
>>> validate({}, schema, "population.yaml")
{'softness': 0}
"""

from __future__ import annotations

import copy
import difflib
import json
import os
import reprlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from poker51.errors import ConfigError

#: the package's schemas (package data): config files' and the engines' scenario files'
SCHEMAS = Path(__file__).parent / "schemas"
#: the schema of ``config/population.yaml`` (package data: a link to workflow/schemas/)
POPULATION_SCHEMA = SCHEMAS / "population.schema.yaml"

_short = reprlib.Repr()
_short.maxstring = 40
_short.maxother = 40
_short.maxlist = _short.maxdict = 4


def read_text(p: Path, what: str) -> str:
    """The UTF-8 text of the file ``p``; a missing file, a directory or an unreadable file is a
    one-line :class:`ConfigError` naming it as ``what``."""
    try:
        return p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such {what}") from None
    except IsADirectoryError:
        raise ConfigError(f"{p}: is a directory, not a {what}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{p}: cannot read the {what} ({exc})") from None


def load_yaml(path: str | Path, what: str = "config file") -> Any:
    """The YAML document at ``path``; a missing file or bad YAML is a one-line :class:`ConfigError`
    (``{path}: line L, column C: {problem}`` for a syntax error)."""
    p = Path(path)
    text = read_text(p, what)
    try:
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        raise ConfigError(f"{p}: {where}not valid YAML ({exc.problem or exc.context})") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{p}: not valid YAML ({' '.join(str(exc).split())})") from None


def load_schema(schema: str | Path | Mapping[str, Any]) -> dict[str, Any]:
    """A schema given as a mapping or a YAML/JSON file."""
    if isinstance(schema, Mapping):
        return dict(schema)
    return load_yaml(schema, "schema")


def key_path(path: Iterable[Any]) -> str:
    """``types.rock.open.size``, ``census.decks[2]``; ``(top level)`` for the root.

    >>> key_path(["census", "decks", 2])
    'census.decks[2]'
    """
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _validator(schema: Mapping[str, Any]) -> Any:
    """A validator of ``schema``'s draft that fills in ``default`` values of missing properties."""
    import jsonschema

    base = jsonschema.validators.validator_for(schema)
    properties = base.VALIDATORS["properties"]

    def fill_defaults(validator: Any, props: Mapping[str, Any], instance: Any, sch: Any) -> Iterator[Any]:
        if validator.is_type(instance, "object"):
            for key, sub in props.items():
                if isinstance(sub, Mapping) and "default" in sub and key not in instance:
                    instance[key] = copy.deepcopy(sub["default"])
        yield from properties(validator, props, instance, sch)

    base.check_schema(schema)
    return jsonschema.validators.extend(base, {"properties": fill_defaults})(schema)


def _unknown(error: Any) -> tuple[list[Any], str]:
    """(key path, problem) of an ``additionalProperties: false`` error."""
    known = sorted(error.schema.get("properties", {}))
    extra = sorted((str(k) for k in error.instance if k not in known), key=str)
    first = extra[0] if extra else "?"
    close = difflib.get_close_matches(first, known, n=1)
    hint = f"did you mean {close[0]!r}?; " if close else ""
    more = f" (and {len(extra) - 1} more unknown)" if len(extra) > 1 else ""
    return [*error.absolute_path, first], f"unknown key ({hint}expected: {', '.join(known)}){more}"


def describe(error: Any) -> tuple[list[Any], str]:
    """(key path as a list, problem in a few words) of a :class:`jsonschema.ValidationError`."""
    kind, value, inst = error.validator, error.validator_value, error.instance
    where = list(error.absolute_path)
    if kind == "additionalProperties" and value is False:
        return _unknown(error)
    if kind == "required":
        missing = [k for k in value if k not in inst]
        return where, f"missing key {missing[0]!r}" if missing else error.message
    if kind == "type":
        want = " or ".join(value) if isinstance(value, list) else value
        return where, f"expected {want}, got {_short.repr(inst)}"
    if kind == "enum":
        return where, f"{_short.repr(inst)} is not one of {', '.join(map(str, value))}"
    bounds = {
        "minimum": "below the minimum",
        "maximum": "above the maximum",
        "exclusiveMinimum": "not above",
        "exclusiveMaximum": "not below",
    }
    if kind in bounds:
        return where, f"{_short.repr(inst)} is {bounds[kind]} {value}"
    if kind == "propertyNames":
        return where, f"bad key {_short.repr(inst)}"
    return where, " ".join(error.message.split())[:200]


def validate(
    instance: Any,
    schema: str | Path | Mapping[str, Any],
    source: str | Path,
    origin: Any = None,
) -> Any:
    """Fill defaults into ``instance`` and check it against ``schema``; returns ``instance``.

    ``source`` names the file in the error; ``origin(path) -> str``, if given, names the file
    that defines a key path instead (a config merged from several files).  Raises
    :class:`ConfigError`: ``{file}: {key}: {problem}`` (and how many more problems there are).
    """
    from jsonschema.exceptions import best_match

    validator = _validator(load_schema(schema))
    errors = list(validator.iter_errors(instance))
    if not errors:
        return instance
    error = best_match(errors)
    path, problem = describe(error)
    more = f" (and {len(errors) - 1} more problem{'s' * (len(errors) > 2)})" if len(errors) > 1 else ""
    name = origin(path) if origin is not None else str(source)
    raise ConfigError(f"{name}: {key_path(path)}: {problem}{more}")


def load_json(path: str | Path, what: str = "file") -> Any:
    """The JSON document at ``path``; a missing file or bad JSON is a one-line :class:`ConfigError`
    (``{path}: line L, column C: not JSON ({problem})``)."""
    p = Path(path)
    text = read_text(p, what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{p}: line {exc.lineno}, column {exc.colno}: not JSON ({exc.msg})") from None


def scenario_schema(name: str) -> Path:
    """The package's scenario schema ``{name}.schema.yaml`` (``headsup-scenario``,
    ``multi-scenario``, ``rulebook-scenario``, ...), or :class:`ConfigError` naming the ones there are."""
    path = SCHEMAS / f"{name}.schema.yaml"
    if not path.is_file():
        known = sorted(p.name.removesuffix(".schema.yaml") for p in SCHEMAS.glob("*.schema.yaml"))
        raise ConfigError(f"no schema {name!r}; the package has: {', '.join(known)}")
    return path


def load_scenario(path: str | Path, schema: str | Path | Mapping[str, Any], what: str = "scenario file") -> Any:
    """A scenario file (JSON; ``.yaml``/``.yml`` read as YAML) checked against ``schema`` (a
    mapping, a schema file, or the name of a package schema for :func:`scenario_schema`), with
    the defaults filled in.  Every problem is one :class:`ConfigError` line naming the file and
    the key (:func:`validate`); an engine checks what a schema cannot (cards, seats) itself."""
    p = Path(path)
    doc = load_yaml(p, what) if p.suffix in (".yaml", ".yml") else load_json(p, what)
    if isinstance(schema, str) and not schema.endswith((".yaml", ".yml", ".json")) and "/" not in schema:
        schema = scenario_schema(schema)
    return validate(doc, schema, p)


def config_origin(files: Sequence[str | Path], overrides: Mapping[str, Any] | None = None) -> Any:
    """``origin(path)`` for :func:`validate` of a config merged from ``files`` (lowest precedence
    first, as Snakemake merges ``configfile:`` and ``--configfile``): the last file that defines
    the longest prefix of the key path; ``--config`` for a key only the command line sets."""
    docs = []
    for f in files:
        rel = os.path.relpath(f)
        name = str(f) if rel.startswith("..") else rel
        try:
            docs.append((name, load_yaml(f)))
        except ConfigError:
            docs.append((name, None))

    def defines(doc: Any, path: Sequence[Any]) -> bool:
        for part in path:
            if isinstance(doc, Mapping) and part in doc:
                doc = doc[part]
            elif isinstance(doc, list) and isinstance(part, int) and part < len(doc):
                doc = doc[part]
            else:
                return False
        return True

    def origin(path: Sequence[Any]) -> str:
        for n in range(len(path), 0, -1):
            if overrides and defines(overrides, path[:n]):
                return "--config"
            owners = [f for f, doc in docs if defines(doc, path[:n])]
            if owners:
                return owners[-1]
        return ", ".join(f for f, _ in docs) or "config"

    return origin


__all__ = [
    "POPULATION_SCHEMA",
    "SCHEMAS",
    "config_origin",
    "describe",
    "key_path",
    "load_json",
    "load_scenario",
    "load_schema",
    "load_yaml",
    "scenario_schema",
    "validate",
]
