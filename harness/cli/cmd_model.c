/* cmd_model.c - qqbench model: the options; run/model_run.c fits, predicts and judges growth
 * (qqb_model_run). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmds.h"
#include "model_run.h"
#include "opts.h"
#include "pipeline.h"

/* The usage's prose around the option lines, which the table in
 * parse_opts generates. */
static const struct qqb_opts_cmd model_cmd = {
    "model",
    "usage: qqbench model --model FORMULA [options] RESULT.json\n"
    "       qqbench model --model FORMULA --baseline OLD.json [options] NEW.json\n"
    "       qqbench model --model FORMULA --bigsim FILE [options]\n\n"
    "Fit a performance model by weighted linear least squares (GSL) to the\n"
    "cases of a params sweep ('qqbench run --json') or to BigSim's\n"
    "TRACEBIGSIM lines, per benchmark, variant and key (per event name for\n"
    "BigSim), and print coefficients with standard errors, chi2 and R2.\n\n"
    "FORMULA is a sum of terms: 1, a parameter (n), a power (n^2), a product\n"
    "(n*m), log(n) (base 2), n*log(n); 'nodes' is the node count; BigSim's\n"
    "parameters are p1..p20 by position: \"1 + p1 + p1^2 + p2\".\n\n"
    "options:\n",
    "\nPoints: every launch of a case (every BigSim record) is one observation;\n"
    "observations at the same parameter point form a point, its value their\n"
    "mean and its weight 1/sigma^2 with sigma the spread of the mean\n"
    "(sd/sqrt(k), at least 0.1% of the mean). A point with a single\n"
    "observation makes the fit unweighted. Standard errors are scaled by\n"
    "max(1, chi2/dof).\n\n"
    "Exit: 0; 1 a growth regression (with --baseline); 2 bad input or a\n"
    "series that cannot be fitted.\n"};

/* The options and the input file into O: as qqb_opts_parse
 * returns (1 the usage printed, -1 an error printed), the lists in O
 * allocated either way. */
static int parse_opts(int argc, char **argv, struct qqb_model_opts *o)
{
    static const char *const metrics[] = {"per_hit", "ticks", "mean_hit", NULL};
    const struct qqb_opt table[] = {
        QQB_OPT_STRING("--model", "F", &o->formula, "the formula (required)"),
        QQB_OPT_CHOICE("--metric", "M", &o->metric, metrics,
                       "per_hit (default: net ticks per hit), ticks (ticks\n"
                       "in the state, slowest node) or mean_hit"),
        QQB_OPT_LIST("--key", "K", &o->keys, &o->nkeys, 32,
                     "fit only this key (repeatable; default all state keys)"),
        QQB_OPT_LIST("--bench", "B", &o->benches, &o->nbenches, 32,
                     "fit only this benchmark (repeatable)"),
        QQB_OPT_LIST("--predict", "P=V,...", &o->predict, &o->npredict, 32,
                     "predict at this point (repeatable)"),
        {.kind = QQB_OPTK_DOUBLE,
         .name = "--confidence",
         .arg = "C",
         .value = &o->confidence,
         .min = 0,
         .max = 1,
         .flags = QQB_OPT_ABOVE_MIN | QQB_OPT_BELOW_MAX,
         .expect = "a number above 0 and below 1",
         .help = "of the prediction intervals (default 0.95)"},
        QQB_OPT_STRING("--baseline", "OLD", &o->baseline,
                       "also fit OLD.json and flag a change of growth"),
        QQB_OPT_DOUBLE("--sigmas", "K", &o->sigmas, 0, HUGE_VAL, QQB_OPT_ABOVE_MIN,
                       "a coefficient 'grew' when it rose by more than K\n"
                       "combined standard errors (default 3)"),
        QQB_OPT_DOUBLE("--threshold", "PCT", &o->threshold, 0, HUGE_VAL, 0,
                       "a lower-order term must also change the largest\n"
                       "measured point by PCT% (default 2)"),
        QQB_OPT_STRING("--bigsim", "FILE", &o->bigsim,
                       "read TRACEBIGSIM lines instead of a JSON report"),
        QQB_OPT_DOUBLE("--dilation", "F", &o->dilation, 0, HUGE_VAL, QQB_OPT_ABOVE_MIN,
                       "multiply every duration by F (BigSim's model 1:\n"
                       "a target machine F times slower)"),
        QQB_OPT_FLAG("--unweighted", 0, &o->unweighted, "ordinary least squares"),
        QQB_OPT_STRING("--plot", "DIR", &o->plot,
                       "draw each series: the points with their spread, the\n"
                       "fitted curve (the baseline's in grey), the residuals\n"
                       "(gnuplot: .dat, .gp, SVG, PNG; model_N)"),
        QQB_OPT_POSITIONAL("RESULT.json", &o->input),
        QQB_OPT_END,
    };
    int rc = qqb_opts_parse(&model_cmd, table, argc, argv, NULL);
    if (rc != 0)
        return rc;
    if (!o->formula) {
        qqb_opts_error(&model_cmd, "--model FORMULA is required");
        return -1;
    }
    if (o->bigsim ? (o->input || o->baseline) : !o->input) {
        fprintf(stderr, "qqbench model: error: give a RESULT.json, or "
                        "--bigsim FILE alone\n");
        return -1;
    }
    return 0;
}

int cmd_model(int argc, char **argv)
{
    struct qqb_model_opts o = {0};
    o.metric = "per_hit";
    o.confidence = 0.95;
    o.sigmas = 3;
    o.threshold = 2;
    o.dilation = 1;
    int prc = parse_opts(argc, argv, &o);
    int rc = prc > 0 ? QQB_EXIT_OK : prc < 0 ? QQB_EXIT_USAGE : qqb_model_run(&o);
    free(o.keys);
    free(o.benches);
    free(o.predict);
    return rc;
}
