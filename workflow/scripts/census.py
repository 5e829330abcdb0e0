"""Rule census: exact counts of every configured deck, order searches, the claims."""

from pathlib import Path

from poker51.census.claims import claims_markdown
from poker51.census.count import run_census
from poker51.io import write_parquet
from poker51.log import logged

with logged(snakemake.log[0]) as log:
    tables = run_census(list(snakemake.params.decks), removal=False)
    for name in ("counts", "orders", "claims"):
        write_parquet(tables[name], snakemake.output[name], metadata={"decks": list(snakemake.params.decks)})
    Path(snakemake.output.claims_md).write_text(claims_markdown(tables["claims"]))
    log.info("claims: %s", tables["claims"]["verdict"].value_counts().to_dict())
