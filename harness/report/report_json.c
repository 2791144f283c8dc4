/* report_json.c - the JSON reporter: the run JSON (run_json.h, the one schema)
 * made from the results and the judgement. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "run_json.h"

static const char *kind_name(int ab)
{
    return ab == QQB_CMP_BUILD ? "build" : ab ? "ab" : "baseline";
}

static struct qqb_run_mem run_mem(const struct qqb_mem *m)
{
    return (struct qqb_run_mem){m->key,
                                (long long)(json_int_t)m->obj_size,
                                (long long)(json_int_t)m->created,
                                (long long)(json_int_t)m->deleted,
                                (long long)(json_int_t)m->obj_bytes,
                                (long long)(json_int_t)m->alloc_bytes,
                                (long long)(json_int_t)m->peak_bytes,
                                m->peak_gap ? (double)(m->peak_bytes - m->peak_gap) : NAN};
}

/* The NULL-ended strings V as the run JSON's borrowed array *OUT, *N
 * (left NULL when V is). 0 or -1. */
static int run_strv(char *const *v, const char ***out, size_t *n)
{
    *n = 0;
    if (!v)
        return 0;
    while (v[*n])
        (*n)++;
    *out = calloc(*n + 1, sizeof **out);
    if (!*out)
        return -1;
    for (size_t k = 0; k < *n; k++)
        (*out)[k] = v[k];
    return 0;
}

/* Metric MT as the run JSON has it: its summaries (S, the judgement's)
 * and samples (copied). */
static int run_metric(const struct qqb_metric *mt, const struct qqb_summary *s,
                      struct qqb_run_metric *om)
{
    *om = (struct qqb_run_metric){.key = mt->key,
                                  .what = mt->what,
                                  .median = s->median,
                                  .mad = s->mad,
                                  .min = s->min,
                                  .noise_pct = s->noise_pct};
    om->samples = malloc((mt->n + 1) * sizeof *om->samples);
    if (!om->samples)
        return -1;
    if (mt->n)
        memcpy(om->samples, mt->samples, mt->n * sizeof *om->samples);
    om->n_samples = mt->n;
    return 0;
}

/* The per-thread rows of a threaded case (docs/THREADS.md); none for a
 * case whose launches had one thread per node. */
static int run_threads(const struct qqb_case_result *c, const struct qqb_case_figures *f,
                       struct qqb_run_case *o)
{
    if (c->nthreads == 0)
        return 0;
    o->threads = calloc(c->nthreads, sizeof *o->threads);
    if (!o->threads)
        return -1;
    for (size_t i = 0; i < c->nthreads; i++) {
        const struct qqb_thread_row *t = &c->threads[i];
        struct qqb_run_thread *ot = &o->threads[o->n_threads++];
        *ot = (struct qqb_run_thread){.node = t->node,
                                      .thread = t->index,
                                      .tid = (long long)(json_int_t)t->tid,
                                      .name = t->name,
                                      .events = (long long)(json_int_t)t->events,
                                      .dropped = (long long)(json_int_t)t->dropped};
        ot->metrics = calloc(t->nmetrics + 1, sizeof *ot->metrics);
        if (!ot->metrics)
            return -1;
        for (size_t m = 0; m < t->nmetrics; m++)
            if (run_metric(&t->metrics[m], &f->thread[i].metric[m],
                           &ot->metrics[ot->n_metrics++]) != 0)
                return -1;
    }
    return 0;
}

/* Case C of the results as the run JSON has it, with its summaries F (the
 * judgement's figures). */
static int run_case(const struct qqb_case_result *c, const struct qqb_case_figures *f,
                    struct qqb_run_case *o)
{
    *o = (struct qqb_run_case){.name = c->name,
                               .bench = c->bench,
                               .variant = c->variant,
                               .point = c->point,
                               .nodes = c->nodes,
                               .tick_mhz = c->mhz,
                               .launches = (long long)(json_int_t)c->launches,
                               .failed = c->failures > 0,
                               .note = c->failure,
                               .build_id = c->build.id,
                               .metric = c->metric};
    for (size_t k = 0; c->command && c->command[k]; k++)
        o->n_command++;
    o->command = calloc(o->n_command + 1, sizeof *o->command);
    o->metrics = calloc(c->nmetrics + 1, sizeof *o->metrics);
    o->memory = calloc(c->nmem + 1, sizeof *o->memory);
    if (!o->command || !o->metrics || !o->memory)
        return -1;
    for (size_t k = 0; k < o->n_command; k++)
        o->command[k] = c->command[k];
    if (run_strv(c->build.compiler, &o->compiler, &o->n_compiler) != 0 ||
        run_strv(c->build.producer, &o->producer, &o->n_producer) != 0)
        return -1;
    for (size_t m = 0; m < c->nmetrics; m++)
        if (run_metric(&c->metrics[m], &f->metric[m], &o->metrics[o->n_metrics++]) != 0)
            return -1;
    for (size_t m = 0; m < c->nmem; m++)
        o->memory[o->n_memory++] = run_mem(&c->mem[m]);
    return run_threads(c, f, o);
}

static struct qqb_run_cmp run_cmp(const struct qqb_cmp *c)
{
    return (struct qqb_run_cmp){.case_name = c->case_name,
                                .key = c->key,
                                .kind = kind_name(c->ab),
                                .reference = c->ref_name,
                                .paired = c->paired,
                                .noisy_runs = c->noisy_runs,
                                .baseline_cycles = c->base_median,
                                .current_cycles = c->cur_median,
                                .baseline_ns = qqb_ticks_ns(c->base_median, c->base_mhz),
                                .current_ns = qqb_ticks_ns(c->cur_median, c->mhz),
                                .change_pct = c->ch.pct,
                                .lo_pct = c->ch.lo,
                                .hi_pct = c->ch.hi,
                                .interval_ok = c->ch.ci_ok,
                                .confidence = c->ch.confidence,
                                .p_value = c->p_value,
                                .threshold_pct = c->threshold,
                                .threshold_from = qqb_threshold_from_name(c->threshold_from),
                                .mde = c->mde_pct > 0 ? c->mde_pct
                                                      : NAN, /* > the threshold where known */
                                .noise_pct = c->noise_pct,
                                .noise_from = c->noise_from,
                                .baseline_runs = (long long)(json_int_t)c->base_runs,
                                .run_to_run_pct = c->run_pct,
                                .run_bound_pct = c->run_bound_pct,
                                .pairs = (long long)(json_int_t)c->npairs,
                                .rounds = (long long)(json_int_t)c->rounds,
                                .verdict_alone = qqb_verdict_name(c->alone),
                                .level = c->level,
                                .holm = c->holm_held < 0 ? -1 : c->holm_held,
                                .machine_check = qqb_machine_check_name(c->machine),
                                .machine_check_note = c->machine_why,
                                .command_differs = c->command_differs,
                                .why = c->why[0] ? c->why : NULL,
                                .seen_by = c->seen_by,
                                .counter_step = c->step > 0 ? c->step : NAN,
                                .below_resolution = c->below_step,
                                .dropped_events = c->dropped,
                                .machine_pct = c->machine_pct,
                                .norm_pct = c->norm_pct,
                                .machine_moved = c->machine == QQB_MC_MOVED,
                                .ref_guard = qqb_ref_guard_name(c->ref_guard),
                                .ref_guard_pct = c->ref_guard != QQB_RG_NONE ? c->guard_pct : NAN,
                                .verdict = qqb_verdict_name(c->verdict),
                                .look = (long long)(json_int_t)c->look,
                                .looks = (long long)(json_int_t)c->looks,
                                .plan_launches = (long long)(json_int_t)c->plan_launches,
                                .need_launches = (long long)(json_int_t)c->need_launches,
                                .need_runs = (long long)(json_int_t)c->need_runs,
                                .count_base = c->count_base,
                                .count_cur = c->count_cur,
                                .count_pct = c->count_pct,
                                .cost_part_pct = c->cost_pct,
                                .note = NULL,
                                .reason = NULL,
                                .baseline_samples = NULL,
                                .n_baseline_samples = 0};
}

static struct qqb_run_count run_count(const struct qqb_countcmp *c)
{
    const struct qqb_count_change *x = &c->c;
    return (struct qqb_run_count){
        .case_name = c->case_name,
        .key = c->key,
        .kind = kind_name(c->ab),
        .reference = c->ref_name,
        .figure = c->calls ? "calls" : "instructions",
        .metric = c->what,
        .exact = x->exact,
        .before = x->base.value,
        .after = x->cur.value,
        .before_min = x->base.min,
        .before_max = x->base.max,
        .after_min = x->cur.min,
        .after_max = x->cur.max,
        .delta = x->delta,
        .change_pct = x->pct,
        .lo_pct = x->ch.lo,
        .hi_pct = x->ch.hi,
        .threshold_pct = x->threshold_pct,
        .verdict = qqb_verdict_name(x->verdict),
        .gated = c->gated,
        .cycles_verdict = c->timing >= 0 ? qqb_verdict_name((enum qqb_verdict)c->timing) : NULL,
        .total_before = c->total_base,
        .total_after = c->total_cur,
        .count_part = c->count_part,
        .cost_part = c->cost_part,
        .why = c->why};
}

/* The run JSON's header: suite, provenance, machine. */
static void run_head(const struct qqb_report *r, struct qqb_run *o)
{
    const struct qqb_results *res = r->results;
    o->suite = r->suite;
    o->date = res->date;
    o->version = res->version;
    o->commit = res->commit;
    o->baseline = r->baseline_path;
    o->baseline_other = r->baseline_other;
    o->baseline_other_build = r->baseline_other_build;
    o->against = r->against;
    o->memory_baseline = r->memory_baseline_path;
    o->gated_note = r->no_baseline_summary;
    o->fingerprint =
        (struct qqb_run_fp){res->fp.id,    res->fp.cpu,      res->fp.mhz,  res->fp.invariant,
                            res->fp.cores, res->fp.compiler, res->fp.flags};
    o->has_fingerprint = 1;
    o->kernel_failures = (long long)(json_int_t)r->kernel_failures;
    o->family_size = (long long)(json_int_t)r->j->family;
    o->round_order_seed = (long long)(json_int_t)(r->seed & 0x7fffffffffffffffull);
    o->passes = r->passes > 0 ? r->passes : 1;
    if (r->baseline_path && r->j->ref_rows) {
        o->run_figure = r->j->by_reference ? "per machine reference" : "as measured";
        o->reference_ratio = r->j->ref_ratio;
    } else {
        o->reference_ratio = NAN;
    }
    o->exit_code = r->exit_code;
}

/* R as the run JSON's structs (run_json.h): arrays owned, strings and
 * JSON parts borrowed or new (released by the caller). 0 or -1. */
static int run_of_report(const struct qqb_report *r, struct qqb_run *o)
{
    const struct qqb_results *res = r->results;
    const struct qqb_judgement *jd = r->j;
    memset(o, 0, sizeof *o);
    run_head(r, o);
    if (jd->nfigures != res->ncases) /* not finished: qqb_judgement_figures */
        return -1;
    o->cases = calloc(res->ncases + 1, sizeof *o->cases);
    o->comparisons = calloc(jd->ncmp + 1, sizeof *o->comparisons);
    o->memory_changes = calloc(jd->nmem + 1, sizeof *o->memory_changes);
    o->count_comparisons = calloc(jd->ncounts + 1, sizeof *o->count_comparisons);
    if (!o->cases || !o->comparisons || !o->memory_changes || !o->count_comparisons)
        return -1;
    for (size_t i = 0; i < jd->ncounts; i++)
        o->count_comparisons[o->n_count_comparisons++] = run_count(&jd->counts[i]);
    for (size_t i = 0; i < res->ncases; i++)
        if (run_case(res->cases[i], &jd->figures[i], &o->cases[o->n_cases++]) != 0)
            return -1;
    for (size_t i = 0; i < jd->ncmp; i++)
        o->comparisons[o->n_comparisons++] = run_cmp(&jd->cmp[i]);
    for (size_t i = 0; i < jd->nmem; i++) {
        const struct qqb_memcmp *m = &jd->mem[i];
        o->memory_changes[o->n_memory_changes++] = (struct qqb_run_memchg){
            m->case_name,     m->key, kind_name(m->ab), m->ref_name, run_mem(&m->base), 1,
            run_mem(&m->cur), 1,      m->verdict,       !m->moved};
    }
    if (r->models)
        o->models = qqb_model_judgement_json(r->models);
    if (r->tunes && r->tunes->n)
        o->tunes = qqb_tune_judgement_json(r->tunes);
    if (r->sigs) {
        o->signatures = qqb_sig_judgement_json(r->sigs);
        if (r->sigs->profile)
            o->profile = qqb_profile_json(r->sigs->profile);
        if (r->sigs->base_profile)
            o->baseline_profile = qqb_profile_json(r->sigs->base_profile);
    }
    return 0;
}

/* R as the run JSON, onto FP. */
static int json_emit(FILE *fp, const struct qqb_report *r)
{
    struct qqb_run run;
    char *text = run_of_report(r, &run) == 0 ? qqb_run_dumps(&run) : NULL;
    json_t *parts[] = {run.models, run.signatures, run.profile, run.baseline_profile, run.tunes};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        json_decref(parts[i]);
    qqb_run_free(&run);
    if (!text)
        return -1;
    int rc = fputs(text, fp) < 0 ? -1 : 0;
    free(text);
    return rc;
}

const struct qqb_reporter qqb_json_reporter = {"JSON", json_emit};
