# SPDX-License-Identifier: GPL-2.0
#
# The benchmark suite (tools/bench; included by the top Makefile).
#
# make bench          scenarios S1-S7 of DESIGN.md, five schedulers, three
#                     repetitions, in one VM boot (about an hour); results in
#                     bench/results/<date>-<kernel>/ and bench/results/latest.md
# make bench-quick    the same reduced to a smoke test (one repetition, short
#                     runs; under 10 minutes); results in out/bench-quick/.
#                     Fails on errors (a scenario failing, fio failing, a
#                     scheduler missing, a dirty kernel log), never on numbers
# make bench-report BENCH_DIR=<dir>   redo results.md and plots of a run
# make bench-deps     install python3-matplotlib for the plots (root)
#
# BENCH_KERNEL=<release or series> picks the kernel (default 6.12);
# BENCH_ARGS passes more options to tools/bench/run (e.g. --reps 5, or
# scenario names: BENCH_ARGS="S1 S7"); BENCH_OUT=<dir> writes the results
# there instead (CI: make bench-quick BENCH_OUT=<dir>).

BENCH_KERNEL ?= 6.12
BENCH_ARGS ?=
BENCH_OUT ?=
bench_out = $(if $(BENCH_OUT),--out $(BENCH_OUT))

.PHONY: bench bench-quick bench-report bench-deps

bench: bench-deps
	BENCH_MAKE_TARGET="make bench BENCH_KERNEL=$(BENCH_KERNEL) BENCH_ARGS='$(BENCH_ARGS)'$(if $(BENCH_OUT), BENCH_OUT=$(BENCH_OUT))" \
		tools/bench/run -k $(BENCH_KERNEL) $(bench_out) $(BENCH_ARGS)

bench-quick: bench-deps
	BENCH_MAKE_TARGET="make bench-quick BENCH_KERNEL=$(BENCH_KERNEL) BENCH_ARGS='$(BENCH_ARGS)'$(if $(BENCH_OUT), BENCH_OUT=$(BENCH_OUT))" \
		tools/bench/run --quick -k $(BENCH_KERNEL) $(bench_out) $(BENCH_ARGS)

bench-report:
	@[ -n "$(BENCH_DIR)" ] || { echo "usage: make bench-report BENCH_DIR=<results dir>" >&2; exit 2; }
	tools/bench/report $(BENCH_DIR)

# Plots are optional: without matplotlib the report says so and goes on, so
# a failed install does not fail the benchmark.
bench-deps:
	@if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		echo "ctxsched: installing python3-matplotlib for the benchmark plots"; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
			python3-matplotlib >/dev/null || \
			echo "ctxsched: python3-matplotlib not installed: no plots" >&2; \
	else \
		echo "ctxsched: python3-matplotlib missing (apt-get install python3-matplotlib): no plots" >&2; \
	fi
