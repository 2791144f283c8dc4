# Makefile - the front door: install what is missing, build with CMake, run, test.
#   make run    build, then run the shipped default suite and print the verdicts
#   make test   build, run every CTest test but the analysers, then the ASan+UBSan pass; prints the times
#   make test-more  the ThreadSanitizer pass, a fuzz smoke (clang) and libqq's tests cross-built for
#               aarch64 (under qemu)
#   make lint   the analysers (clang-tidy per source file, cppcheck) and the tick-literal check
#   make bench  build, then time the Km line beside other tools and print the figures
#   make install PREFIX=DIR   qqbench, libqq, its headers, pkg-config files and CMake package
#               under DIR (README.md, "Use it from your project")
BUILD      ?= build
BUILD_ASAN ?= build-asan
BUILD_TSAN ?= build-tsan
BUILD_FUZZ ?= build-fuzz
BUILD_AARCH64 ?= build-aarch64
FUZZ_SECONDS ?= 600
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
SUITE      ?= configs/ncs.yaml
CMAKE_FLAGS ?= -DQQ_WERROR=ON
PREFIX     ?=

# Debian packages building and running qqbench needs (make deps): the
# compiler with the C library's headers (gcc only recommends libc6-dev),
# CMake, the libraries, Open MPI for the MPI kernels and mpirun, gnuplot for
# the report's pictures with the font they name (DejaVu Sans; gnuplot only
# recommends fonts), git for qqbench ci, libdw-dev (elfutils: the kernels'
# build IDs and flags, docs/BASELINES.md).
PACKAGES = gcc libc6-dev make cmake pkg-config git libyaml-dev libjansson-dev libgsl-dev \
           libopenmpi-dev openmpi-bin gnuplot-nox fonts-dejavu-core libdw-dev
# What the tests need on top (make deps-test): python3 and jq (the tests ask
# both each JSON question, tests/data/run/lib.sh jq_py; python3 reads the
# reports and tools/km_compare.sh), valgrind (memory tests, callgrind),
# chromium-headless-shell (test_report opens the HTML), clang-format,
# clang-tidy and cppcheck (test_format, test_lint), procps (ps, pgrep and
# pkill: the tests that look for processes left running), util-linux (taskset:
# the foreign-machine pass's one-CPU run).
TEST_PACKAGES = python3 jq valgrind chromium-headless-shell clang-format clang-tidy cppcheck procps \
                util-linux
# Optional: tools/gbench_km (Google Benchmark beside qqbench, docs/PERFORMANCE.md)
# is built only when g++ and libbenchmark-dev are there; test-aarch64 (libqq and
# its unit tests cross-built, run under qemu, docs/TIMING.md) only when the
# cross compiler (with its C library, which it only recommends) and qemu-user
# are. make deps-test tries each (one missing from the archive, as the cross
# compiler is on an arm64 host, stops no other), and goes on without.
OPTIONAL_PACKAGES = g++ libbenchmark-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
# Only the packages named: no recommended ones (they pulled in daemons,
# ImageMagick and autoconf, which nothing here uses).
APT_INSTALL = DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends

export OMPI_ALLOW_RUN_AS_ROOT = 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM = 1

.PHONY: all deps deps-test build stat-tables build-asan build-tsan build-fuzz run test test-plain \
        test-asan test-tsan test-fuzz test-aarch64 test-more test-foreign \
        fuzz lint format install clean help bench conformance FORCE

all: build

help:
	@echo "make run    build, run $(SUITE), print the verdicts"
	@echo "make test   build, run all tests but the analysers, and the ASan+UBSan pass; print the times"
	@echo "make test-more  the TSan pass, a fuzz smoke (clang) and libqq's tests built for aarch64 under qemu"
	@echo "            (.ci/run runs it)"
	@echo "make lint   the analysers (clang-tidy, cppcheck) and the tick-literal check"
	@echo "make test-foreign  the kernel-launching tests again as on a slower, a faster, a no-RDTSCP"
	@echo "            and a one-CPU machine (tests/README.md; .ci/run runs it after make test)"
	@echo "make bench  time the Km line's change with qqbench, the kernel's bulk loop, Google Benchmark"
	@echo "            and callgrind, side by side (docs/PERFORMANCE.md; figures, not pass/fail)"
	@echo "make conformance  the gate's verdicts through the CLI on declared figures (tools/conformance),"
	@echo "            CONFORMANCE_N (default 20) suites per cell, into docs/CONFORMANCE.md (tens of minutes)"
	@echo "make deps   install the missing Debian packages building and running qqbench needs (as root)"
	@echo "make deps-test  the same, and what the tests need (make test, lint and bench use it)"
	@echo "make install PREFIX=DIR  install qqbench and libqq (headers, pkg-config, CMake package) under DIR"
	@echo "make fuzz   run every fuzz target for FUZZ_SECONDS (default 600) each (needs clang)"
	@echo "make clean  remove the build folders"

# install_missing LIST: install the packages of LIST that are missing (as
# root), or name them and exit 2. DEPS_LIST and DEPS_GOAL are what deps
# installs and the command it suggests; deps-test sets both for deps too, so
# that make deps-test asks apt-get, or the user, once for all of them.
DEPS_LIST = $(PACKAGES)
DEPS_GOAL = deps
define install_missing
	@missing=$$(for p in $(1); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
	  done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:" $$missing; \
	    apt-get update -qq && $(APT_INSTALL) $$missing; \
	  else \
	    echo "missing Debian packages:" $$missing "(run 'sudo make $(DEPS_GOAL)')" >&2; exit 2; \
	  fi; \
	fi
endef

deps:
	$(call install_missing,$(DEPS_LIST))

deps-test: DEPS_LIST = $(PACKAGES) $(TEST_PACKAGES)
deps-test: DEPS_GOAL = deps-test
deps-test: deps
	$(call install_missing,$(PACKAGES) $(TEST_PACKAGES))
	@missing=$$(for p in $(OPTIONAL_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
	  done); \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ] && apt-get update -qq; then \
	  left=; \
	  for p in $$missing; do \
	    $(APT_INSTALL) $$p || left="$$left $$p"; \
	  done; \
	  missing=$$left; \
	fi; \
	if [ -n "$$missing" ]; then \
	  echo "note: optional packages not installed:" $$missing \
	       "(without them tools/gbench_km or test-aarch64 is skipped)" >&2; \
	fi

# The CMAKE_FLAGS the build folder was configured with, rewritten when they
# change (compared as make reads this file, so make -n says the truth): the
# cache below is then older than it and cmake runs again with the new flags
# (a value cached before stays unless the new flags set it).
CMAKE_STAMP = $(BUILD)/make-cmake-flags
ifneq ($(shell cat '$(CMAKE_STAMP)' 2>/dev/null),$(strip $(CMAKE_FLAGS)))
$(CMAKE_STAMP): FORCE
endif
$(CMAKE_STAMP):
	@mkdir -p $(BUILD) && printf '%s\n' '$(subst ','\'',$(strip $(CMAKE_FLAGS)))' > $@

FORCE:

$(BUILD)/CMakeCache.txt: $(CMAKE_STAMP) | deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)
	@touch $@

# With a test goal, configuring waits for the test tools even under make -j:
# CMake looks for valgrind and the analysers once, when it configures.
ifneq ($(filter test test-% lint bench,$(MAKECMDGOALS)),)
$(BUILD)/CMakeCache.txt build-asan: | deps-test
endif

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j$(JOBS)

build-asan: deps
	cmake -S . -B $(BUILD_ASAN) $(CMAKE_FLAGS) -DQQ_SANITIZE=ON
	cmake --build $(BUILD_ASAN) -j$(JOBS)

# ThreadSanitizer: libqq, its own tests and the serial kernels (the threaded
# brain among them) only, so the stage stays short; ASan and TSan do not mix.
build-tsan: deps
	cmake -S . -B $(BUILD_TSAN) $(CMAKE_FLAGS) -DQQ_TSAN=ON -DQQ_LIBRARY_ONLY=ON
	cmake --build $(BUILD_TSAN) -j$(JOBS)

REPORT_DIR ?= reports/latest

# The simulated tables of docs/STATISTICS.md and docs/MODELS.md, from the simulations.
stat-tables: build
	tools/stat-tables $(BUILD)

run: build
	@mkdir -p $(REPORT_DIR)
	$(BUILD)/harness/qqbench run $(SUITE) --json $(REPORT_DIR)/$(notdir $(basename $(SUITE))).json \
	    --junit $(REPORT_DIR)/$(notdir $(basename $(SUITE))).xml

# make test's parts each append "NAME END-SECONDS MAKE-START" to TEST_TIMES
# when they pass; the last line of make test (or test-more) turns the stamps
# of this make into the wall time of each part, its build included.
TEST_TIMES = $(BUILD)/make-test.times
MAKE_T0 := $(shell date +%s)
test_stamp = @mkdir -p $(BUILD) && echo "$(1) $$(date +%s) $(MAKE_T0)" >> $(TEST_TIMES)

# The analysers (label lint: clang-tidy, cppcheck) are make lint's: they
# read the sources, not what the build does, and took 400 of the plain
# pass's 960 CPU-seconds; .ci/run runs them after make test. The goal
# simulations (label sim, tests/cmake/sim.cmake) are make conformance's.
test-plain: deps-test build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS) -LE 'lint|^sim$$'
	$(call test_stamp,plain)

# The sanitizer pass runs the tests labelled asan (tests/CMakeLists.txt
# says which and why): the C tests, the MPI scenarios and the integration
# tests that reach the harness's code no unit test reaches.
test-asan: deps-test build-asan
	ctest --test-dir $(BUILD_ASAN) --output-on-failure -j$(JOBS) -L asan
	$(call test_stamp,asan)

# The thread pass runs the tests labelled tsan (tests/cmake/threads.cmake):
# libqq's unit tests (per-thread buffers, memory keys in threads) and the
# threaded brain kernel, every one under ThreadSanitizer.
test-tsan: deps-test build-tsan
	ctest --test-dir $(BUILD_TSAN) --output-on-failure -j$(JOBS) -L tsan
	$(call test_stamp,tsan)

# Fuzz targets (tests/fuzz): in 'make test' a smoke of each when clang is
# installed (the seed corpus replayed, then FUZZ_SMOKE_SECONDS of new
# inputs); 'make fuzz' installs clang and runs them FUZZ_SECONDS each.
FUZZ_SMOKE_SECONDS ?= 5
build-fuzz:
	cmake -S . -B $(BUILD_FUZZ) -DCMAKE_C_COMPILER=clang -DQQ_FUZZ=ON -DQQ_BUILD_TESTS=OFF \
	    -DQQ_FUZZ_SECONDS=$(FUZZ_SECONDS)
	cmake --build $(BUILD_FUZZ) -j$(JOBS)

test-fuzz: deps-test
	@if command -v clang >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory build-fuzz FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS) && \
	  ctest --test-dir $(BUILD_FUZZ) --output-on-failure -j$(JOBS) -L fuzz; \
	else \
	  echo "test-fuzz: clang is not installed, the fuzz targets did not run ('make fuzz' installs it)"; \
	fi
	$(call test_stamp,fuzz)

# libqq and its own unit tests cross-built for aarch64 and run under qemu-user,
# and the host's qqbench st reading a file the aarch64 build wrote
# (docs/TIMING.md, "aarch64"); one line instead when the tools are missing.
test-aarch64: deps-test $(BUILD)/CMakeCache.txt
	@missing=; \
	for t in aarch64-linux-gnu-gcc qemu-aarch64; do \
	  command -v $$t >/dev/null 2>&1 || missing="$$missing $$t"; \
	done; \
	if [ -z "$$missing" ]; then \
	  cmake --build $(BUILD) -j$(JOBS) --target qqbench && \
	  cmake -S . -B $(BUILD_AARCH64) -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
	      -DQQ_LIBRARY_ONLY=ON $(CMAKE_FLAGS) \
	      -DQQ_HOST_QQBENCH=$(CURDIR)/$(BUILD)/harness/qqbench >/dev/null && \
	  cmake --build $(BUILD_AARCH64) -j$(JOBS) && \
	  ctest --test-dir $(BUILD_AARCH64) --output-on-failure -j$(JOBS); \
	else \
	  echo "test-aarch64:$$missing not installed, the aarch64 tests did not run" \
	       "('make deps-test' installs gcc-aarch64-linux-gnu and qemu-user)"; \
	fi
	$(call test_stamp,aarch64)

# Rewrite every tracked C/C++ file as .clang-format says (CTest's
# test_format checks it).
format:
	git ls-files '*.c' '*.h' '*.cc' | xargs clang-format -i

# Static analysers on the library and the harness, with the checked-in
# configurations (.clang-tidy; cppcheck's options in tests/integration/
# test_lint.sh): CTest's lint tests, one per source file, spread over the
# cores; then the tick literals (tests/README.md).
lint: deps-test build
	@t0=$$(date +%s); \
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS) -L lint && \
	python3 tools/check-tick-literals && \
	echo "make lint: $$(($$(date +%s) - t0)) s"

fuzz: deps
	@command -v clang >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && $(APT_INSTALL) clang; }
	$(MAKE) --no-print-directory build-fuzz
	ctest --test-dir $(BUILD_FUZZ) --output-on-failure -L fuzz

# The foreign-machine pass (tests/README.md): the tests that launch a kernel
# or read a clock, again as on a slower and a faster machine (QQ_TICKS=
# clock@5000, clock@500), a guest that hides RDTSCP (lfence) and one CPU
# (taskset -c 0); .ci/run runs it after make test. FOREIGN_PASSES picks some.
FOREIGN_PASSES ?=
test-foreign: deps-test build
	JOBS=$(JOBS) bash tools/foreign-pass $(BUILD) $(FOREIGN_PASSES)

# make test: the plain build's tests and the ASan+UBSan pass, within 10
# minutes on 2 cores. The passes of other builds (ThreadSanitizer on libqq
# and its threads, clang's fuzz smoke, the aarch64 cross build under qemu)
# are make test-more, and the analysers make lint: .ci/run runs all three,
# then the foreign passes.
# times GOAL: the wall time of each part GOAL ran, from the stamps since
# make started.
times = @awk -v t0=$(MAKE_T0) -v now=$$(date +%s) '$$3 == t0 { d = $$2 - (p ? p : t0); p = $$2; \
	    s = s (s ? ", " : "") $$1 " " d " s" } END { print "make $(1): " now - t0 " s (" s ")" }' $(TEST_TIMES)
test: deps-test test-plain test-asan
	$(call times,test)

test-more: deps-test test-tsan test-fuzz test-aarch64
	$(call times,test-more)

# Benchmarks: this machine's timings beside other tools' (docs/PERFORMANCE.md).
# They print figures and pass/fail nothing: a timing of another tool on a
# busy machine is not a test. KM_REPS, KM_GB_REPS, ... pass through
# (tools/km_compare.sh --help).
# Then the reader against a plain read of the same bytes (tools/qq_readbench
# on READ_EVENTS events, a file made in $(BUILD) and removed after), each
# ratio beside the CPU model: the read path's goals are per CPU family.
READ_EVENTS ?= 10000000
bench: deps-test build
	bash tools/km_compare.sh $(BUILD)
	@rc=0; QQ_OUTPUT=$(CURDIR)/$(BUILD)/readbench-results.qq $(BUILD)/tools/qq_readbench \
	    --make $(READ_EVENTS) $(BUILD)/readbench.qq 11 $(BUILD)/harness/qqbench || rc=$$?; \
	rm -f $(BUILD)/readbench.qq $(BUILD)/readbench-results.qq; exit $$rc

# The conformance matrix (issue 34): qqbench run and run --against on the synth
# kernel's declared figures, rates with Clopper-Pearson intervals in
# docs/CONFORMANCE.md. CONFORMANCE_N suites per cell; CONFORMANCE_ARGS passes
# on (--goals: only the cells issue 34 sets goals for; --jobs J; --raw FILE).
CONFORMANCE_N ?= 20
CONFORMANCE_ARGS ?=
conformance: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS) -L '^sim$$'
	python3 tools/conformance --n $(CONFORMANCE_N) --qqbench $(BUILD)/harness/qqbench \
	    --synth $(BUILD)/kernels/synth --out docs/CONFORMANCE.md $(CONFORMANCE_ARGS)

# make install PREFIX=DIR installs under DIR; without PREFIX, under the
# configured CMAKE_INSTALL_PREFIX (/usr/local unless CMAKE_FLAGS set it).
install: build
	cmake --install $(BUILD) $(if $(PREFIX),--prefix '$(PREFIX)')

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_TSAN) $(BUILD_FUZZ) $(BUILD_AARCH64)
