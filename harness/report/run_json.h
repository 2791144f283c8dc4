/* run_json.h - the run JSON (`qqbench run --json`) described once: the fields of a run, a case,
 * a metric, a memory row, a comparison and a memory change; one writer and one reader that
 * validates, both driven by the same lists. */
#ifndef QQB_RUN_JSON_H
#define QQB_RUN_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "judge_model.h"
#include "judge_sig.h"
#include "judge_tune.h"

/*
 * The schema. Each list below is the one description of an object of the
 * run JSON: X(TYPE, member, "json name", ARG), in the order the writer
 * writes them. The structs are made from the lists, and so are the writer
 * and the reader (run_json.c), so a new field is one line in its list plus
 * its use (docs/REPORTS.md has an example).
 *
 * TYPE and what the member is:
 *   STR   const char *      string or null; ARG: QQB_RJ_* flags below
 *   ENUM  const char *      string or null, one of a closed set or the file
 *                           is refused; ARG: the set's name (kind:
 *                           QQB_RUN_KINDS)
 *   NUM   double            number; NaN written as null, null read as NaN;
 *                           ARG: QQB_RJ_OPT or 0
 *   INT   long long         integer; ARG: the value when absent or not a
 *                           number (a real is read truncated)
 *   BOOL  int               true/false; ARG: the value when absent
 *   TRI   int               true/false/null as 1/0/-1 (ARG unused)
 *   NUMS  double *, n_M     array of numbers, NaN for null (and for
 *                           anything not a number when read); ARG: flags
 *   STRS  const char **, n_M  array of strings (others are left out);
 *                           ARG: QQB_RJ_OPT or 0
 *   OBJ   struct qqb_run_ARG M, int has_M   an object
 *   ARR   struct qqb_run_ARG *M, size_t n_M  an array of objects
 *   OARR  the same, written only when it has an element
 *   JSON  json_t *          a part kept as it is, written only when not
 *                           NULL: models and signatures (written by
 *                           qqb_model_judgement_json, qqb_sig_judgement_json
 *                           below), profiles (store/profile.c's)
 *
 * Strings of a run read by qqb_run_read point into its document (RUN->doc);
 * a run made by the writer's caller borrows them. Only arrays are owned.
 */
#define QQB_RJ_PLAIN 0x01u /* a plain name (util/names.h) or the file is refused */
#define QQB_RJ_TEXT  0x02u /* a text name (util/names.h) or the file is refused */
#define QQB_RJ_KEEP  0x04u /* an array element without it is left out when read */
#define QQB_RJ_MUST  0x08u /* an array element without it refuses the file */
#define QQB_RJ_OPT                                                                                 \
    0x10u /* written only when present (STR, NUM, NUMS, STRS: fields                               \
             read from older or other writers, or that only some runs have) */
#define QQB_RJ_ABSENT (-0x7fffffffffffffffLL - 1) /* an INT default: "not in the file" */

/* A comparison's kinds (comparisons[].kind, memory_changes[].kind): against
 * the baseline, between variants, against the reference build (report_json.c's
 * kind_name). A kind is a closed set: any other value refuses the file, as
 * it reaches headings, file names and the page. */
#define QQB_RUN_KINDS "baseline", "ab", "build"

/* One memory key (results.h struct qqb_mem). */
#define QQB_RUN_MEM_FIELDS(X)                                                                      \
    X(STR, key, "key", QQB_RJ_TEXT | QQB_RJ_KEEP)                                                  \
    X(INT, obj_size, "obj_size", QQB_RJ_ABSENT)                                                    \
    X(INT, created, "created", QQB_RJ_ABSENT)                                                      \
    X(INT, deleted, "deleted", QQB_RJ_ABSENT)                                                      \
    X(INT, obj_bytes, "obj_bytes", QQB_RJ_ABSENT)                                                  \
    X(INT, alloc_bytes, "alloc_bytes", QQB_RJ_ABSENT)                                              \
    X(INT, peak_bytes, "peak_bytes", QQB_RJ_ABSENT)                                                \
    X(NUM, peak_low, "peak_low", QQB_RJ_OPT) /* only where the peak is bounds (threads) */

/* One metric of a key: its summaries and every launch's sample. */
#define QQB_RUN_METRIC_FIELDS(X)                                                                   \
    X(STR, key, "key", QQB_RJ_TEXT | QQB_RJ_KEEP)                                                  \
    X(STR, what, "what", QQB_RJ_TEXT | QQB_RJ_KEEP)                                                \
    X(NUM, median, "median", 0)                                                                    \
    X(NUM, mad, "mad", 0)                                                                          \
    X(NUM, min, "min", 0)                                                                          \
    X(NUM, noise_pct, "noise_pct", 0)                                                              \
    X(NUMS, samples, "samples", 0)

/* One thread of a node in a threaded case (results.h struct
 * qqb_thread_row): written only for cases whose launches had threads. */
#define QQB_RUN_THREAD_FIELDS(X)                                                                   \
    X(INT, node, "node", 0)                                                                        \
    X(INT, thread, "thread", 0)                                                                    \
    X(INT, tid, "tid", 0)                                                                          \
    X(STR, name, "name", QQB_RJ_TEXT)                                                              \
    X(INT, events, "events", 0)                                                                    \
    X(INT, dropped, "dropped", 0)                                                                  \
    X(ARR, metrics, "metrics", metric)

/* One case: benchmark x variant x node count x point. */
#define QQB_RUN_CASE_FIELDS(X)                                                                     \
    X(STR, name, "name", QQB_RJ_TEXT | QQB_RJ_MUST)                                                \
    X(STR, bench, "bench", QQB_RJ_PLAIN)                                                           \
    X(STR, variant, "variant", QQB_RJ_PLAIN)                                                       \
    X(STR, point, "point", QQB_RJ_TEXT)                                                            \
    X(INT, nodes, "nodes", 1)                                                                      \
    X(NUM, tick_mhz, "tick_mhz", 0)                                                                \
    X(INT, launches, "launches", 0)                                                                \
    X(STRS, command, "command", 0)                                                                 \
    X(STR, build_id, "build_id", QQB_RJ_OPT)                                                       \
    X(STRS, compiler, "compiler", QQB_RJ_OPT)                                                      \
    X(STRS, producer, "producer", QQB_RJ_OPT)                                                      \
    X(BOOL, failed, "failed", 0)                                                                   \
    X(STR, note, "note", 0)                                                                        \
    X(STR, metric, "metric", QQB_RJ_OPT | QQB_RJ_PLAIN)                                            \
    X(ARR, metrics, "metrics", metric)                                                             \
    X(ARR, memory, "memory", mem)                                                                  \
    X(OARR, threads, "threads", thread)

/* One timing comparison (judge.h struct qqb_cmp). "note", "reason" and
 * "baseline_samples" are read when present (hand-made or older reports),
 * never written by qqbench. */
#define QQB_RUN_CMP_FIELDS(X)                                                                      \
    X(STR, case_name, "case", QQB_RJ_TEXT | QQB_RJ_KEEP)                                           \
    X(STR, key, "key", QQB_RJ_TEXT | QQB_RJ_KEEP)                                                  \
    X(ENUM, kind, "kind", kind)                                                                    \
    X(STR, reference, "reference", QQB_RJ_TEXT)                                                    \
    X(BOOL, paired, "paired", 0)                                                                   \
    X(INT, noisy_runs, "noisy_runs", 0)                                                            \
    X(NUM, baseline_cycles, "baseline_cycles_per_hit", 0)                                          \
    X(NUM, current_cycles, "current_cycles_per_hit", 0)                                            \
    X(NUM, baseline_ns, "baseline_ns_per_hit", 0)                                                  \
    X(NUM, current_ns, "current_ns_per_hit", 0)                                                    \
    X(NUM, change_pct, "change_pct", 0)                                                            \
    X(NUM, lo_pct, "interval_lo_pct", 0)                                                           \
    X(NUM, hi_pct, "interval_hi_pct", 0)                                                           \
    X(BOOL, interval_ok, "interval_ok", 0)                                                         \
    X(NUM, confidence, "confidence", 0)                                                            \
    X(NUM, p_value, "p_value", 0)                                                                  \
    X(NUM, threshold_pct, "threshold_pct", 0)                                                      \
    X(STR, threshold_from, "threshold_from", 0)                                                    \
    X(NUM, mde, "mde", QQB_RJ_OPT) /* caught 9 in 10 (judge.h mde_pct); only where known */        \
    X(NUM, noise_pct, "noise_pct", 0)                                                              \
    X(STR, noise_from, "noise_from", 0)                                                            \
    X(INT, baseline_runs, "baseline_runs", 0)                                                      \
    X(NUM, run_to_run_pct, "run_to_run_pct", 0)                                                    \
    X(NUM, run_bound_pct, "run_bound_pct", 0)                                                      \
    X(INT, pairs, "pairs", 0)                                                                      \
    X(INT, rounds, "rounds", 0)                                                                    \
    X(STR, verdict_alone, "verdict_alone", 0)                                                      \
    X(NUM, level, "level", 0)                                                                      \
    X(TRI, holm, "holm", 0)                                                                        \
    X(STR, machine_check, "machine_check", 0)                                                      \
    X(STR, machine_check_note, "machine_check_note", 0)                                            \
    X(BOOL, command_differs, "command_differs", 0)                                                 \
    X(STR, why, "why", 0)                                                                          \
    X(STR, seen_by, "seen_by", QQB_RJ_OPT) /* a blind row: the gate that could see it */           \
    X(NUM, counter_step, "counter_step_ticks", 0)                                                  \
    X(INT, below_resolution, "figures_below_resolution", 0)                                        \
    X(NUM, dropped_events, "dropped_events", 0)                                                    \
    X(NUM, machine_pct, "machine_change_pct", 0)                                                   \
    X(NUM, norm_pct, "normalized_change_pct", 0)                                                   \
    X(BOOL, machine_moved, "machine_moved", 0)                                                     \
    X(STR, ref_guard, "reference_guard", QQB_RJ_OPT) /* a guard of the figure per reference */     \
    X(NUM, ref_guard_pct, "reference_guard_pct", QQB_RJ_OPT)                                       \
    X(STR, verdict, "verdict", QQB_RJ_TEXT)                                                        \
    X(INT, look, "look", 0)                                                                        \
    X(INT, looks, "looks", 0)                                                                      \
    X(INT, plan_launches, "plan_launches", 0)                                                      \
    X(INT, need_launches, "need_launches", 0)                                                      \
    X(INT, need_runs, "need_runs", 0)                                                              \
    X(NUM, count_base, "intervals_per_launch_before", 0)                                           \
    X(NUM, count_cur, "intervals_per_launch_after", 0)                                             \
    X(NUM, count_pct, "count_change_pct", 0)                                                       \
    X(NUM, cost_part_pct, "cost_part_pct", 0)                                                      \
    X(STR, note, "note", QQB_RJ_OPT)                                                               \
    X(STR, reason, "reason", QQB_RJ_OPT)                                                           \
    X(NUMS, baseline_samples, "baseline_samples", QQB_RJ_OPT)

/* One memory key whose numbers moved (judge.h struct qqb_memcmp). */
#define QQB_RUN_MEMCHG_FIELDS(X)                                                                   \
    X(STR, case_name, "case", QQB_RJ_TEXT | QQB_RJ_KEEP)                                           \
    X(STR, key, "key", QQB_RJ_TEXT | QQB_RJ_KEEP)                                                  \
    X(ENUM, kind, "kind", kind)                                                                    \
    X(STR, reference, "reference", QQB_RJ_TEXT)                                                    \
    X(OBJ, before, "before", mem)                                                                  \
    X(OBJ, after, "after", mem)                                                                    \
    X(INT, verdict, "verdict", 0)                                                                  \
    X(BOOL, unchanged, "unchanged", 0) /* a gated key whose numbers did not move */

/* One verdict on counts (judge.h struct qqb_countcmp): a key's calls per
 * launch or instructions per hit; before/after are null where the
 * launches of a side disagree (non-deterministic: their spread instead). */
#define QQB_RUN_COUNT_FIELDS(X)                                                                    \
    X(STR, case_name, "case", QQB_RJ_TEXT | QQB_RJ_KEEP)                                           \
    X(STR, key, "key", QQB_RJ_TEXT | QQB_RJ_KEEP)                                                  \
    X(ENUM, kind, "kind", kind)                                                                    \
    X(STR, reference, "reference", QQB_RJ_TEXT)                                                    \
    X(ENUM, figure, "figure", figure)                                                              \
    X(STR, metric, "metric", QQB_RJ_TEXT)                                                          \
    X(BOOL, exact, "exact", 0)                                                                     \
    X(NUM, before, "before", 0)                                                                    \
    X(NUM, after, "after", 0)                                                                      \
    X(NUM, before_min, "before_min", 0)                                                            \
    X(NUM, before_max, "before_max", 0)                                                            \
    X(NUM, after_min, "after_min", 0)                                                              \
    X(NUM, after_max, "after_max", 0)                                                              \
    X(NUM, delta, "delta", 0)                                                                      \
    X(NUM, change_pct, "change_pct", 0)                                                            \
    X(NUM, lo_pct, "interval_lo_pct", 0)                                                           \
    X(NUM, hi_pct, "interval_hi_pct", 0)                                                           \
    X(NUM, threshold_pct, "threshold_pct", 0)                                                      \
    X(STR, verdict, "verdict", QQB_RJ_TEXT)                                                        \
    X(BOOL, gated, "gated", 0)                                                                     \
    X(STR, cycles_verdict, "cycles_verdict", 0)                                                    \
    X(NUM, total_before, "total_per_launch_before", 0)                                             \
    X(NUM, total_after, "total_per_launch_after", 0)                                               \
    X(NUM, count_part, "count_part", 0)                                                            \
    X(NUM, cost_part, "cost_part", 0)                                                              \
    X(STR, why, "why", 0)

/* A verdict on counts' figures (count_comparisons[].figure). */
#define QQB_RUN_FIGURES "calls", "instructions"

/* The machine (results.h struct qqb_fingerprint). */
#define QQB_RUN_FP_FIELDS(X)                                                                       \
    X(STR, id, "id", 0)                                                                            \
    X(STR, cpu, "cpu", 0)                                                                          \
    X(NUM, tick_mhz, "tick_mhz", 0)                                                                \
    X(BOOL, invariant, "invariant", 0)                                                             \
    X(INT, cores, "cores", 0)                                                                      \
    X(STR, compiler, "compiler", 0)                                                                \
    X(STR, flags, "flags", 0)

/* The run. */
#define QQB_RUN_FIELDS(X)                                                                          \
    X(STR, suite, "suite", QQB_RJ_PLAIN)                                                           \
    X(STR, date, "date", 0)                                                                        \
    X(STR, version, "qqbench_version", 0)                                                          \
    X(STR, commit, "git_commit", 0)                                                                \
    X(STR, baseline, "baseline", 0)                                                                \
    X(BOOL, baseline_other, "baseline_other_machine", 0)                                           \
    X(STR, baseline_other_build, "baseline_other_build", QQB_RJ_OPT) /* kernels built otherwise */ \
    X(STR, against, "against", 0)                                                                  \
    X(STR, memory_baseline, "memory_baseline", 0)                                                  \
    X(STR, gated_note, "gated_note", 0)                                                            \
    X(OBJ, fingerprint, "fingerprint", fp)                                                         \
    X(ARR, cases, "cases", case)                                                                   \
    X(ARR, comparisons, "comparisons", cmp)                                                        \
    X(ARR, memory_changes, "memory_changes", memchg)                                               \
    X(OARR, count_comparisons, "count_comparisons", count)                                         \
    X(JSON, models, "models", 0)                                                                   \
    X(JSON, signatures, "signatures", 0)                                                           \
    X(JSON, profile, "profile", 0)                                                                 \
    X(JSON, baseline_profile, "baseline_profile", 0)                                               \
    X(JSON, tunes, "tunes", 0) /* QQTune's choices (docs/TUNE.md) */                               \
    X(INT, kernel_failures, "kernel_failures", 0)                                                  \
    X(INT, family_size, "family_size", 0)                                                          \
    X(INT, round_order_seed, "round_order_seed", 0)                                                \
    X(INT, passes, "passes", 1)                  /* passes over the suite; older runs made one */  \
    X(STR, run_figure, "run_figure", QQB_RJ_OPT) /* baseline rows' figure, section 19 */           \
    X(NUM, reference_ratio, "reference_variance_ratio", QQB_RJ_OPT)                                \
    X(INT, exit_code, "exit_code", -1)

/* The members each TYPE makes. */
#define QQB_RJ_M_STR(m, a)  const char *m;
#define QQB_RJ_M_ENUM(m, a) const char *m;
#define QQB_RJ_M_NUM(m, a)  double m;
#define QQB_RJ_M_INT(m, a)  long long m;
#define QQB_RJ_M_BOOL(m, a) int m;
#define QQB_RJ_M_TRI(m, a)  int m;
#define QQB_RJ_M_NUMS(m, a)                                                                        \
    double *m;                                                                                     \
    size_t n_##m;
#define QQB_RJ_M_STRS(m, a)                                                                        \
    const char **m;                                                                                \
    size_t n_##m;
#define QQB_RJ_M_OBJ(m, a)                                                                         \
    struct qqb_run_##a m;                                                                          \
    int has_##m;
#define QQB_RJ_M_ARR(m, a)                                                                         \
    struct qqb_run_##a *m;                                                                         \
    size_t n_##m;
#define QQB_RJ_M_OARR(m, a)          QQB_RJ_M_ARR(m, a)
#define QQB_RJ_M_JSON(m, a)          json_t *m;
#define QQB_RJ_MEMBER(T, m, name, a) QQB_RJ_M_##T(m, a)

struct qqb_run_mem {
    QQB_RUN_MEM_FIELDS(QQB_RJ_MEMBER)
};
struct qqb_run_metric {
    QQB_RUN_METRIC_FIELDS(QQB_RJ_MEMBER)
};
struct qqb_run_thread {
    QQB_RUN_THREAD_FIELDS(QQB_RJ_MEMBER)
};
struct qqb_run_case {
    QQB_RUN_CASE_FIELDS(QQB_RJ_MEMBER)
};
struct qqb_run_cmp {
    QQB_RUN_CMP_FIELDS(QQB_RJ_MEMBER)
};
struct qqb_run_memchg {
    QQB_RUN_MEMCHG_FIELDS(QQB_RJ_MEMBER)
};
struct qqb_run_count {
    QQB_RUN_COUNT_FIELDS(QQB_RJ_MEMBER)
};
struct qqb_run_fp {
    QQB_RUN_FP_FIELDS(QQB_RJ_MEMBER)
};
struct qqb_run {
    QQB_RUN_FIELDS(QQB_RJ_MEMBER)
    json_t *doc; /* the parsed file the strings point into (read runs), or NULL */
};

/*
 * Read PATH into RUN (zeroed first). Refused (-1, one line in ERR) when the
 * file does not parse ("PATH:LINE:COLUMN: error: ..."), is not an object
 * with a "cases" array, a case has no "name", a name fails its rule of
 * util/names.h ("PATH: error: cases[3].variant: the name ... ") or an ENUM
 * is not one of its values ("comparisons[0].kind: '...' is not one of its
 * values; expected one of ..."): a run JSON
 * may come from another machine's job or a pull request, and its names go
 * into file names, scripts and pages. Otherwise lenient: unknown fields are
 * ignored, a field of another type reads as absent, array elements without
 * a KEEP field are left out. 0 on success; free with qqb_run_free.
 */
int qqb_run_read(const char *path, struct qqb_run *run, char *err, size_t errlen);

/* RUN as JSON text (indent 2, reals to 17 digits), malloc'd; NULL when out
 * of memory. */
char *qqb_run_dumps(const struct qqb_run *run);

/* Free what RUN owns (its arrays and document), not borrowed strings or
 * JSON parts of a run the caller made (the caller releases those). */
void qqb_run_free(struct qqb_run *run);

/* One fit as JSON: coefficients, standard errors, chi2, dof, R2 and every
 * point with its spread and fitted value (the "current" and "baseline" of a
 * row of the array below). */
json_t *qqb_model_fit_json(const struct qqb_model *m, const struct qqb_fit *f,
                           const struct qqb_model_points *p);
/* The fits as a JSON array ("models" of the run's JSON; pictures_model.c
 * draws it). */
json_t *qqb_model_judgement_json(const struct qqb_model_judgement *j);
/* The signatures x profiles as a JSON array ("signatures" of the run's JSON). */
json_t *qqb_sig_judgement_json(const struct qqb_sig_judgement *j);
/* QQTune's choices as a JSON array ("tunes" of the run's JSON; tune_json.c). */
json_t *qqb_tune_judgement_json(const struct qqb_tune_judgement *j);

/* A row of "models" (qqb_model_judgement_json) read back: its formula and
 * series (NULL when not strings), its current and baseline fits (NULL when
 * not objects). */
void qqb_run_model_row(const json_t *row, const char **formula, const char **series,
                       const json_t **cur, const json_t **base);
/* A point of a fit as qqb_model_fit_json writes it: the parameters' values
 * (the model's order), the measured mean, its spread (0 when null) and
 * the fitted value. */
struct qqb_run_fit_point {
    double x[QQB_MODEL_MAX_PARAMS];
    double y, sigma, fit;
};
/* The fit FIT (a "current" or "baseline" object of a "models" row) of
 * model M read back: its coefficients into F (F->p set, the rest 0), the
 * first MAX of its points into PTS (*NPTS of them; a field that is no
 * number reads 0). -1 when FIT has no array of M's nterms coefficients
 * (nothing read), else 0. */
int qqb_run_model_fit_read(const json_t *fit, const struct qqb_model *m, struct qqb_fit *f,
                           struct qqb_run_fit_point *pts, size_t max, size_t *npts);

#endif /* QQB_RUN_JSON_H */
