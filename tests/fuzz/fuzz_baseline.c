/* fuzz_baseline.c - libFuzzer target: any bytes as a stored baseline through the baseline reader.
 */
#include <stddef.h>
#include <stdint.h>

#include "baseline.h"
#include "fuzz_file.h"
#include "results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_as_file(data, size, ".yaml");
    struct qqb_results r;
    char err[1024];
    if (path && qqb_baseline_read(path, &r, err, sizeof err) == 0)
        qqb_results_free(&r);
    return 0;
}
