/* qq_keys.c - key registration: the time to register --size distinct names with QQAddMark and with
 * MemAddKey, and to register them again, from empty tables. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qq.h"
#include "kio.h"
#include "qq_mem.h" /* MemAddKey only: this file allocates nothing itself */

#define PROG "qq_keys"

/*
 * The key tables only grow, so every round runs in a child of its own
 * (fork), from empty tables: it registers --size names "key<i>" with
 * QQAddMark, then the same names again (each found, none added), then with
 * MemAddKey, and sends the three times to the parent through a pipe. The
 * parent records them, so its own file holds a handful of keys, not the
 * registered ones. A search of every name registered before makes the
 * first and third quadratic in --size; an index, linear.
 */

enum { R_ADD, R_AGAIN, R_MEM, R_N };
static const char *const res_name[R_N] = {"add_ms", "again_ms", "mem_add_ms"};

static const char *const variants[] = {"all", NULL};

static void name_of(char *buf, size_t len, long i)
{
    snprintf(buf, len, "key%ld", i);
}

/* In the child: the three times in ms into T; 0, or -1 if a key came back
 * other than in order. */
static int register_all(long n, double t[R_N])
{
    char name[32];
    int bad = 0;
    double t0 = kio_now();
    for (long i = 0; i < n; i++) {
        name_of(name, sizeof name, i);
        bad |= QQAddMark(name) != (int)i;
    }
    double t1 = kio_now();
    for (long i = 0; i < n; i++) {
        name_of(name, sizeof name, i);
        bad |= QQAddMark(name) != (int)i;
    }
    double t2 = kio_now();
    for (long i = 0; i < n; i++) { /* key 0 is "default" */
        name_of(name, sizeof name, i);
        bad |= MemAddKey(name) != (int)i + 1;
    }
    double t3 = kio_now();
    t[R_ADD] = 1e3 * (t1 - t0);
    t[R_AGAIN] = 1e3 * (t2 - t1);
    t[R_MEM] = 1e3 * (t3 - t2);
    return bad ? -1 : 0;
}

/* One round in a child; 0 with T filled, or -1. */
static int round_in_child(long n, double t[R_N])
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        double mine[R_N];
        int ok =
            register_all(n, mine) == 0 && write(fd[1], mine, sizeof mine) == (ssize_t)sizeof mine;
        _exit(ok ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = read(fd[0], t, R_N * sizeof *t);
    close(fd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    return got == (ssize_t)(R_N * sizeof *t) && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    static int median;
    static const struct kopt extra[] = {
        KIO_MEDIAN_OPTION(median),
        {NULL, KOPT_FLAG, NULL, 0, NULL},
    };
    static const struct kspec spec = {
        .prog = PROG,
        .summary = "Key registration: per round (--steps), in a fresh child process, --size "
                   "distinct names\nregistered with QQAddMark, then registered again, then "
                   "with MemAddKey.\n--print: medians and the time per name.",
        .keys = "  values  add_ms (QQAddMark of new names), again_ms (of the same names),\n"
                "          mem_add_ms (MemAddKey of new names), one per round",
        .variants = variants,
        .size_default = 100000,
        .size_max = 10000000,
        .steps_default = 5,
        .extra = extra,
    };
    struct kargs a;
    kargs_parse_or_exit(&spec, argc, argv, &a);
    long n = a.size, rounds = a.steps;
    double *res = kxcalloc(PROG, (size_t)(rounds * R_N), sizeof *res);
    for (long r = 0; r < rounds; r++) {
        double t[R_N];
        if (round_in_child(n, t) != 0) {
            fprintf(stderr, "%s: round %ld failed (a key came back out of order)\n", PROG, r);
            kxfree(res);
            return 1;
        }
        for (int k = 0; k < R_N; k++)
            res[k * rounds + r] = t[k];
    }

    QQInit(kqq_events((uint64_t)(rounds * R_N) + 16));
    int key[R_N];
    for (int k = 0; k < R_N; k++)
        key[k] = QQAddValue(res_name[k]);
    if (a.print) {
        printf("names %ld\nrounds %ld\n", n, rounds);
        for (int k = 0; k < R_N; k++) {
            double m = kmedian(res + k * rounds, (size_t)rounds);
            printf("%s %.2f (%.1f ns a name)\n", res_name[k], m, 1e6 * m / (double)n);
        }
    }
    for (int k = 0; k < R_N; k++)
        kio_record_rounds(key[k], res + k * rounds, rounds, median);
    int rc = kqq_out(PROG, "qq_keys.qq", 0, 1);
    kxfree(res);
    return rc ? 1 : 0;
}
