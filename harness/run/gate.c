/* gate.c - the decisions of qqbench run (gate.h): pure functions over what the caller read. */
#include "gate.h"

#include <stdio.h>
#include <string.h>

#include "baseline.h"

int qqb_run_paths(const char *bdir, const char *suite, const struct qqb_fingerprint *fp,
                  const char *baseline_from, const char *record, struct qqb_run_paths *p, char *err,
                  size_t errlen)
{
    memset(p, 0, sizeof *p);
    /* Memory per key: one baseline for every machine. */
    snprintf(p->memfp.id, sizeof p->memfp.id, "%s", QQB_MEMORY_ID);
    snprintf(p->memfp.cpu, sizeof p->memfp.cpu, "any machine");
    p->from = *fp;
    if (baseline_from)
        snprintf(p->from.id, sizeof p->from.id, "%s", baseline_from);
    if (qqb_baseline_path(bdir, suite, &p->from, NULL, p->bpath, sizeof p->bpath) != 0 ||
        qqb_baseline_path(bdir, suite, fp, NULL, p->own, sizeof p->own) != 0 ||
        qqb_baseline_memory_path(bdir, suite, p->mpath, sizeof p->mpath) != 0 ||
        (record && qqb_baseline_path(bdir, suite, fp, record, p->hpath, sizeof p->hpath) != 0)) {
        snprintf(err, errlen, "cannot make a baseline path for suite '%s' (machine '%s'%s%s)",
                 suite, p->from.id, record ? ", label " : "", record ? record : "");
        return -1;
    }
    return 0;
}

const char *qqb_run_other_machine(const char *baseline_from, int have_base, const char *base_id,
                                  const char *this_id)
{
    if (baseline_from)
        return baseline_from;
    return have_base && strcmp(base_id, this_id) != 0 ? base_id : NULL;
}

const char *qqb_run_work_parent(const char *work_parent, const char *tmpdir_env)
{
    if (work_parent)
        return work_parent;
    return tmpdir_env && *tmpdir_env ? tmpdir_env : "/tmp";
}

uint64_t qqb_run_seed(const struct qqb_run_opts *o, uint64_t now, uint64_t pid)
{
    return o->have_seed ? o->seed : (now * 0x9e3779b97f4a7c15ull) ^ pid;
}

int qqb_run_in_ci(const char *ci_env, int stdout_tty)
{
    return !stdout_tty ||
           (ci_env && *ci_env && strcmp(ci_env, "false") != 0 && strcmp(ci_env, "0") != 0);
}

void qqb_run_gate(int have_base, int have_mem, int against, int require_baseline, int update,
                  int in_ci, struct qqb_run_gate *g)
{
    g->timing = have_base || against;
    g->memory = have_mem || have_base || against;
    g->ungated = !g->timing || !g->memory;
    g->refused = require_baseline && g->ungated && !update;
    g->warn = g->ungated && in_ci && !update;
    g->title_note = g->ungated && require_baseline
                        ? "No baseline and --require-baseline: this run is an error (exit 2) "
                          "and records nothing."
                        : NULL;
}

void qqb_run_gate_note(struct qqb_strbuf *b, const struct qqb_run_gate *g, const char *fp_id,
                       const char *bpath, const char *mpath)
{
    if (!g->timing && !g->memory)
        qqb_strbuf_printf(b,
                          "no baseline: nothing gated (no timing baseline for %s at %s, no "
                          "memory baseline at %s, no --against)",
                          fp_id, bpath, mpath);
    else if (!g->timing)
        qqb_strbuf_printf(b,
                          "no timing baseline for this machine (%s at %s) and no --against: "
                          "timing not gated; memory gated against %s",
                          fp_id, bpath, mpath);
    else if (!g->memory)
        qqb_strbuf_printf(b, "no memory baseline (%s): memory not gated", mpath);
}

void qqb_run_gate_warning(struct qqb_strbuf *b, const char *note)
{
    qqb_strbuf_printf(b,
                      "qqbench: WARNING: %s.\nqqbench: WARNING: this run checks less than it "
                      "seems. Compare against a reference build in the same job (qqbench ci, "
                      "or run --against; docs/CI.md), commit baselines (--update-baseline), or "
                      "make this an error with --require-baseline.\n",
                      note);
}

int qqb_run_failed(const struct qqb_judgement *j, const struct qqb_model_judgement *models,
                   int fail_on_noisy, int fail_on_blind)
{
    return j->regressed || j->mem_regressed || j->build_regressed || j->build_mem_regressed ||
           j->counts_regressed || (models && models->regressed) ||
           (fail_on_noisy && (j->noisy || j->build_noisy)) ||
           (fail_on_blind ? j->blind + j->build_blind : j->blind_failing) > 0;
}

/* The exit code of the verdicts. */
static int verdicts_code(const struct qqb_run_outcome *oc)
{
    if (oc->kernel_failures)
        return QQB_EXIT_KERNEL;
    if (oc->ndropped)
        return QQB_EXIT_USAGE;
    if (oc->failed && !oc->update)
        return QQB_EXIT_REGRESSION;
    if (oc->refused)
        return QQB_EXIT_USAGE;
    return QQB_EXIT_OK;
}

int qqb_run_exit_code(const struct qqb_run_outcome *oc)
{
    if (oc->stopped)
        return oc->stopped;
    /* A result not stored: the file system's refusal (a full disk, a
     * read-only folder) is 3, as a failed launch is; the rest 2. */
    if (oc->store_rc)
        return oc->store_rc == -2 ? QQB_EXIT_KERNEL : QQB_EXIT_USAGE;
    int code = verdicts_code(oc);
    if (oc->json_failed || oc->junit_failed)
        return QQB_EXIT_USAGE;
    /* A report asked for by name that could not be drawn is a result not
     * stored (3), a folder that cannot be made a bad option (2); neither
     * hides a verdict (a regression's 1 stands). */
    if (oc->pictures != 0 && oc->report_named && code == QQB_EXIT_OK)
        return oc->pictures == -2 ? QQB_EXIT_USAGE : QQB_EXIT_KERNEL;
    return code;
}

void qqb_run_store_plan(const struct qqb_run_outcome *oc, struct qqb_run_store *s)
{
    /* Baselines: never touched by a run in which a kernel failed, nor by
     * one that dropped events (a key the suite names that no kernel records
     * stops the run before anything is stored: measure.h). */
    int spoiled = oc->kernel_failures || oc->ndropped;
    memset(s, 0, sizeof *s);
    if (spoiled && (oc->update || !oc->have_base || oc->record))
        s->held = oc->kernel_failures ? "a kernel failed" : "events were dropped";
    /* Always this machine's own file, with --update-baseline or when there
     * is none; --require-baseline's refusal records nothing. */
    s->baseline =
        !spoiled && !oc->refused && (oc->update || (!oc->have_base && !oc->baseline_from));
    /* The memory baseline (every machine's): written with --update-baseline,
     * or when there is none and nothing regressed. */
    s->memory = !oc->kernel_failures && !oc->refused &&
                (oc->update || (!oc->have_mem && !oc->baseline_from && !oc->failed));
    /* A snapshot keeps the run's verdicts (a key noisy run after run). */
    s->snapshot = oc->record && !oc->kernel_failures;
    s->accepted = oc->update && oc->failed;
    if (oc->memory_only) {
        /* --memory-only: the memory baseline alone. */
        s->baseline = s->snapshot = s->accepted = 0;
    } else if (s->baseline && oc->failed && !oc->update) {
        /* A regression is no baseline, not even a machine's first. */
        s->baseline = 0;
        s->held = "a regression (--update-baseline accepts it)";
    }
    /* ci writes a stored baseline only when asked (--update-baseline,
     * --record), never one recorded because there was none. */
    if (oc->stored == QQB_STORED_NONE) {
        memset(s, 0, sizeof *s);
    } else if (oc->stored == QQB_STORED_ASKED && !oc->update) {
        s->baseline = s->memory = 0;
        if (!oc->record)
            s->held = NULL;
    }
}
