/* compare_run.h - `qqbench compare A.qq B.qq` (cli/cmd_compare.c): two files key by key. */
#ifndef QQB_COMPARE_RUN_H
#define QQB_COMPARE_RUN_H

/* Files A and B opened and checked (their ticks must be a time), compared
 * by judge/judge_compare.c and printed by report/compare_print.c; ALL also
 * lists the keys whose numbers did not change. The exit status (enum
 * qqb_exit: 2 a file missing or damaged). */
int qqb_compare_run(const char *a, const char *b, int all);

#endif /* QQB_COMPARE_RUN_H */
