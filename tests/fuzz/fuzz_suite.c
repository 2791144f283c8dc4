/* fuzz_suite.c - libFuzzer target: any bytes as a suite file through the YAML suite loader. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_file.h"
#include "suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_as_file(data, size, ".yaml");
    struct qqb_suite *s = NULL;
    char err[1024];
    if (path && qqb_suite_load(path, "/nonexistent-kernels", &s, err, sizeof err) == 0)
        qqb_suite_free(s);
    return 0;
}
