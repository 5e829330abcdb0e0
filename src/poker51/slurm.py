"""The SLURM profile's checks, run once before Snakemake submits its first cluster job.

``workflow/profiles/slurm/config.yaml`` carries the two keys a site sets under
``default-resources``: ``slurm_partition`` and ``slurm_account``.  The executor plugin would
submit with an empty or unknown partition and fail once per job with SLURM's own message; the
workflow's ``onstart`` hook (``workflow/rules/common.smk``) calls :func:`check_submission`
instead, which asks the cluster and raises one :class:`~poker51.errors.InputError` naming the
key, the value, the rule and what the cluster offers:

- ``slurm_partition`` is set for every cluster job and names a partition ``sinfo`` lists;
- ``slurm_account`` is set for every cluster job, and is one of the user's accounts when
  ``sacctmgr`` can list them (a cluster without accounting has no list and takes any name);
- a cluster without accounting (``AccountingStorageType=accounting_storage/none`` in
  ``scontrol show config``) cannot answer ``sacct``, so the plugin's status command must be
  ``squeue`` (``slurm-status-command`` in the profile).

Local rules (``localrules:``) run in the submitting process and need neither key.
"""

from __future__ import annotations

import getpass
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

from poker51.errors import InputError

PROFILE = "workflow/profiles/slurm/config.yaml"
NO_ACCOUNTING = "accounting_storage/none"


@dataclass(frozen=True)
class ClusterJob:
    """One job Snakemake is about to submit: its rule and the two site keys as resolved for it
    (``None`` or ``""`` when unset)."""

    rule: str
    partition: str | None
    account: str | None


def _command(args: Sequence[str]) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(list(args), capture_output=True, text=True, timeout=60, check=False)
    except FileNotFoundError:
        raise InputError(f"{args[0]} not found: the slurm executor needs SLURM's client commands on PATH") from None
    except subprocess.TimeoutExpired:
        raise InputError(f"{' '.join(args)} did not answer in 60 s: is slurmctld up?") from None


def partitions() -> list[str]:
    """The cluster's partition names, as ``sinfo -h -o %R`` lists them."""
    done = _command(["sinfo", "-h", "-o", "%R"])
    if done.returncode != 0:
        raise InputError(f"sinfo failed: {done.stderr.strip() or 'no message'}")
    return sorted({line.strip() for line in done.stdout.splitlines() if line.strip()})


def accounts(user: str) -> list[str] | None:
    """The accounts ``sacctmgr`` associates with ``user``, or ``None`` when it cannot tell (a
    cluster without accounting, or an empty answer)."""
    done = _command(["sacctmgr", "-n", "-P", "show", "associations", f"user={user}", "format=account"])
    found = sorted({line.strip() for line in done.stdout.splitlines() if line.strip()})
    return found if done.returncode == 0 and found else None


def accounting_storage() -> str | None:
    """``AccountingStorageType`` from ``scontrol show config`` (``None`` when not listed)."""
    done = _command(["scontrol", "show", "config"])
    for line in done.stdout.splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "AccountingStorageType":
            return value.strip()
    return None


def _first_rule(jobs: Sequence[ClusterJob], value: str, key: str) -> str:
    return next(job.rule for job in jobs if getattr(job, key) == value)


def check_submission(jobs: Sequence[ClusterJob], status_command: str | None) -> None:
    """Raise :class:`InputError` (one line) unless every job can be submitted as configured.

    ``jobs`` are the cluster jobs of the run (local rules left out); ``status_command`` is the
    plugin's ``slurm-status-command`` (``sacct``, ``squeue``, or ``None`` for its default, which
    is ``sacct`` wherever the binary exists).
    """
    if not jobs:
        return
    jobs = sorted(jobs, key=lambda job: job.rule)
    unset = [job.rule for job in jobs if not job.partition]
    if unset:
        raise InputError(
            f"slurm_partition is not set (rule {unset[0]}): set it under default-resources in {PROFILE}; "
            f"sinfo lists: {', '.join(partitions()) or 'no partition'}"
        )
    known = partitions()
    for name in sorted({str(job.partition) for job in jobs}):
        if name not in known:
            raise InputError(
                f"slurm_partition '{name}' (rule {_first_rule(jobs, name, 'partition')}) is not a partition "
                f"of this cluster: sinfo lists {', '.join(known) or 'no partition'}; set it in {PROFILE}"
            )
    unset = [job.rule for job in jobs if not job.account]
    if unset:
        raise InputError(f"slurm_account is not set (rule {unset[0]}): set it under default-resources in {PROFILE}")
    mine = accounts(getpass.getuser())
    if mine is not None:
        for name in sorted({str(job.account) for job in jobs}):
            if name not in mine:
                raise InputError(
                    f"slurm_account '{name}' (rule {_first_rule(jobs, name, 'account')}) is not one of your "
                    f"accounts: sacctmgr lists {', '.join(mine)}; set it in {PROFILE}"
                )
    if status_command in (None, "sacct") and accounting_storage() == NO_ACCOUNTING:
        raise InputError(
            f"this cluster has no accounting ({NO_ACCOUNTING}), so sacct cannot report job states: "
            f"set slurm-status-command: squeue in {PROFILE} (or pass --slurm-status-command squeue)"
        )
