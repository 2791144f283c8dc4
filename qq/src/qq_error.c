/* qq_error.c - error codes to names and messages, from the one table in qq.h. */
#include "qq_internal.h"

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
