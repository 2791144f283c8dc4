/* fuzz_file.h - for targets whose parser reads a file: each input written to one temporary file
 * first. */
#ifndef QQ_FUZZ_FILE_H
#define QQ_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The input as the file the parser will open; its path (the same for the
 * whole process, under $TMPDIR), or NULL when it cannot be written. */
static const char *fuzz_as_file(const uint8_t *data, size_t size, const char *suffix)
{
    static char path[512];
    if (!path[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/qqfuzz-%ld%s", tmp && *tmp ? tmp : "/tmp", (long)getpid(),
                 suffix);
    }
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return NULL;
    int ok = fwrite(data, 1, size, fp) == size;
    ok &= fclose(fp) == 0;
    return ok ? path : NULL;
}

#endif /* QQ_FUZZ_FILE_H */
