/* cmd_predict.c - qqbench predict: the options; run/predict_run.c convolves a run's signatures
 * with another machine's profile. */
#include "cmds.h"
#include "opts.h"
#include "predict_run.h"

static const struct qqb_opts_cmd predict_cmd = {
    "predict",
    "usage: qqbench predict --profile OTHER.yaml RUN.json\n\n"
    "Predict a run on another machine: the signatures of RUN.json (written\n"
    "by 'qqbench run --json') convolved with OTHER.yaml (a profile written\n"
    "by 'qqbench profile-machine' there), beside the prediction on the\n"
    "run's own profile and the ratio of the two (docs/MODELS.md).\n\n",
    "\nExit: 0, 2 for bad usage or a file that cannot be read.\n"};

int cmd_predict(int argc, char **argv)
{
    const char *profile = NULL, *run = NULL;
    const struct qqb_opt table[] = {
        QQB_OPT_STRING("--profile", "OTHER.yaml", &profile, "the other machine's profile"),
        QQB_OPT_POSITIONAL("RUN.json", &run),
        QQB_OPT_END,
    };
    int prc = qqb_opts_parse(&predict_cmd, table, argc, argv, NULL);
    if (prc != 0)
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    if (!profile || !run) {
        qqb_opts_error(&predict_cmd, "give --profile OTHER.yaml and a RUN.json");
        return QQB_EXIT_USAGE;
    }
    return qqb_predict_run(run, profile);
}
