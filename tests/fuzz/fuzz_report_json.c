/* fuzz_report_json.c - libFuzzer target: any bytes as a run's --json file through the report that
 * qqbench report draws (data, scripts and index.html; no gnuplot). */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_file.h"
#include "pictures.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char out[512];
    if (!out[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(out, sizeof out, "%s/qqfuzz-report-%ld", tmp && *tmp ? tmp : "/tmp",
                 (long)getpid());
    }
    const char *path = fuzz_as_file(data, size, ".json");
    char err[1024];
    if (path)
        (void)qqb_report_write(path, out, 1, err, sizeof err);
    return 0;
}
