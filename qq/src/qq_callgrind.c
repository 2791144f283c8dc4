/* qq_callgrind.c - under callgrind, one key's regions collected: the record path chosen at QQInit.
 */
#include <stdlib.h>
#include <string.h>

#include "qq_internal.h"

/*
 * `valgrind --tool=callgrind --collect-atstart=no` with $QQ_CALLGRIND_KEY
 * naming a state key: callgrind collects while that key is on, from its
 * outermost QQStateOn to the QQStateOff that closes it, per thread (the
 * collect switch is each thread's own), so the file's total is the key's
 * inclusive instructions (docs/INSTRUCTIONS.md). One launch per key: a dump
 * per transition would give every key in one launch, but costs 0.6 ms and
 * a 4 KB file per transition (measured in docs/INSTRUCTIONS.md).
 *
 * The switch is thrown from the slow path: QQInit keeps every thread's END
 * NULL under callgrind, so the inline record path's one test fails and each
 * event comes here (qq__record_slow). The record path run natively is not
 * changed by an instruction (test_qq_record_path).
 */

int qq__vg_on;        /* QQInit found callgrind and a key name */
int qq__vg_key = -1;  /* the key's index once added */
static char *vg_name; /* $QQ_CALLGRIND_KEY */

void qq__vg_init(void)
{
    qq__vg_on = 0;
#if defined(QQ__HAVE_CALLGRIND)
    const char *e = getenv(QQ_CALLGRIND_KEY_ENV);
    if (!RUNNING_ON_VALGRIND || !e || !*e)
        return;
    if (!vg_name || strcmp(vg_name, e) != 0) {
        free(vg_name);
        vg_name = strdup(e);
        qq__vg_key = -1;
        for (uint32_t i = 0; vg_name && i < qq__keytab.n; i++)
            qq__vg_key_added(qq__keytab.v[i].name, qq__keytab.v[i].type, (int)i);
    }
    qq__vg_on = vg_name != NULL;
#endif
}

void qq__vg_key_added(const char *name, uint32_t type, int index)
{
    if (vg_name && qq__vg_key < 0 && type == QQ_TYPE_STATE && strcmp(name, vg_name) == 0)
        qq__vg_key = index;
}
