"""Rule verify: tables intact, every Riemann decision the table's, replay, jbits, rules."""

from pathlib import Path

from poker51.log import logged
from poker51.play.verify import verify

with logged(snakemake.log[0]) as log:
    result = verify(
        list(snakemake.input.tables),
        snakemake.input.receipt,
        hands_per_variant=int(snakemake.params.hands),
        seed=int(snakemake.params.seed),
        abstraction=str(Path(snakemake.input.classes[0]).parent.parent),
        out=snakemake.output[0],
        progress=True,
    )
    log.info("verify: %s", {k: v for k, v in result.items() if k != "examples"})
    if not result.get("pass", False):
        raise SystemExit(f"verify failed: see {snakemake.output[0]}")
