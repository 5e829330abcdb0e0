"""The verifier (``workflow/rules/export.smk``): the published tables checked on real cards."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from poker51.realcard.verify import VerifyReport, verify, write_verify_hands

log = logging.getLogger("poker51.stages")


def run_verify_hands(table: str, variant: str, hands: int, seed: int, abstraction_root: str, out: str) -> None:
    """One variant's hand checks, played as soon as its table is exported (the verifier's
    costly part); ``run_verify`` adds them to the report once the receipt exists."""
    part = write_verify_hands(table, variant, hands, seed, abstraction=abstraction_root, out=out, progress=True)
    log.info("verify %s: %s", variant, {k: v for k, v in part.items() if k != "examples"})


def run_verify(
    tables: Sequence[str],
    receipt: str,
    hands: int,
    seed: int,
    abstraction_root: str,
    out: str,
    hands_from: Mapping[str, str] | None = None,
) -> None:
    """The v0.6 verifier; a failed check stops the workflow after writing its report.
    ``hands_from``: each variant's ``run_verify_hands`` file (None: the hands are played here)."""
    report: VerifyReport = verify(
        list(tables),
        receipt,
        hands_per_variant=hands,
        seed=seed,
        abstraction=abstraction_root,
        out=out,
        progress=True,
        hands_from=hands_from,
    )
    log.info("verify: %s", {k: v for k, v in report.to_json().items() if k != "examples"})
    if not report.passed:
        raise SystemExit(f"verify failed: see {out}")
