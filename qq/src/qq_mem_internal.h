/* qq_mem_internal.h - what qq_mem.c (the memory keys and their tables) shares with
 * qq_mem_fork.c and qq_mem_print.c. */
#ifndef QQ_MEM_INTERNAL_H
#define QQ_MEM_INTERNAL_H

#include <stdint.h>

/* Take the registry lock and hold every table, their biases withdrawn
 * (qq_mem.c, "Holding a table"); qq__mem_release_all lets them go and the
 * lock after. */
void qq__mem_hold_all(void);
void qq__mem_release_all(void);
/* In a child of fork(), under qq__mem_hold_all: the busy word of every
 * table cleared (their owners are not in the child). */
void qq__mem_clear_busy(void);
/* Register the fork hooks once (qq_mem_fork.c); a thread's first call
 * makes sure of them. */
void qq__mem_fork_hooks(void);
/* Blocks the address tables had no room for, since start or MemReset. */
uint64_t qq__mem_untracked(void);

#endif /* QQ_MEM_INTERNAL_H */
