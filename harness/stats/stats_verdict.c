/* stats_verdict.c - verdicts: their names, the rule on an interval and a
 * threshold (plain, guarded, symmetric on the log scale, hidden by noise),
 * the threshold itself and the exact memory verdict. */
#include "stats.h"

#include <math.h>

/* ---------------------------------------------------------------------
 * Verdicts
 * --------------------------------------------------------------------- */

const char *qqb_verdict_name(enum qqb_verdict v)
{
    switch (v) {
    case QQB_UNCHANGED:
        return "unchanged";
    case QQB_IMPROVED:
        return "improved";
    case QQB_REGRESSED:
        return "regressed";
    case QQB_NOISY:
        return "noisy";
    case QQB_UNRESOLVED:
        return "unresolved";
    case QQB_INCOMPLETE:
        return "incomplete";
    case QQB_BLIND:
        return "blind";
    case QQB_NVERDICTS:
        break;
    }
    return "?";
}

enum qqb_verdict qqb_verdict_of(const struct qqb_change *c, double threshold_pct)
{
    if (!c || c->status != QQB_CHANGE_OK || !c->ci_ok || isnan(c->lo) || isnan(c->hi) ||
        isnan(threshold_pct))
        return QQB_NOISY;
    double t = fabs(threshold_pct);
    if (c->lo > t)
        return QQB_REGRESSED;
    if (c->hi < -t)
        return QQB_IMPROVED;
    if (c->lo >= -t && c->hi <= t)
        return QQB_UNCHANGED;
    return QQB_NOISY;
}

enum qqb_verdict qqb_verdict_guarded(const struct qqb_change *c, double threshold_pct)
{
    if (!c)
        return QQB_NOISY;
    /* Paired: a shift common to both members cancels in the ratios. */
    if (!c->paired && !(c->level_shift < QQB_LEVEL_SHIFT_RATIO))
        return QQB_NOISY;
    return qqb_verdict_of(c, threshold_pct);
}

double qqb_threshold(double fixed_pct, double noise_multiple, double baseline_noise_pct)
{
    double floor_pct = fixed_pct > 0.0 ? fixed_pct : 0.0; /* NaN -> 0 */
    if (noise_multiple > 0.0 && isfinite(noise_multiple) && isfinite(baseline_noise_pct) &&
        baseline_noise_pct >= 0.0) {
        double k = noise_multiple * baseline_noise_pct;
        return k > floor_pct ? k : floor_pct;
    }
    return floor_pct;
}

int qqb_mem_verdict(uint64_t base, uint64_t cur, uint64_t tolerance)
{
    if (cur > base && cur - base > tolerance)
        return 1;
    if (base > cur && base - cur > tolerance)
        return -1;
    return 0;
}

/* ---------------------------------------------------------------------
 * Symmetric verdicts, run-to-run spread, pair noise.
 * --------------------------------------------------------------------- */

enum qqb_verdict qqb_verdict_sym(const struct qqb_change *c, double threshold_pct)
{
    if (!c || c->status != QQB_CHANGE_OK || !c->ci_ok || isnan(c->lo) || isnan(c->hi) ||
        isnan(threshold_pct))
        return QQB_NOISY;
    double t = fabs(threshold_pct);
    double down = 100.0 * (1.0 / (1.0 + t / 100.0) - 1.0);
    if (c->lo > t)
        return QQB_REGRESSED;
    if (c->hi < down)
        return QQB_IMPROVED;
    if (c->lo >= down && c->hi <= t)
        return QQB_UNCHANGED;
    return QQB_NOISY;
}

enum qqb_verdict qqb_verdict_hidden(const struct qqb_change *c, double t, double hide)
{
    enum qqb_verdict v = qqb_verdict_sym(c, t);
    if (v == QQB_NOISY && hide > fabs(t) && qqb_verdict_sym(c, hide) == QQB_UNCHANGED)
        return QQB_BLIND;
    return v;
}
