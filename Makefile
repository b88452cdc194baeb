# Makefile for mirage: a C toolchain for low-interruption job chains on
# Slurm GPU clusters.  `make` builds, `make check` runs every test (in a
# -Werror build and in an ASan+UBSan build), `make demo` runs the main
# job on the bundled LS6 trace.  Both install missing Debian packages
# first (as root; otherwise they say what to install).

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
MANDIR	?= $(PREFIX)/share/man
DATADIR	?= $(PREFIX)/share/mirage
# the pipelines that work on a site's own data (cron, sbatch)
PIPES	= nightly-retrain.sh cluster-report.sh plan-folds.sh calibrate.sh features-array.sbatch \
	  handover-service.sbatch handover-serving.sbatch handover-ddp.sbatch \
	  handover_train.py
B	?= build/default

CC	?= cc
CFLAGS	?= -O2 -g
PKGS	= libarchive zlib libdeflate json-c yaml-0.1
CPPFLAGS += -Icommon -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) xgboost openblas 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -larchive -lz -ldeflate -ljson-c -lyaml)
# xgboost, OpenBLAS, libsvm and GLPK are loaded when first used (see
# common/base/dynload.h), by the names their link libraries record; a
# library is looked for in its pkg-config libdir, then where cc looks
libfile	= $(firstword $(wildcard $(shell pkg-config --variable=libdir $(2) 2>/dev/null)/lib$(1).so) $(shell $(CC) -print-file-name=lib$(1).so))
soname	= $(shell objdump -p "$(call libfile,$(1),$(2))" 2>/dev/null | awk '/SONAME/ { print $$2 }')
sodef	= $(foreach n,$(call soname,$(1),$(2)),-DMG_$(3)_SONAME='"$(n)"')
SONAMES	:= $(call sodef,xgboost,xgboost,XGBOOST) $(call sodef,openblas,openblas,OPENBLAS) \
	   $(call sodef,svm,libsvm,LIBSVM) $(call sodef,glpk,glpk,GLPK)
CPPFLAGS += $(SONAMES)
LDLIBS	+= $(PKG_LIBS) -lm -ldl -pthread
DEPFLAGS = -MMD -MP
# a line per file; V=1 shows the commands, make -s nothing
ifeq ($(V),1)
Q	=
say	= @:
else ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
Q	= @
say	= @:
else
Q	= @
say	= @printf '  %-4s %s\n'
endif

# DEVELOPER=1: the warning contract, enforced
ifeq ($(DEVELOPER),1)
CFLAGS	+= -std=c11 -Werror -Wall -Wextra -Wpedantic -Wshadow \
	   -Wstrict-prototypes -Wmissing-prototypes -Wold-style-definition \
	   -Wformat=2 -Wvla -Wwrite-strings -Wpointer-arith -Wundef \
	   -fno-common
else
CFLAGS	+= -std=c11 -Wall -Wextra
# the library's invariants are asserted in the developers' builds only
CPPFLAGS += -DNDEBUG
endif
# SANITIZE=1: AddressSanitizer + UndefinedBehaviorSanitizer
ifeq ($(SANITIZE),1)
CFLAGS	+= -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
	   -fno-omit-frame-pointer
LDFLAGS	+= -fsanitize=address,undefined
endif

CMDS	= mirage-parse mirage-cat mirage-features mirage-split mirage-train mirage-eval mirage-advise mirage-accel mirage-policy
LIB_SRC	= $(sort $(wildcard common/*/*.c))
# every object and program depends on every header: the library is
# small, and a build never links objects made from two layouts of a
# struct (the -MMD files alone once missed one)
HDRS	= $(wildcard common/*.h common/*/*.h)
LIB_OBJ	= $(LIB_SRC:%.c=$(B)/%.o)
LIB	= $(B)/libmirage.a
BINS	= $(CMDS:%=$(B)/%)
UNIT_SRC = $(sort $(wildcard tests/unit/t_*.c))
UNIT	= $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
FUZZ_SRC = $(sort $(wildcard tests/fuzz/fuzz_*.c))
REPLAY	= $(FUZZ_SRC:tests/fuzz/fuzz_%.c=$(B)/tests/replay_%)

all: $(LIB) $(BINS) $(UNIT) $(REPLAY)

# The switches a build directory was made with: rewritten only when they
# change, so that changing them rebuilds everything, and read back by
# the install test.
FLAGS_NOW = DEVELOPER=$(DEVELOPER) SANITIZE=$(SANITIZE)
$(B)/build.flags: FORCE
	@mkdir -p $(@D)
	@if [ "$$(cat $@ 2>/dev/null)" != "$(FLAGS_NOW)" ]; then \
		echo "$(FLAGS_NOW)" > $@; fi

$(B)/common/%.o: common/%.c $(HDRS) $(B)/build.flags
	@mkdir -p $(@D)
	$(say) CC $<
	$(Q)$(CC) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	$(say) AR $@
	$(Q)rm -f $@
	$(Q)ar rcs $@ $(LIB_OBJ)

# each tool is one file, with the option groups they share (cmd/options)
$(B)/cmd/options.o: cmd/options.c cmd/options.h $(HDRS) $(B)/build.flags
	@mkdir -p $(@D)
	$(say) CC $<
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

$(B)/mirage-%: cmd/mirage-%.c cmd/options.h $(B)/cmd/options.o $(LIB) $(HDRS) $(B)/build.flags
	$(say) LINK $@
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) $(LDFLAGS) $< $(B)/cmd/options.o $(LIB) $(LDLIBS) -o $@

$(B)/tests/t_%: tests/unit/t_%.c tests/unit/tap.h $(LIB) $(HDRS) $(B)/build.flags
	@mkdir -p $(@D)
	$(say) LINK $@
	$(Q)$(CC) $(CPPFLAGS) -Itests/unit $(CFLAGS) $(DEPFLAGS) $(LDFLAGS) $< $(LIB) $(LDLIBS) -o $@

# each fuzz target, linked with a main() that replays the checked-in corpus
$(B)/tests/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(LIB) $(B)/build.flags
	@mkdir -p $(@D)
	$(say) LINK $@
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $< tests/fuzz/replay.c $(LIB) $(LDLIBS) -o $@

# Install the Debian packages that are missing (as root), or list them:
# those the tools need (deps), and also those the tests use (deps-test).
# Without root, make demo runs when deps finds nothing missing.
deps:
	@sh tests/deps.sh

deps-test:
	@sh tests/deps.sh --test

# The main job on the bundled data: the loaded setting in full; make
# reproduce runs the paper's protocol in all three settings.
demo reproduce: deps
	@echo "== make all (the tools, quietly)" >&2
	@$(MAKE) -s --no-print-directory all
	@B=$(B) pipelines/reproduce-paper.sh $(if $(filter reproduce,$@),--all)

# Every test, in a -Werror build and in a sanitizer build (the pipeline
# suites, whole protocols, in the first only); the last line of the
# output is "N passed, N failed".
check: deps-test
	@$(MAKE) --no-print-directory B=build/dev DEVELOPER=1 all
	@$(MAKE) --no-print-directory B=build/asan SANITIZE=1 DEVELOPER=1 all
	@tests/run.sh build/dev build/asan

# Tests of one build only (faster while developing).
test: all
	@tests/run.sh $(B)

# Only the tests against a real Slurm on loopback (root; about 2 minutes).
check-live: all
	@tests/slurm/run-live.sh $(B)

# Coverage-guided fuzzing with libFuzzer (clang); FUZZ_TIME seconds each.
FUZZ_TIME ?= 60
fuzz:
	@tests/fuzz/run-fuzzers.sh $(FUZZ_TIME)

# Every speed and memory figure against its peer, in one run; the
# table also goes to build/results/bench.txt, beside the demo's.
bench: all
	@mkdir -p build/results
	@B=$(B) bash -o pipefail -c 'tests/bench.sh | tee build/results/bench.txt.tmp' && \
	    mv build/results/bench.txt.tmp build/results/bench.txt

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)
	install -m 644 man/*.1 $(DESTDIR)$(MANDIR)/man1
	install -m 644 man/*.5 $(DESTDIR)$(MANDIR)/man5
	install -m 644 man/*.7 $(DESTDIR)$(MANDIR)/man7
	install -d $(DESTDIR)$(DATADIR)/pipelines
	for f in $(PIPES); do \
		sed 's|^installed_bin=$$|installed_bin=$(BINDIR)|' pipelines/$$f \
		    > $(DESTDIR)$(DATADIR)/pipelines/$$f && \
		chmod 755 $(DESTDIR)$(DATADIR)/pipelines/$$f || exit 1; \
	done

clean:
	rm -rf build

.PHONY: all deps deps-test demo reproduce check check-live test fuzz bench install clean FORCE
.DELETE_ON_ERROR:

-include $(LIB_OBJ:.o=.d) $(BINS:=.d) $(UNIT:=.d)
