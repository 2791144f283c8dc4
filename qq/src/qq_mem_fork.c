/* qq_mem_fork.c - memory keys across fork(): every table held over the fork, let go in both. */

/* Never the redirection macros here: every malloc and free below is libc's. */
#define QQ__MEM_IMPL 1

#include <pthread.h>

#include "qq_internal.h"
#include "qq_mem.h"
#include "qq_mem_internal.h"

/* ---------------------------------------------------------------------
 * fork(). The child has one thread, the one that forked; a lock another
 * thread held at the fork, or a call an owner was in the middle of under
 * its bias, would never end there. So before the fork the forking thread
 * takes the registry lock and holds every table (their biases withdrawn),
 * in the order qq_mem.c takes them; after it, parent and child let them
 * go. The owners take their biases back after their next calls under the
 * lock (qq_mem.c, "Who records how").
 * --------------------------------------------------------------------- */

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void fork_prepare(void)
{
    qq__mem_hold_all();
}

static void fork_done(void)
{
    qq__mem_release_all();
}

/* In the child, the owners of the other tables are gone: a busy word one
 * of them had set for an instant (qq_mem.c's hold_all) is cleared. */
static void fork_child(void)
{
    qq__mem_clear_busy();
    fork_done();
}

static void fork_hooks(void)
{
    /* Without them (out of memory) a fork while another thread records
     * may leave the child waiting for a lock, as it did before them. */
    (void)pthread_atfork(fork_prepare, fork_done, fork_child);
}

/* The hooks are registered when the library is loaded, before the program
 * starts threads. Registered at a thread's first call only, a fork while
 * another thread was inside that pthread_once copied the once "in
 * progress" into the child, whose own first call then waited for it
 * forever under an implementation without glibc's fork generation
 * (ThreadSanitizer's interceptor: 4 of 6 runs of test_mem_fork hung a
 * child). The call in thread_first stays for a tracked call made by
 * another constructor before this one. */
void qq__mem_fork_hooks(void)
{
    pthread_once(&fork_once, fork_hooks);
}

__attribute__((constructor)) static void fork_hooks_at_load(void)
{
    qq__mem_fork_hooks();
}
