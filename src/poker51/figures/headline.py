"""The headline tables as small HTML pages, for ``snakemake --report``, and as CSV and LaTeX for
a paper (derived views of ``scores.parquet``, ``evidence.parquet`` and ``census/claims.parquet``;
not in the receipt): the scores, the real-card best response (from the scores), the evidence (with
its multiplicity correction) and the census claims."""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from poker51.realcard.evidence import DIFF, POLICIES, bonferroni

_CSS = (
    "body{font-family:sans-serif;font-size:12px}"
    "table{border-collapse:collapse}"
    "th,td{padding:2px 6px;border-bottom:1px solid #ddd;text-align:right}"
    "th{background:#f4f4f4;white-space:normal;max-width:6em;vertical-align:bottom}"
    "td:first-child,th:first-child{text-align:left}"
    "table{max-width:1260px}"  # the scores table's 14 columns fit a 1280 px window: headers wrap at 6em
)
_SCORE_COLUMNS = {
    "variant": "variant",
    "table": "table",
    "p": "p",
    "value_low": "value of the game: low",
    "value_high": "value: high",
    "guarantee": "guarantee",
    "vs_population": "vs population",
    "br_gain": "best responder gains",
    "exploitability": "solve exploitability",
    "iterations": "iterations",
}
#: what the local best response wins from the published table and from v0.5 (gather_scores)
_LBR_COLUMNS = {
    "lbr_win": "LBR wins (jbits/hand)",
    "lbr_win_ci_low": "LBR wins: CI low",
    "lbr_win_ci_high": "LBR wins: CI high",
    "lbr_hands": "LBR deals",
}
#: LaTeX's special characters, escaped (in captions)
_LATEX = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
          "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}  # fmt: skip
_TABLE_ORDER = {"nash": 0, "rnr": 1, "sweep": 2, "v0.5": 3}


def headline_scores(scores: pd.DataFrame) -> pd.DataFrame:
    """The scores a paper quotes: per variant, the Nash table, the published table (rnr), the
    v0.5 policy and then the sweep; values in jbits per hand for Riemann, and, when the local
    best response ran, what it wins from the published table and v0.5 (jbits per hand for LBR)."""
    df = scores.assign(_order=scores["table"].map(_TABLE_ORDER).fillna(9))
    df = df.sort_values(["variant", "_order", "p"], kind="stable")
    df = df.assign(p=[("" if pd.isna(p) else f"{p:g}") for p in df["p"]])
    names = {**_SCORE_COLUMNS, **{k: v for k, v in _LBR_COLUMNS.items() if k in df.columns}}
    return df[list(names)].rename(columns=names).reset_index(drop=True)


def headline_evidence(evidence: pd.DataFrame) -> pd.DataFrame:
    """Riemann's mean jbits per hand with its 95% CI, per variant, population (training types
    ``in_sample``, ``holdout`` types) and type (rows) and policy (columns v0.6, v0.5 and the
    paired difference)."""
    cells = evidence.assign(
        cell=[
            f"{m:+.3f} [{lo:+.3f}, {hi:+.3f}]"
            for m, lo, hi in evidence[["mean", "ci_low", "ci_high"]].itertuples(False)
        ]
    )
    rows = ["variant", "population", "type"] if "population" in evidence.columns else ["variant", "type"]
    table = cells.pivot(index=rows, columns="policy", values="cell")
    table = table[[c for c in (*POLICIES, DIFF) if c in table.columns]]
    hands = evidence.groupby(rows)["hands"].first()
    table = table.assign(deals=hands)
    if "se" in evidence.columns and "population" in evidence.columns and (evidence["policy"] == DIFF).any():
        adj = bonferroni(evidence).set_index(rows)
        m = int(adj["m"].iloc[0])
        cell = [f"[{lo:+.3f}, {hi:+.3f}] {'yes' if ok else 'no'}"
                for lo, hi, ok in adj[["adj_low", "adj_high", "survives"]].itertuples(False)]  # fmt: skip
        table[f"{DIFF}: Bonferroni (m = {m})"] = pd.Series(cell, index=adj.index).reindex(table.index)
    return table.reset_index().rename_axis(columns=None)


def evidence_note(evidence: pd.DataFrame) -> str:
    """The evidence table's note: what the cells are, and which paired gains survive the
    Bonferroni correction over all of the table's paired intervals."""
    note = "Riemann's mean jbits per hand [95% CI]; the difference is paired (the same deals)."
    if "se" not in evidence.columns or "population" not in evidence.columns:
        return note
    adj = bonferroni(evidence)
    if adj.empty:
        return note
    m, kept = int(adj["m"].iloc[0]), int(adj["survives"].sum())
    lost = [f"{r.variant} {r.type}" for r in adj.itertuples(False) if not r.survives]
    return (
        f"{note} Multiplicity: the table holds m = {m} paired intervals; with the Bonferroni correction "
        f"(each at {1 - 0.05 / m:.4%}, all {m} together at least 95%) {kept} of the {m} gains still exclude 0"
        + (f"; not: {', '.join(lost)}." if lost else ".")
    )


#: the real-card best response's columns (jbits per hand the best-responding human wins), and the
#: lower bounds by play where the table has them (issue 26)
_REALCARD_COLUMNS = {
    "variant": "variant",
    "table": "table",
    "p": "p",
    "v_abstract": "V_A: abstract best response",
    "v_ind": "V_ind: exact best response in G_ind",
    "ind_gap": "V_ind - V_A",
    "v_ind_abstract_human": "abstract best response in G_ind",
    "human_gap": "V_ind - abstract human",
    "v_real_lower": "real cards: lower bound by play",
    "v_real_lower_ci_low": "lower bound: CI low",
    "v_real_lower_ci_high": "lower bound: CI high",
    "v_real": "V_real",
}


def headline_realcard(scores: pd.DataFrame) -> pd.DataFrame:
    """What a best responder wins from each table whose real-card best response was computed
    (jbits per hand for the human, + = it wins): V_A (minus the guarantee), V_ind, their gap, the
    abstract best response played in G_ind and its distance below V_ind, then the real-card
    lower bounds where ``scores`` has them; the Nash, published and sweep tables per variant."""
    if "v_ind" not in scores.columns:
        return pd.DataFrame(columns=list(_REALCARD_COLUMNS.values())[:7])
    df = scores[scores["v_ind"].notna()]
    df = df.assign(ind_gap=df["v_ind"] - df["v_abstract"], human_gap=df["v_ind"] - df["v_ind_abstract_human"],
                   _order=df["table"].map(_TABLE_ORDER).fillna(9))  # fmt: skip
    df = df.sort_values(["variant", "_order", "p"], kind="stable")
    df = df.assign(p=[f"{p:g}" for p in df["p"]])
    names = {k: v for k, v in _REALCARD_COLUMNS.items() if k in df.columns}
    return df[list(names)].rename(columns=names).reset_index(drop=True)


def headline_claims(claims: pd.DataFrame) -> pd.DataFrame:
    """Each census claim of the rule card with its verdict."""
    return claims[["claim_id", "verdict", "claim"]].reset_index(drop=True)


def write_html(df: pd.DataFrame, path: str | Path, title: str, note: str = "") -> Path:
    """``df`` as a standalone UTF-8 HTML page (deterministic: the same frame, the same bytes)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    body = df.to_html(index=False, float_format=lambda x: f"{x:+.4f}", na_rep="", border=0)
    page = (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{_CSS}</style></head>\n<body>\n<h3>{html.escape(title)}</h3>\n"
        + (f"<p>{html.escape(note)}</p>\n" if note else "")
        + body
        + "\n</body></html>\n"
    )
    path.write_text(page, encoding="utf-8")
    return path


def write_csv(df: pd.DataFrame, path: str | Path) -> Path:
    """``df`` as CSV (UTF-8, ``\\n`` line ends, numbers at full precision; deterministic)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False, lineterminator="\n", encoding="utf-8")
    return path


def write_latex(df: pd.DataFrame, path: str | Path, caption: str, label: str) -> Path:
    """``df`` as a LaTeX ``table`` (booktabs rules, numbers to 4 decimals, text escaped), by
    :meth:`pandas.io.formats.style.Styler.to_latex`; deterministic."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    styler = df.style.hide(axis="index").format(precision=4, na_rep="", escape="latex")
    styler = styler.format_index(escape="latex", axis="columns")
    caption = "".join(_LATEX.get(ch, ch) for ch in caption)  # Styler leaves the caption as given
    tex = styler.to_latex(caption=caption, label=label, hrules=True, position="htbp", position_float="centering")
    path.write_text(tex, encoding="utf-8")
    return path
