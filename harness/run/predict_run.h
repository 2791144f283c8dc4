/* predict_run.h - qqbench predict: a run's signatures on another machine's profile
 * (docs/MODELS.md). */
#ifndef QQB_PREDICT_RUN_H
#define QQB_PREDICT_RUN_H

/* Read RUN_PATH (a 'qqbench run --json' report) and PROFILE_PATH (a
 * profile.yaml), print per signed key the run's measured time, the
 * prediction on the run's own profile (the report's "profile"), on
 * PROFILE_PATH's, and their ratio. Returns the exit code: 0, or 2 with
 * one line "PATH:...: error: ..." for a file that cannot be read or
 * holds a figure out of range. */
int qqb_predict_run(const char *run_path, const char *profile_path);

#endif /* QQB_PREDICT_RUN_H */
