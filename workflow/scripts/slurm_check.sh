#!/usr/bin/env bash
# make slurm-check: the smoke DAG through workflow/profiles/slurm on a real, throw-away one-node
# SLURM cluster (workflow/scripts/slurm_cluster.sh), as a user runs it on a cluster.
#
#   slurm_check.sh LOCAL_RESULTS SLURM_RESULTS
#
# 1. starts the cluster in a temporary folder (partition "poker51", no accounting);
# 2. the profile's checks, each of which must stop the run with exit 2 and one line before a
#    single job is submitted: the profile as shipped (no partition), a partition the cluster
#    does not have, no account, and sacct as status command on a cluster without accounting;
# 3. runs the smoke config through a copy of the profile with the site keys set (partition,
#    account, `slurm-status-command: squeue`) into SLURM_RESULTS;
# 4. checks that every cluster job completed, that the cluster ran exactly the DAG's jobs less
#    the localrules, and that no localrule was queued;
# 5. compares SLURM_RESULTS/receipt.json with LOCAL_RESULTS/receipt.json: every file byte-identical.
# The cluster is stopped on every exit (trap); its folder is removed on success and kept, with
# its logs, on failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 2 ] || { echo "usage: slurm_check.sh LOCAL_RESULTS SLURM_RESULTS" >&2; exit 2; }
LOCAL=$1
RESULTS=$2
BIN=${BIN:-.venv/bin}
[ -f "$LOCAL/receipt.json" ] || { echo "slurm_check: no $LOCAL/receipt.json: run the local smoke DAG first" >&2; exit 2; }

DIR=$(mktemp -d "${TMPDIR:-/tmp}/poker51-slurm.XXXXXX")
finish() {
    local rc=$?
    trap - EXIT INT TERM
    bash workflow/scripts/slurm_cluster.sh stop "$DIR" || true
    if [ "$rc" -eq 0 ]; then
        rm -rf "$DIR"
    else
        echo "slurm_check: FAILED (exit $rc); the cluster's folder and logs are kept in $DIR" >&2
    fi
    exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT TERM
fail() {
    echo "slurm_check: FAILED: $*" >&2
    exit 1
}

bash workflow/scripts/slurm_cluster.sh start "$DIR" poker51
export SLURM_CONF=$DIR/slurm.conf PATH=$DIR/bin:$PATH

# profile NAME KEY=VALUE...: a copy of the shipped profile with these keys set (a key with a
# dot is under default-resources); an empty value deletes the key.
profile() {
    local name=$1
    shift
    mkdir -p "$DIR/$name"
    "$BIN/python" - workflow/profiles/slurm/config.yaml "$DIR/$name/config.yaml" "$@" << 'EOF'
import sys
import yaml

shipped, out, *pairs = sys.argv[1:]
config = yaml.safe_load(open(shipped))
for pair in pairs:
    key, _, value = pair.partition("=")
    table = config["default-resources"] if key.startswith("default-resources.") else config
    key = key.removeprefix("default-resources.")
    if value:
        table[key] = value
    else:
        table.pop(key, None)
yaml.safe_dump(config, open(out, "w"), sort_keys=False)
EOF
}

run() { # run PROFILE_DIR: the smoke DAG through that profile into $RESULTS
    "$BIN/snakemake" --profile "$1" --configfile config/smoke.yaml --config "results=$RESULTS" --forceall
}

# expect_error PROFILE_DIR TEXT: the run stops with exit 2, and its last line is the
# workflow's one-line error containing TEXT.
expect_error() {
    local out rc=0 last
    out=$(run "$1" 2>&1) || rc=$?
    last=$(printf '%s\n' "$out" | tail -n 1)
    if [ "$rc" -ne 2 ] || [[ $last != "poker51 slurm: error: "*"$2"* ]]; then
        printf '%s\n' "$out" | tail -n 30 >&2
        fail "$1: expected exit 2 and one line naming '$2', got exit $rc"
    fi
    echo "slurm_check: refused as expected: $last"
}

profile bad-partition default-resources.slurm_partition=compute default-resources.slurm_account=poker51
profile no-account default-resources.slurm_partition=poker51 default-resources.slurm_account=
profile sacct default-resources.slurm_partition=poker51 default-resources.slurm_account=poker51
profile site default-resources.slurm_partition=poker51 default-resources.slurm_account=poker51 \
    slurm-status-command=squeue
expect_error workflow/profiles/slurm "slurm_partition is not set"
expect_error "$DIR/bad-partition" "slurm_partition 'compute'"
expect_error "$DIR/no-account" "slurm_account is not set"
expect_error "$DIR/sacct" "set slurm-status-command: squeue"
[ -z "$(squeue -h --states=all)" ] || fail "a refused run submitted jobs: $(squeue -h --states=all)"

start=$(date +%s)
run "$DIR/site" 2>&1 | tee "$DIR/run.log"
seconds=$(($(date +%s) - start))

# The jobs the cluster ran: one line per job, "rule_<name>..." (the plugin's --comment) and state.
squeue -h --states=all -o '%k %T' > "$DIR/jobs.txt"
"$BIN/python" - "$DIR/run.log" "$DIR/jobs.txt" workflow/rules/*.smk << 'EOF'
import re
import sys
from collections import Counter

log, jobs, *rule_files = sys.argv[1:]
# The DAG's job counts, from the run's "Job stats" table (rule, count; up to "total").
text = open(log).read()
table = text[text.index("Job stats:") :].splitlines()[3:]
planned = Counter()
for line in table:
    name, count = line.split()
    if name == "total":
        break
    planned[name] = int(count)
local = {r.strip() for f in rule_files for m in re.findall(r"^localrules:([^#\n]*)", open(f).read(), re.M)
         for r in m.split(",")}
expected = Counter({rule: n for rule, n in planned.items() if rule not in local and rule != "all"})
ran, states = Counter(), Counter()
for line in open(jobs).read().splitlines():
    comment, state = line.rsplit(" ", 1)
    ran[re.match(r"rule_(\w+?)(_wildcards_.*)?$", comment).group(1)] += 1
    states[state] += 1
print(f"slurm_check: the cluster ran {sum(ran.values())} jobs {dict(sorted(ran.items()))}, states {dict(states)}; "
      f"local: {sorted(local)}")
if set(states) != {"COMPLETED"}:
    sys.exit(f"slurm_check: FAILED: not every cluster job completed: {dict(states)}")
if ran != expected:
    sys.exit(f"slurm_check: FAILED: the cluster ran {dict(ran)}, the DAG less localrules is {dict(expected)}")
if not expected or set(ran) & local:
    sys.exit("slurm_check: FAILED: no cluster job, or a localrule queued")
EOF
"$BIN/python" workflow/scripts/compare_receipts.py "$LOCAL" "$RESULTS"
echo "slurm_check: passed: the smoke DAG through workflow/profiles/slurm in ${seconds} s"
