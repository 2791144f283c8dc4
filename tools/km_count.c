/* km_count.c - runs channel.c's Km line REPS times in its dependent form, for counting its
 * instructions under valgrind (tools/km_compare.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "km_line.h"

/*
 * Usage: km_count pow|direct REPS. Prints the final current.
 *
 * The loop sits in its own non-inlined function (km_count_pow,
 * km_count_direct) so that callgrind can count it alone:
 *   valgrind --tool=callgrind --toggle-collect=km_count_pow km_count pow N
 * Ir / N is the instructions of one repetition: the line, the carry (one
 * multiply, four adds, as km_bulk) and the loop's turn; the last two are
 * identical in both variants and cancel in their difference. No QQ here:
 * valgrind counts instructions, it does not time them.
 */

/* Non-const with external linkage: the compiler cannot fold mPower == 1. */
extern struct km_inputs km_count_inputs;
struct km_inputs km_count_inputs = KM_INPUTS_AT_REST;

double km_count_pow(const struct km_inputs *in, long reps) __attribute__((noinline));
double km_count_direct(const struct km_inputs *in, long reps) __attribute__((noinline));

double km_count_pow(const struct km_inputs *in, long reps)
{
    const double g0 = in->unitaryG, s0 = in->strength, m0 = in->m, mp = in->mPower,
                 E = in->reversePot, V0 = in->CmpV;
    double I = 0.0;
    for (long r = 0; r < reps; r++)
        I = km_next_pow(I, g0, s0, m0, mp, E, V0);
    return I;
}

double km_count_direct(const struct km_inputs *in, long reps)
{
    const double g0 = in->unitaryG, s0 = in->strength, m0 = in->m, E = in->reversePot,
                 V0 = in->CmpV;
    double I = 0.0;
    for (long r = 0; r < reps; r++)
        I = km_next_direct(I, g0, s0, m0, E, V0);
    return I;
}

int main(int argc, char **argv)
{
    char *end = NULL;
    long reps = argc == 3 ? strtol(argv[2], &end, 10) : 0;
    if (argc != 3 || (strcmp(argv[1], "pow") && strcmp(argv[1], "direct")) || !end || *end ||
        reps <= 0) {
        fprintf(stderr, "usage: km_count pow|direct REPS\n");
        return 2;
    }
    double I = strcmp(argv[1], "pow") ? km_count_direct(&km_count_inputs, reps)
                                      : km_count_pow(&km_count_inputs, reps);
    printf("I %.17g\n", I);
    return 0;
}
