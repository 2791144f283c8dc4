/* fingerprint.c - this machine's fingerprint: what must match for timings to be comparable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fingerprint.h"
#include "qq.h"

static void cpu_model(char *out, size_t len)
{
    snprintf(out, len, "unknown");
    FILE *fp = fopen("/proc/cpuinfo", "r");
    if (!fp)
        return;
    char line[512];
    while (fgets(line, sizeof line, fp)) {
        if (strncmp(line, "model name", 10) == 0 || strncmp(line, "CPU part", 8) == 0) {
            char *v = strchr(line, ':');
            if (v) {
                v++;
                while (*v == ' ' || *v == '\t')
                    v++;
                v[strcspn(v, "\n")] = '\0';
                snprintf(out, len, "%s", v);
            }
            break;
        }
    }
    fclose(fp);
}

void qqb_fingerprint_this(struct qqb_fingerprint *fp)
{
    memset(fp, 0, sizeof *fp);
    cpu_model(fp->cpu, sizeof fp->cpu);
    /* Rounded to 10 MHz: calibration scatters by well under that, a
     * different machine differs by more. */
    double mhz = qq_tick_mhz();
    fp->mhz = 10.0 * (double)(long)(mhz / 10.0 + 0.5);
    fp->invariant = qq_tick_invariant();
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    fp->cores = n > 0 ? (int)n : 1;
    snprintf(fp->compiler, sizeof fp->compiler, "%s", QQB_C_COMPILER);
    snprintf(fp->flags, sizeof fp->flags, "%s", QQB_C_FLAGS);
    char desc[512];
    snprintf(desc, sizeof desc, "%s|%.0f|%d|%d|%s|%s", fp->cpu, fp->mhz, fp->invariant, fp->cores,
             fp->compiler, fp->flags);
    uint32_t h = 2166136261u;
    for (const char *s = desc; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
#if defined(__x86_64__)
    const char *arch = "x86_64";
#elif defined(__aarch64__)
    const char *arch = "aarch64";
#else
    const char *arch = "other";
#endif
    snprintf(fp->id, sizeof fp->id, "%s-%dcpu-%08x", arch, fp->cores, h);
    /* For tests only: pretend to be another machine (docs/BASELINES.md). */
    const char *fake = getenv("QQBENCH_FINGERPRINT");
    if (fake && *fake && strlen(fake) < sizeof fp->id)
        snprintf(fp->id, sizeof fp->id, "%s", fake);
}
