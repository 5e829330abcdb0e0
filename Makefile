# poker51: the two commands of the README are `make run` and `make test`.
# Both create the virtual environment on first use and install the package from the lock.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
CORES ?= all
SMOKE_CORES ?= 2
CONFIG ?= config/config.yaml
REPORT ?= results/report.html
RESULTS ?= results
#: every package of the pipeline + dev environment, pinned (`make lock` writes it)
LOCK := requirements/lock.txt
#: the pipeline's share of the lock (the rules' conda environment is written from it)
PIPELINE_LOCK := requirements/pipeline.txt
#: the smoke DAG again on one core, into results/smoke-1core (make reproduce, make test)
REPRODUCE_RUN = $(BIN)/snakemake --cores 1 --configfile config/smoke.yaml --config results=results/smoke-1core --forceall --quiet

.PHONY: install lock run test test-scheduled after-cards-service after-kernels-reproduce after-kernels-smoke after-all-rest system-deps test-unit test-unit-model test-unit-play test-unit-cards test-unit-service test-unit-rest smoke smoke-run smoke-check test-reproduce test-smoke-check reproduce reproduce-run report notebook lint bench slow slurm-check clean serve

install: $(VENV)/.installed

## the venv: the locked pins (exact versions), then poker51 itself without resolving anything
$(VENV)/.installed: pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r $(LOCK)
	$(BIN)/pip install --quiet --no-deps -e .
	touch $@

## make lock: resolve pyproject.toml again (newest versions) into the lock files and the conda env
lock: install
	$(BIN)/uv pip compile pyproject.toml --extra dev --universal --fork-strategy fewest --python-version 3.11 \
		--custom-compile-command "make lock" --quiet -o $(LOCK)
	$(BIN)/uv pip compile pyproject.toml --extra pipeline --universal --fork-strategy fewest --python-version 3.11 \
		--constraint $(LOCK) --custom-compile-command "make lock" --quiet -o $(PIPELINE_LOCK)
	$(BIN)/python tools/conda_env.py $(PIPELINE_LOCK) > workflow/envs/poker51.yaml

## make run: the whole default pipeline (config/config.yaml) into results/
run: install
	$(BIN)/snakemake --cores $(CORES)

## make test: every unit test (five parts), the smoke DAG on two cores and again on one core, the
## smoke checks (results, report, notebook), then the two runs' receipts must be byte-identical.
## One make runs them all, each part started as soon as the parts that compile the Numba kernels
## it loads are done (the schedule: docs/speed.md), so that no kernel is compiled twice and
## neither core waits while work is left
test: install system-deps
	$(MAKE) --no-print-directory -j6 test-scheduled
	$(BIN)/python workflow/scripts/compare_receipts.py results/smoke results/smoke-1core

#: first lint and the three parts that compile the kernels (model: the abstract game, the solver and
#: the five-seat tables; play: the policies and the real-card kernels; cards: the census and
#: rule-book kernels); the service's tests load no kernel and start when the cards part is done,
#: at a lower priority (nice 5: they end minutes before the rest, while the one-core smoke run and
#: the rest of the unit tests are the critical path and get the cores first);
#: both smoke runs need model's and cards' kernels first (their real-card jobs, which need play's,
#: come minutes later); the rest of the unit tests wait for all three
test-scheduled: lint test-unit-model test-unit-play test-unit-cards after-cards-service after-kernels-reproduce after-kernels-smoke after-all-rest

after-cards-service: test-unit-cards
	nice -n 5 $(MAKE) --no-print-directory test-unit-service

after-kernels-reproduce: test-unit-model test-unit-cards
	$(REPRODUCE_RUN)

after-kernels-smoke: test-unit-model test-unit-cards
	$(MAKE) --no-print-directory test-smoke-check

after-all-rest: test-unit-model test-unit-play test-unit-cards
	$(MAKE) --no-print-directory test-unit-rest

## the system packages the tests need, from Debian's packages when absent (PostgreSQL for the
## service's storage tests, chromium for its browser tests); a failed PostgreSQL install warns and
## its tests skip with the reason; without chromium the browser tests fail with the reason
system-deps:
	@$(PYTHON) tools/pg_throwaway.py --install >/dev/null || echo "WARNING: PostgreSQL could not be installed; its tests will skip" >&2
	@sh tools/ensure_chromium.sh >/dev/null || echo "WARNING: chromium could not be installed; the browser tests will fail" >&2

test-reproduce: install
	$(REPRODUCE_RUN)

test-smoke-check: smoke-run
	$(MAKE) --no-print-directory smoke-check

## make test-unit: every unit test in one pytest run
test-unit: install
	$(BIN)/pytest -q --durations=15

#: the parts of make test; test-unit-rest runs the test paths of pyproject.toml (tests/ and the
#: doctests of src/) without the other parts.  Model, play and cards compile the kernels that the
#: others and the smoke runs load (test-scheduled above orders the parts by them)
UNIT_MODEL := tests/hands tests/abstraction tests/solver tests/games tests/study tests/multi
UNIT_PLAY := tests/play tests/policies tests/realcard
UNIT_CARDS := tests/census tests/rulebook
UNIT_SERVICE := tests/service
test-unit-model: install
	$(BIN)/pytest -q --durations=5 $(UNIT_MODEL)

test-unit-play: install
	$(BIN)/pytest -q --durations=5 $(UNIT_PLAY)

test-unit-cards: install
	$(BIN)/pytest -q --durations=5 $(UNIT_CARDS)

test-unit-service: install
	$(BIN)/pytest -q --durations=5 $(UNIT_SERVICE)

test-unit-rest: install
	$(BIN)/pytest -q --durations=10 $(foreach d,$(UNIT_MODEL) $(UNIT_PLAY) $(UNIT_CARDS) $(UNIT_SERVICE),--ignore=$(d))

lint: install
	$(BIN)/ruff check src tests workflow benchmarks tools
	$(BIN)/ruff format --check src tests workflow benchmarks tools
	$(BIN)/mypy
	$(BIN)/snakemake --lint
	$(BIN)/snakemake -n --forceall --profile workflow/profiles/slurm --configfile config/smoke.yaml > /dev/null

smoke: smoke-run smoke-check

## make serve: the table service (`poker51 serve`) on the smoke tables, which it builds first when
## they are missing (the abstraction, the solves and the export of the smoke config: a few
## minutes); then open the address it prints, http://127.0.0.1:$(PORT)/.  Ctrl-C stops it.
PORT ?= 8051
SERVE_TABLES := results/smoke/tables/riemann-v06-standard.parquet results/smoke/tables/riemann-v06-wild.parquet
serve: install
	$(BIN)/snakemake --cores $(CORES) --configfile config/smoke.yaml --quiet all -- $(SERVE_TABLES)
	$(BIN)/poker51 serve --tables results/smoke/tables --port $(PORT)

smoke-run: install
	$(BIN)/snakemake --cores $(SMOKE_CORES) --configfile config/smoke.yaml --forceall --quiet

smoke-check: install
	$(BIN)/python workflow/scripts/check_smoke.py config/smoke.yaml
	$(MAKE) --no-print-directory report CONFIG=config/smoke.yaml REPORT=results/smoke/report.html
	$(BIN)/python workflow/scripts/check_report.py results/smoke/report.html
	POKER51_RESULTS=results/smoke $(BIN)/pytest -q -p no:cacheprovider tests/test_results.py
	$(BIN)/python workflow/scripts/run_notebook.py results/smoke

## make report: the HTML report of a finished run (figures and headline tables with captions)
report: install
	$(BIN)/snakemake --configfile $(CONFIG) --report $(REPORT)

## make notebook: notebooks/paper.ipynb executed on $(RESULTS), figures embedded, as $(RESULTS)/paper.ipynb
notebook: install
	$(BIN)/python workflow/scripts/run_notebook.py $(RESULTS)

## make reproduce: the smoke DAG again on one core; every receipt file must be byte-identical
reproduce: reproduce-run
	$(BIN)/python workflow/scripts/compare_receipts.py results/smoke results/smoke-1core

reproduce-run: install
	$(REPRODUCE_RUN)

## make slow: the exhaustive checks marked slow, then the SLURM check
slow: install
	$(BIN)/pytest -q -m slow
	$(BIN)/pytest -q -p no:cacheprovider --hypothesis-profile explore $$(grep -rl '@given' tests)
	$(MAKE) slurm-check

## make slurm-check: the smoke DAG through workflow/profiles/slurm on a throw-away one-node SLURM
## cluster (Debian's slurmctld, slurmd and munge, installed with apt-get when absent); its receipt
## must be byte-identical to a local smoke run's (workflow/scripts/slurm_check.sh)
slurm-check: install
	$(BIN)/snakemake --cores $(SMOKE_CORES) --configfile config/smoke.yaml --forceall --quiet
	BIN=$(BIN) bash workflow/scripts/slurm_check.sh results/smoke results/smoke-slurm

## make bench: speed figures to compare (census, abstraction, solver, play)
bench: install
	$(BIN)/pip install --quiet --constraint $(LOCK) -e '.[bench]'
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf results logs .snakemake
