"""The verifier (``workflow/rules/export.smk``): the published tables checked on real cards."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from poker51.play.verify import VerifyReport, verify

log = logging.getLogger("poker51.stages")


def run_verify(tables: Sequence[str], receipt: str, hands: int, seed: int, abstraction_root: str, out: str) -> None:
    """The v0.6 verifier; a failed check stops the workflow after writing its report."""
    report: VerifyReport = verify(
        list(tables), receipt, hands_per_variant=hands, seed=seed, abstraction=abstraction_root, out=out, progress=True
    )
    log.info("verify: %s", {k: v for k, v in report.to_json().items() if k != "examples"})
    if not report.passed:
        raise SystemExit(f"verify failed: see {out}")
