/* test_qq_version.c - qq.h's QQ_VERSION_MAJOR/MINOR/PATCH and qq_version(): the linked library
 * says the header's version, which is CMakeLists.txt's project(QQ VERSION); QQ is off here (no
 * QQ_ENABLE), as qq_version() is a library function on or off. */
#include <stdio.h>
#include <string.h>

#include "qq.h"
#include "test.h"

/* Numbers a program can test with #if. */
#if !defined(QQ_VERSION_MAJOR) || !defined(QQ_VERSION_MINOR) || !defined(QQ_VERSION_PATCH)
#error "qq.h has no QQ_VERSION_MAJOR, QQ_VERSION_MINOR or QQ_VERSION_PATCH"
#elif QQ_VERSION_MAJOR < 0 || QQ_VERSION_MINOR < 0 || QQ_VERSION_PATCH < 0
#error "a QQ_VERSION_* is negative"
#endif

static void test_string_is_the_macros(void)
{
    char want[64];
    snprintf(want, sizeof want, "%d.%d.%d", QQ_VERSION_MAJOR, QQ_VERSION_MINOR, QQ_VERSION_PATCH);
    CHECK_STR_EQ(qq_version(), want);
    /* The same string each call, the library's own. */
    CHECK(qq_version() == qq_version());
}

/* project(QQ VERSION x.y.z) of the source tree's CMakeLists.txt, the version
 * the build writes into every file ("libqq x.y.z"), is the header's. */
static void test_project_version(void)
{
    const char *src = getenv("QQ_SOURCE_DIR");
    if (!src) {
        printf("QQ_SOURCE_DIR not set (run through ctest): the project's version not read\n");
        return;
    }
    char path[4096], line[256], ver[64] = "";
    snprintf(path, sizeof path, "%s/CMakeLists.txt", src);
    FILE *fp = fopen(path, "r");
    CHECK(fp != NULL);
    while (fp && fgets(line, sizeof line, fp))
        if (sscanf(line, "project(QQ VERSION %63[0-9.]", ver) == 1)
            break;
    if (fp)
        fclose(fp);
    CHECK(ver[0] != '\0');
    CHECK_STR_EQ(qq_version(), ver);
}

int main(void)
{
    RUN(test_string_is_the_macros);
    RUN(test_project_version);
    return TEST_DONE();
}
