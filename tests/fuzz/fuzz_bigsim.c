/* fuzz_bigsim.c - libFuzzer target: any bytes as one line through the TRACEBIGSIM parser. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bigsim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *line = malloc(size + 1);
    if (!line)
        return 0;
    memcpy(line, data, size);
    line[size] = '\0';
    struct qqb_bigsim_rec r;
    char err[512];
    int col = 0;
    (void)qqb_bigsim_parse_line(line, &r, &col, err, sizeof err);
    free(line);
    return 0;
}
