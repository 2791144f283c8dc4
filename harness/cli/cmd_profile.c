/* cmd_profile.c - qqbench profile-machine: the options; run/profile_machine.c measures this
 * machine's rates (timer, memory, flops, MPI) into profile.yaml. */
#include "cmds.h"
#include "opts.h"
#include "profile_machine.h"

/* The usage's prose around the option lines, which the table in
 * cmd_profile generates. */
static const struct qqb_opts_cmd profile_cmd = {
    "profile-machine",
    "usage: qqbench profile-machine [--out PROFILE.yaml] [options]\n\n"
    "Measure this machine's rates (Snavely's machine profile) and write them\n"
    "as YAML: the cost of a counter read, memory bandwidth (a streaming sum)\n"
    "and latency (a dependent pointer chase over a pseudo-random cycle) over\n"
    "working sets from 8 KiB to twice the last-level cache (the curve\n"
    "shows the cache levels), a floating-point rate (independent\n"
    "multiply-adds), and MPI ping-pong latency and bandwidth between 2 ranks\n"
    "over message sizes (mpirun --oversubscribe -np 2 qqb_pingpong).\n"
    "Every figure is the best of several trials: interference only adds time.\n\n",
    "\nExit: 0, 2 for bad usage or an unwritable file, 3 when the MPI\n"
    "helper fails (the rest of the profile is still written).\n"};

int cmd_profile(int argc, char **argv)
{
    struct qqb_profile_machine_opts o = {.launcher = "mpirun --oversubscribe -np 2", .mpi = 1};
    const struct qqb_opt table[] = {
        QQB_OPT_STRING("--out", "FILE", &o.out,
                       "where to write ('-' for stdout); default: beside\n"
                       "this machine's baselines, BASELINES/ID/profile.yaml,\n"
                       "where 'qqbench run' finds it (written atomically)"),
        QQB_OPT_STRING("--baselines", "DIR", &o.bdir,
                       "the baselines folder (default: baselines/ at the\n"
                       "root of the git checkout holding the current\n"
                       "folder, else ./baselines)"),
        QQB_OPT_STRING("--plot", "DIR", &o.plot,
                       "also draw the profile: bandwidth and latency against\n"
                       "the working set, MPI time and bandwidth against the\n"
                       "message size (gnuplot: data, .gp, SVG, PNG)"),
        QQB_OPT_FLAG("--quick", 0, &o.quick,
                     "fewer sizes and trials: the levels' sets (at most\n"
                     "15 s at machine.c's worst prices, see --plan)"),
        QQB_OPT_FLAG("--plan", 0, &o.plan,
                     "print what would be measured, counted, and the\n"
                     "seconds it takes at most; measure nothing"),
        QQB_OPT_FLAG_OFF("--no-mpi", &o.mpi, "skip the MPI ping-pong"),
        QQB_OPT_STRING("--mpi-helper", "PATH", &o.helper,
                       "the ping-pong program (default: qqb_pingpong\n"
                       "next to qqbench)"),
        QQB_OPT_STRING("--launcher", "CMD", &o.launcher,
                       "default \"mpirun --oversubscribe -np 2\""),
        QQB_OPT_END,
    };
    int prc = qqb_opts_parse(&profile_cmd, table, argc, argv, NULL);
    if (prc != 0)
        return prc > 0 ? QQB_EXIT_OK : QQB_EXIT_USAGE;
    return qqb_profile_machine(&o);
}
