/* profile_machine.h - qqbench profile-machine: this machine's rates (timer, memory, flops, MPI)
 * as profile.yaml (docs/MODELS.md). */
#ifndef QQB_PROFILE_MACHINE_H
#define QQB_PROFILE_MACHINE_H

struct qqb_profile_machine_opts {
    const char *out, *helper, *bdir, *plot, *launcher;
    int quick, mpi, plan; /* plan: print what would be measured and its bound, measure nothing */
};

/* Measure, write O->out (NULL: BASELINES/ID/profile.yaml, made; "-":
 * stdout; checked writable before a minute of measuring), draw it into
 * O->plot, and say what was measured on stderr. O->helper NULL: qqb_pingpong
 * next to this qqbench. Returns the exit code (enum qqb_exit): 0; 2 bad
 * usage or an unwritable file; 3 the MPI helper failed (the rest of the
 * profile is still written). */
int qqb_profile_machine(const struct qqb_profile_machine_opts *o);

#endif /* QQB_PROFILE_MACHINE_H */
