/* gate.h - the decisions of qqbench run, as pure functions: which baseline applies, what a run
 * gates, its exit code, and what it stores. None reads the environment, a file or the clock:
 * the caller passes what it read (getenv("CI"), isatty, the time), so each is tested alone
 * (tests/unit/test_pipeline.c). */
#ifndef QQB_GATE_H
#define QQB_GATE_H

#include <stddef.h>
#include <stdint.h>

#include "judge.h"
#include "judge_model.h"
#include "pipeline.h"
#include "plan.h"
#include "results.h"
#include "strbuf.h"

/* ---------------------------------------------------------------------
 * Which baseline applies.
 * --------------------------------------------------------------------- */

struct qqb_run_paths {
    char bpath[4096];             /* compared against: this machine's, or --baseline-from's */
    char own[4096];               /* this machine's: what --update-baseline and a first run write */
    char mpath[4096];             /* the memory baseline (every machine's) */
    char hpath[4096];             /* the --record snapshot; "" without --record */
    struct qqb_fingerprint from;  /* FP with the id --baseline-from names (cut to the id's size) */
    struct qqb_fingerprint memfp; /* the memory baseline's: QQB_MEMORY_ID, "any machine" */
};

/* The baselines of SUITE in BDIR for this machine FP, compared against
 * BASELINE_FROM's (NULL: FP's own), with RECORD's snapshot (NULL: none).
 * 0, or -1 with "cannot make a baseline path for suite ..." in ERR (a name
 * that is no plain name, a path too long). */
int qqb_run_paths(const char *bdir, const char *suite, const struct qqb_fingerprint *fp,
                  const char *baseline_from, const char *record, struct qqb_run_paths *p, char *err,
                  size_t errlen);

/* Whose machine profile is read beside this machine's: --baseline-from's,
 * else the baseline's machine when that is not THIS_ID, else NULL. */
const char *qqb_run_other_machine(const char *baseline_from, int have_base, const char *base_id,
                                  const char *this_id);

/* ---------------------------------------------------------------------
 * How the launches run.
 * --------------------------------------------------------------------- */

/* The folder the work folder is made in: --work, else $TMPDIR (TMPDIR_ENV,
 * when set and not empty), else /tmp. */
const char *qqb_run_work_parent(const char *work_parent, const char *tmpdir_env);
/* The seed of the round order: --seed, else from the clock NOW (seconds)
 * and the process id PID. */
uint64_t qqb_run_seed(const struct qqb_run_opts *o, uint64_t now, uint64_t pid);

/* ---------------------------------------------------------------------
 * What is gated (docs/BASELINES.md, "A missing baseline").
 * --------------------------------------------------------------------- */

/* 1 when the run is taken to be in CI, where a missing baseline is loud:
 * stdout is no terminal (STDOUT_TTY 0), or CI_ENV (the value of $CI, NULL
 * when unset) is set to anything but "", "false" or "0". */
int qqb_run_in_ci(const char *ci_env, int stdout_tty);

struct qqb_run_gate {
    int timing;  /* timing is compared: a timing baseline, or --against */
    int memory;  /* memory is compared: a memory or timing baseline, or --against */
    int ungated; /* one of the two is not */
    int refused; /* ungated with --require-baseline (not --update-baseline): exit 2, nothing stored
                  */
    int warn;    /* ungated in CI (not --update-baseline): qqb_run_gate_warning on stderr */
    const char *title_note; /* the report's line under its title, or NULL */
};

/* What a run with HAVE_BASE (a timing baseline), HAVE_MEM (a memory
 * baseline) and AGAINST (a reference build) gates, under the options
 * REQUIRE_BASELINE and UPDATE, IN_CI (qqb_run_in_ci). */
void qqb_run_gate(int have_base, int have_mem, int against, int require_baseline, int update,
                  int in_ci, struct qqb_run_gate *g);

/* Append to B what G leaves ungated, naming this machine's id FP_ID, the
 * timing baseline BPATH and the memory baseline MPATH (the report's
 * summary line); nothing when G gates both. */
void qqb_run_gate_note(struct qqb_strbuf *b, const struct qqb_run_gate *g, const char *fp_id,
                       const char *bpath, const char *mpath);
/* Append to B the CI warning for the note NOTE (qqb_run_gate_note): two
 * lines, each ending in a newline. */
void qqb_run_gate_warning(struct qqb_strbuf *b, const char *note);

/* ---------------------------------------------------------------------
 * The exit code, and what is stored.
 * --------------------------------------------------------------------- */

/* 1 when the run's verdicts fail it: a timing or memory regression against
 * the baseline or the reference build, a gated verdict on counts regressed
 * (instructions per hit; calls per launch with gate: counts), a model's
 * growth, (FAIL_ON_NOISY) a
 * noisy comparison, or a blind baseline row: every one with FAIL_ON_BLIND
 * (--fail-on-blind), else those of a benchmark with fail_on_blind: true.
 * MODELS may be NULL. */
int qqb_run_failed(const struct qqb_judgement *j, const struct qqb_model_judgement *models,
                   int fail_on_noisy, int fail_on_blind);

/* What a run came to, filled by its steps as they go: the step that
 * stopped it, its verdicts (step_report), its outputs (step_report) and
 * what it could not store (step_store). qqb_run_exit_code makes the exit
 * code of it, once, when the run finishes. */
struct qqb_run_outcome {
    int stopped;             /* the exit code of the step that stopped the run (0: none did) */
    size_t kernel_failures;  /* launches that failed */
    size_t ndropped;         /* cases that dropped events (not allowed to) */
    int failed;              /* qqb_run_failed */
    int refused;             /* qqb_run_gate's refused */
    int update;              /* --update-baseline */
    int have_base, have_mem; /* a timing / memory baseline was read */
    int baseline_from;       /* --baseline-from was given */
    int record;              /* --record was given */
    int memory_only;         /* --memory-only */
    int stored;              /* which stored baselines the run uses (enum qqb_run_stored) */
    int json_failed;         /* the --json file was not written */
    int junit_failed;        /* the --junit file was not written */
    int pictures;            /* the report folder: 0 written (or none), -2 not made, -1 not drawn */
    int report_named;        /* the report folder was named (--report DIR) */
    int store_rc;            /* the last store write that failed: -2 the file system refused,
                                another non-zero the writer's refusal; 0 none failed */
};

/* The process exit code of the run OC, first that applies: the step that
 * stopped it (its code); a store write that failed (3 when the file system
 * refused, else 2); then the verdicts: a kernel failure 3, dropped events
 * 2, a failed run 1 (0 with --update-baseline), refused 2, else 0; over
 * those, a --json or --junit file not written 2, and a report folder named
 * (REPORT_NAMED) that was not made (2) or drawn (3) when all else is 0.
 * Before the outputs and the store are filled, the verdicts' code: the
 * one the report states. */
int qqb_run_exit_code(const struct qqb_run_outcome *oc);

struct qqb_run_store {
    int baseline;     /* this machine's baseline is written (with the memory one when memory) */
    int memory;       /* the memory baseline is written */
    int snapshot;     /* the --record snapshot is written */
    int accepted;     /* --update-baseline over a failed run: said once the baseline is stored */
    const char *held; /* why the baseline is not written, to be said (NULL: nothing to say) */
};

/* What the run OC stores: nothing a failed kernel or dropped events
 * spoiled; no timing baseline from a regression (without --update-baseline),
 * not even a machine's first (S->held says why); with --memory-only the
 * memory baseline alone; under ci (OC->stored) only what is asked. */
void qqb_run_store_plan(const struct qqb_run_outcome *oc, struct qqb_run_store *s);

#endif /* QQB_GATE_H */
