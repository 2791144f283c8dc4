/* judge_sig.c - application signatures x machine profiles: predicted against measured per case. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "judge_sig.h"
#include "match.h"
#include "stats.h"

static const char *const FIELDS[QQB_SIG_NFIELDS] = {
    "bytes",    "working_set", "flops",     "messages",  "message_bytes", "instr",     "loads_l1",
    "loads_ll", "loads_mem",   "stores_l1", "stores_ll", "stores_mem",    "dep_loads", "dep_flops"};

static double *field_of(struct qqb_signature *s, size_t f)
{
    double *v[] = {&s->bytes,     &s->working_set, &s->flops,     &s->messages, &s->message_bytes,
                   &s->instr,     &s->loads[0],    &s->loads[1],  &s->loads[2], &s->stores[0],
                   &s->stores[1], &s->stores[2],   &s->dep_loads, &s->dep_flops};
    return v[f];
}

double *qqb_sig_field_ref(struct qqb_signature *s, size_t f, const char **name)
{
    *name = FIELDS[f];
    return field_of(s, f);
}

const char *qqb_sig_field(const struct qqb_signature *s, size_t f, double *v)
{
    *v = *field_of((struct qqb_signature *)s, f);
    return FIELDS[f];
}

static double median_of(const struct qqb_case_result *c, const char *key, const char *what)
{
    const struct qqb_metric *m = c ? qqb_case_find_metric(c, key, what) : NULL;
    return m && m->n ? qqb_median(m->samples, m->n) : NAN;
}

/* Net seconds in state KEY per launch of C: the slowest node's net ticks
 * per interval (QQ's own cost taken out, an interrupt's stretch left out:
 * docs/STATISTICS.md) times its intervals, medians over launches. The
 * signature is the work's, not QQ's timer's: the gross ticks held 66
 * ticks of QQ a chain interval of 44 here. Without those figures, the
 * gross ticks (median; the slowest node). */
static double seconds(const struct qqb_case_result *c, const char *key)
{
    if (!c)
        return NAN;
    double net = median_of(c, key, "per_hit"), n = median_of(c, key, "intervals");
    double t = isfinite(net) && isfinite(n) && n > 0 ? net * n / (c->nodes > 0 ? c->nodes : 1)
                                                     : median_of(c, key, "ticks");
    return c->mhz > 0 ? t / (c->mhz * 1e6) : NAN;
}

static int same_str(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* The case holding KEY's instruction counts: C, else a case of RES with
 * C's benchmark, variant, point and nodes (one measured for instructions).
 * NULL when none. */
static const struct qqb_case_result *instr_case(const struct qqb_results *res,
                                                const struct qqb_case_result *c, const char *key)
{
    if (qqb_case_find_metric(c, key, "instr"))
        return c;
    for (size_t i = 0; res && i < res->ncases; i++) {
        const struct qqb_case_result *o = res->cases[i];
        if (o != c && o->nodes == c->nodes && same_str(o->bench, c->bench) &&
            same_str(o->variant, c->variant) && same_str(o->point, c->point) &&
            qqb_case_find_metric(o, key, "instr"))
            return o;
    }
    return NULL;
}

/* The traced signature of KEY (docs/INSTRUCTIONS.md, callgrind's counts
 * per key per launch, summed over threads and nodes) from C, else from a
 * case of RES measuring the same benchmark, variant, point and nodes for
 * instructions: instructions, and with the cache simulation loads and
 * stores by the level that served them (L1 = dr - d1mr, last level =
 * d1mr - dlmr, memory = dlmr; likewise dw). 1 when some count is there. */
static int traced(const struct qqb_results *res, const struct qqb_case_result *c, const char *key,
                  struct qqb_signature *s)
{
    static const char *const W[] = {"instr", "dr", "d1mr", "dlmr", "dw", "d1mw", "dlmw"};
    double v[7];
    const struct qqb_case_result *from = instr_case(res, c, key);
    if (!from)
        return 0;
    double nodes = c->nodes > 0 ? c->nodes : 1;
    for (size_t w = 0; w < 7; w++)
        v[w] = median_of(from, key, W[w]) / nodes;
    s->instr = isfinite(v[0]) ? v[0] : 0;
    for (int rw = 0; rw < 2; rw++) {
        const double *a = v + 1 + (ptrdiff_t)3 * rw; /* accesses, L1 misses, last-level misses */
        double *out = rw ? s->stores : s->loads;
        if (!(isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2])))
            continue; /* no cache simulation: the level is not known */
        out[QQB_SIG_L1] = fmax(0, a[0] - a[1]);
        out[QQB_SIG_LL] = fmax(0, a[1] - a[2]);
        out[QQB_SIG_MEM] = fmax(0, a[2]);
    }
    return 1;
}

/* The signature of KEY in C: traced (above), then the "sig:KEY:FIELD"
 * counts, per node, which override a traced field. 1 when some field is
 * there; *TRACED 1 when the trace gave some. */
static int signature_of(const struct qqb_results *res, const struct qqb_case_result *c,
                        const char *key, struct qqb_signature *s, int *was_traced)
{
    int any = 0;
    memset(s, 0, sizeof *s);
    *was_traced = traced(res, c, key, s);
    for (size_t f = 0; f < QQB_SIG_NFIELDS; f++) {
        char name[256];
        snprintf(name, sizeof name, QQB_SIG_PREFIX "%s:%s", key, FIELDS[f]);
        double v = median_of(c, name, "sum");
        if (isfinite(v) && v > 0)
            *field_of(s, f) = v / (c->nodes > 0 ? c->nodes : 1);
    }
    for (size_t f = 0; f < QQB_SIG_NFIELDS; f++)
        any |= f != 1 && *field_of(s, f) > 0; /* a working set alone is no work */
    return any;
}

/* The rows of qqb_judge_signatures for the first N cases (BASE_OF: each
 * case's in BASE, when BASE is another machine's). */
static int sig_rows(const struct qqb_plan *p, const struct qqb_results *cur, size_t n,
                    const struct qqb_results *base, const size_t *base_of,
                    const struct qqb_profile *prof, const struct qqb_profile *base_prof,
                    struct qqb_sig_judgement *out)
{
    size_t cap = 0;
    int other = base_of != NULL;
    for (size_t ci = 0; ci < n; ci++) {
        const struct qqb_case_result *c = cur->cases[ci];
        if (p->cases[ci].build != QQB_BUILD_CHANGE)
            continue;
        for (size_t mi = 0; mi < c->nmetrics; mi++) {
            const char *k = c->metrics[mi].key;
            /* a state key (it has ticks) that some "sig:KEY:" count names */
            if (strcmp(c->metrics[mi].what, "ticks") ||
                !strncmp(k, QQB_SIG_PREFIX, sizeof QQB_SIG_PREFIX - 1))
                continue;
            struct qqb_signature s;
            int was_traced;
            if (!signature_of(cur, c, k, &s, &was_traced))
                continue;
            struct qqb_sig_row *rows = qqb_grow(out->rows, out->n, &cap, sizeof *rows, 8);
            if (!rows)
                return -1;
            out->rows = rows;
            struct qqb_sig_row *r = &out->rows[out->n++];
            memset(r, 0, sizeof *r);
            r->case_idx = ci;
            r->case_name = c->name;
            r->key = k;
            r->s = s;
            r->traced = was_traced;
            r->measured = seconds(c, k);
            r->predicted = prof ? qqb_profile_predict(prof, &s, r->parts, &r->bound) : NAN;
            if (!other || !prof || !base_prof)
                continue;
            const struct qqb_case_result *b = qqb_matched(base, base_of, ci);
            r->base_measured = seconds(b, k);
            /* The work is the program's, not the machine's: the current
             * signature on both profiles. */
            r->base_predicted = qqb_profile_predict(base_prof, &s, NULL, NULL);
            r->measured_ratio = r->measured / r->base_measured;
            r->predicted_ratio = r->predicted / r->base_predicted;
            r->explained = log(r->predicted_ratio) / log(r->measured_ratio);
            r->cross = isfinite(r->measured_ratio) && isfinite(r->predicted_ratio);
        }
    }
    return 0;
}

int qqb_judge_signatures(const struct qqb_plan *p, const struct qqb_results *cur,
                         const struct qqb_results *base, const struct qqb_profile *prof,
                         const struct qqb_profile *base_prof, struct qqb_sig_judgement *out)
{
    memset(out, 0, sizeof *out);
    out->profile = prof;
    out->base_profile = base_prof;
    int other = base && strcmp(base->fp.id, cur->fp.id) != 0;
    out->base_id = other ? base->fp.id : NULL;
    size_t n = cur->ncases < p->ncases ? cur->ncases : p->ncases, *base_of = NULL;
    if (other && qqb_match_cases(cur, n, base, &base_of) != 0)
        return -1;
    int rc = sig_rows(p, cur, n, base, base_of, prof, base_prof, out);
    free(base_of);
    return rc;
}
void qqb_sig_judgement_free(struct qqb_sig_judgement *j)
{
    free(j->rows);
    memset(j, 0, sizeof *j);
}

static void fmt_s(char *b, size_t n, double s)
{
    if (!isfinite(s))
        snprintf(b, n, "-");
    else if (s >= 1)
        snprintf(b, n, "%.3g s", s);
    else if (s >= 1e-3)
        snprintf(b, n, "%.3g ms", s * 1e3);
    else
        snprintf(b, n, "%.3g us", s * 1e6);
}

void qqb_sig_judgement_print(FILE *fp, const struct qqb_sig_judgement *j)
{
    if (j->n == 0)
        return;
    if (!j->profile) {
        fprintf(fp,
                "\nSignatures: %zu case key%s report operation counts, but this machine has no "
                "profile (%s): 'qqbench profile-machine' makes one.\n",
                j->n, j->n == 1 ? "" : "s", j->profile_path ? j->profile_path : "none given");
        return;
    }
    fprintf(fp,
            "\nPredicted from the signature x this machine's profile (%s; docs/MODELS.md):\n"
            "  max(memory, flops, latency) + network: loads and stores at their level's\n"
            "  throughput, bytes at their working set's bandwidth; instructions and flops at\n"
            "  their issue rates; dependent loads and flops at their latency; messages x\n"
            "  one-way time\n",
            j->profile->path);
    fprintf(fp, "  %-32s %-10s %10s %10s %8s  %-8s %s\n", "case", "key", "measured", "predicted",
            "error", "bound", "memory / flops / latency / network");
    for (size_t i = 0; i < j->n; i++) {
        const struct qqb_sig_row *r = &j->rows[i];
        char m[32], p[32], part[QQB_NRES][32];
        fmt_s(m, sizeof m, r->measured);
        fmt_s(p, sizeof p, r->predicted);
        for (int k = 0; k < QQB_NRES; k++)
            fmt_s(part[k], sizeof part[k], r->parts[k]);
        fprintf(fp, "  %-32s %-10s %10s %10s %+7.0f%%  %-8s %s / %s / %s / %s%s\n", r->case_name,
                r->key, m, p, 100 * (r->predicted / r->measured - 1),
                qqb_sig_resource_name(r->bound), part[QQB_RES_MEMORY], part[QQB_RES_FLOPS],
                part[QQB_RES_LATENCY], part[QQB_RES_NETWORK], r->traced ? " (traced)" : "");
    }
    size_t ncross = 0;
    for (size_t i = 0; i < j->n; i++)
        ncross += j->rows[i].cross;
    if (j->base_id && !j->base_profile)
        fprintf(fp,
                "  The baseline is machine %s's, which has no profile: the difference between "
                "the machines is not explained.\n",
                j->base_id);
    if (!ncross)
        return;
    fprintf(fp, "How much of the change from machine %s the profiles explain (this / that):\n",
            j->base_id);
    fprintf(fp, "  %-32s %-10s %9s %9s %10s\n", "case", "key", "measured", "predicted",
            "explained");
    for (size_t i = 0; i < j->n; i++) {
        const struct qqb_sig_row *r = &j->rows[i];
        if (!r->cross)
            continue;
        char e[32];
        /* the fraction is ill-conditioned near no change */
        if (fabs(log(r->measured_ratio)) < log(1.05))
            snprintf(e, sizeof e, "-: < 5%% change");
        else
            snprintf(e, sizeof e, "%.0f%%", 100 * r->explained);
        fprintf(fp, "  %-32s %-10s %8.3fx %8.3fx %10s\n", r->case_name, r->key, r->measured_ratio,
                r->predicted_ratio, e);
    }
}
