/* qq_error.c - error codes to names and messages, from the one table in qq.h;
 * what a path that is not a regular file is, for the messages; the
 * library's version. */
#include <sys/stat.h>

#include "qq_internal.h"

/* qq.h's version is the project's (qq/CMakeLists.txt passes it). */
#if defined(QQ__PROJECT_VERSION_MAJOR) && (QQ_VERSION_MAJOR != QQ__PROJECT_VERSION_MAJOR ||        \
                                           QQ_VERSION_MINOR != QQ__PROJECT_VERSION_MINOR ||        \
                                           QQ_VERSION_PATCH != QQ__PROJECT_VERSION_PATCH)
#error "qq.h's QQ_VERSION_MAJOR/MINOR/PATCH differ from project(QQ VERSION) in CMakeLists.txt"
#endif

#define QQ__STR2(x) #x
#define QQ__STR(x)  QQ__STR2(x)

const char *qq_version(void)
{
    return QQ__STR(QQ_VERSION_MAJOR) "." QQ__STR(QQ_VERSION_MINOR) "." QQ__STR(QQ_VERSION_PATCH);
}

const char *qq_strerror(int err)
{
    switch (err) {
    case 0:
        return "success";
#define QQ__ERRNO_MSG(name, code, msg)                                                             \
    case code:                                                                                     \
        return msg;
        QQ_ERRNO_MAP(QQ__ERRNO_MSG)
#undef QQ__ERRNO_MSG
    default:
        return "unknown error";
    }
}

const char *qq_err_name(int err)
{
    switch (err) {
    case 0:
        return "QQ_OK";
#define QQ__ERRNO_NAME(name, code, msg)                                                            \
    case code:                                                                                     \
        return "QQ_E" #name;
        QQ_ERRNO_MAP(QQ__ERRNO_NAME)
#undef QQ__ERRNO_NAME
    default:
        return "QQ_E?";
    }
}

const char *qq__file_kind(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}
