"""The SLURM profile's checks (poker51.slurm) against fake ``sinfo``, ``sacctmgr`` and ``scontrol``
commands on PATH, and the workflow's ``onstart`` hook refusing the profile as shipped.

The real cluster run is ``make slurm-check`` (in ``make slow``): a one-node SLURM cluster,
the same refusals, then the smoke DAG through the profile.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from poker51.errors import InputError
from poker51.slurm import PROFILE, ClusterJob, accounting_storage, accounts, check_submission, partitions
from poker51.stages import check_slurm

ROOT = Path(__file__).resolve().parents[1]


def fake(bin_dir: Path, name: str, stdout: str = "", code: int = 0) -> None:
    """A command ``name`` that prints ``stdout`` and exits with ``code``, and logs its call."""
    script = bin_dir / name
    script.write_text(
        f'#!/bin/sh\necho "{name} $*" >> "{bin_dir}/calls"\nprintf "%b" "{stdout}"\nexit {code}\n', encoding="utf-8"
    )
    script.chmod(0o755)


@pytest.fixture
def cluster(tmp_path, monkeypatch):
    """A fake cluster: partitions debug and poker51, accounts lab1 and lab2, with accounting."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake(bin_dir, "sinfo", "debug\\npoker51\\npoker51\\n")
    fake(bin_dir, "sacctmgr", "lab2\\nlab1\\n")
    fake(bin_dir, "scontrol", "MinJobAge = 300 sec\\nAccountingStorageType = accounting_storage/slurmdbd\\n")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin")
    return bin_dir


def jobs(partition: str | None = "poker51", account: str | None = "lab1") -> list[ClusterJob]:
    return [ClusterJob("solve", partition, account), ClusterJob("census", partition, account)]


def refusal(jobs: list[ClusterJob], status: str | None = "sacct") -> str:
    with pytest.raises(InputError) as info:
        check_submission(jobs, status)
    return str(info.value)


def test_the_cluster_answers_are_parsed(cluster):
    assert partitions() == ["debug", "poker51"]
    assert accounts("anyone") == ["lab1", "lab2"]
    assert accounting_storage() == "accounting_storage/slurmdbd"


def test_a_complete_profile_passes(cluster):
    check_submission(jobs(), "sacct")
    check_submission(jobs(), None)
    assert (cluster / "calls").read_text().count("sinfo -h -o %R") == 2


def test_no_cluster_job_asks_nothing(cluster):
    check_submission([], None)
    assert not (cluster / "calls").exists()


def test_a_missing_partition_names_the_key_the_profile_and_the_partitions(cluster):
    assert refusal(jobs(partition=None)) == (
        f"slurm_partition is not set (rule census): set it under default-resources in {PROFILE}; "
        "sinfo lists: debug, poker51"
    )


def test_an_unknown_partition_names_itself_its_rule_and_the_partitions(cluster):
    bad = [ClusterJob("census", "poker51", "lab1"), ClusterJob("solve", "compute", "lab1")]
    assert refusal(bad) == (
        "slurm_partition 'compute' (rule solve) is not a partition of this cluster: "
        f"sinfo lists debug, poker51; set it in {PROFILE}"
    )


def test_a_missing_account_names_the_key(cluster):
    assert refusal(jobs(account=None)) == (
        f"slurm_account is not set (rule census): set it under default-resources in {PROFILE}"
    )


def test_an_account_that_is_not_yours(cluster):
    assert refusal(jobs(account="lab3")) == (
        "slurm_account 'lab3' (rule census) is not one of your accounts: "
        f"sacctmgr lists lab1, lab2; set it in {PROFILE}"
    )


def test_a_cluster_without_accounting_takes_any_account_and_needs_squeue(cluster):
    fake(cluster, "sacctmgr", "You are not running a supported accounting_storage plugin", code=1)
    fake(cluster, "scontrol", "AccountingStorageType   = accounting_storage/none\\n")
    assert accounts("anyone") is None
    check_submission(jobs(account="anything"), "squeue")
    message = refusal(jobs(account="anything"), "sacct")
    assert message == refusal(jobs(account="anything"), None)
    assert message == (
        "this cluster has no accounting (accounting_storage/none), so sacct cannot report job states: "
        f"set slurm-status-command: squeue in {PROFILE} (or pass --slurm-status-command squeue)"
    )


def test_no_slurm_commands_or_no_controller_is_one_line(cluster, monkeypatch):
    (cluster / "sinfo").write_text('#!/bin/sh\necho "sinfo: error: Unable to contact slurm controller" >&2\nexit 1\n')
    assert refusal(jobs()) == "sinfo failed: sinfo: error: Unable to contact slurm controller"
    monkeypatch.setenv("PATH", str(cluster / "nowhere"))
    assert refusal(jobs()) == "sinfo not found: the slurm executor needs SLURM's client commands on PATH"


def test_the_stage_function_returns_the_line_and_reads_resources_as_text(cluster):
    fake(cluster, "sinfo", "7\\n")
    assert check_slurm([("solve", 7, "lab1")], "sacct") is None
    assert check_slurm([("solve", 7, "")], "sacct") == (
        f"slurm_account is not set (rule solve): set it under default-resources in {PROFILE}"
    )


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX shell for the fake commands")
def test_the_workflow_refuses_the_shipped_profile_before_submitting(cluster, tmp_path):
    """``snakemake --profile workflow/profiles/slurm`` as shipped: the onstart hook prints one line
    and exits 2; sbatch is never called."""
    fake(cluster, "sbatch", "Submitted batch job 1")
    fake(cluster, "squeue")
    env = {**os.environ, "PATH": f"{cluster}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}/usr/bin:/bin"}
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "snakemake"),
            "--profile",
            "workflow/profiles/slurm",
            "--configfile",
            "config/smoke.yaml",
            "--config",
            f"results={tmp_path / 'results'}",
            # the checkout's .snakemake/locks is shared with the smoke runs `make test` runs
            # beside this test: a run that ends removes the folder under another one's lock
            # (FileNotFoundError in CI, 2026-12-03); what is tested comes before any lock matters
            "--nolock",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.splitlines()[-1] == (
        "poker51 slurm: error: slurm_partition is not set (rule abstraction): "
        f"set it under default-resources in {PROFILE}; sinfo lists: debug, poker51"
    )
    assert "Traceback" not in done.stderr
    assert "sbatch" not in (cluster / "calls").read_text()
