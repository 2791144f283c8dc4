/* qq_mem.h - memory keys: malloc & co redirected per file key, objects, MemPrint (include after
 * system headers). */
#ifndef QQ_MEM_H
#define QQ_MEM_H

/*
 * Include this header AFTER every system header of the file. With memory
 * profiling on, it redefines malloc, calloc, realloc, free, strdup, strndup,
 * aligned_alloc and posix_memalign as function-like macros that call the
 * recording functions below with the file's memory key:
 *
 *     #include <stdio.h>
 *     #include <stdlib.h>
 *     #include "qq_mem.h"
 *     extern int KEY_CHANNEL;          // = MemAddKey("Channel") in main
 *     #define MEM_KEY KEY_CHANNEL      // this file's allocations
 *
 * MEM_KEY may be defined before or after the include, and redefined
 * (#undef / #define) anywhere in the file: each call uses the MEM_KEY in
 * force where it is written. A file with no MEM_KEY counts against key 0,
 * "default". Docs: docs/MEMORY.md.
 *
 * The switch: memory profiling is on when QQ_ENABLE, QQ_ENABLED or MEM_STATS
 * is defined (the paper uses all three spellings; MEM_STATS alone turns on
 * memory keys without QQ's timing calls). Off, nothing is redirected, every
 * call below is ((void)0) or a plain libc call, and no argument that only
 * QQ would use is evaluated.
 */

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qq.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * Always there, on or off: what the library and the reader tools use.
 * ====================================================================== */

struct qq_mem_table; /* qq_file.h */

/* The key every file without MEM_KEY uses; named "default". */
#define MEM_KEY_DEFAULT 0

/* Print the MemPrint table for T (a table read back with qq_file_mem). */
QQ_API void qq_mem_print_table(FILE *fp, const struct qq_mem_table *t);

/* Bytes of this process: VmSize (first field of /proc/self/statm) times the
 * page size; without /proc, the peak resident size from getrusage. -1 if
 * neither is available. GetMemoryUsed() when profiling is on. */
QQ_API long qq_mem_process_bytes(void);

/* ======================================================================
 * The recording functions. Declared when profiling is on, and always for
 * the library itself (which must never see the redirection macros).
 * ====================================================================== */

#if defined(__GNUC__)
/* What libc says of its own functions, so that the compiler's checks
 * (object sizes, aliasing) see through the redirection. */
#define QQ__MEM_ALLOC(...)  __attribute__((malloc, alloc_size(__VA_ARGS__)))
#define QQ__MEM_RESIZE(...) __attribute__((alloc_size(__VA_ARGS__)))
#define QQ__MEM_MALLOC      __attribute__((malloc))
#else
#define QQ__MEM_MALLOC
#define QQ__MEM_ALLOC(...)
#define QQ__MEM_RESIZE(...)
#endif

#if defined(QQ_ENABLE) || defined(QQ_ENABLED) || defined(MEM_STATS) ||                             \
    defined(QQ_BUILDING_LIBRARY) || defined(QQ__MEM_IMPL)
QQ_API int MemAddKey(const char *name);
QQ_API void *MemMalloc(int key, size_t size) QQ__MEM_ALLOC(2);
QQ_API void *MemCalloc(int key, size_t count, size_t size) QQ__MEM_ALLOC(2, 3);
QQ_API void *MemRealloc(int key, void *ptr, size_t size) QQ__MEM_RESIZE(3);
QQ_API void MemFree(int key, void *ptr);
QQ_API char *MemStrdup(int key, const char *s) QQ__MEM_MALLOC;
QQ_API char *MemStrndup(int key, const char *s, size_t n) QQ__MEM_MALLOC;
QQ_API void *MemAlignedAlloc(int key, size_t alignment, size_t size) QQ__MEM_ALLOC(3);
QQ_API int MemPosixMemalign(int key, void **ptr, size_t alignment, size_t size);
QQ_API void MemAddObject(int key, const void *obj, size_t size);
QQ_API void MemFreeObject(int key, const void *obj, size_t size);
QQ_API void MemPrint(FILE *fp);
QQ_API long GetMemoryUsed(void);
QQ_API void MemReset(void);
#endif

/* ======================================================================
 * The switch. Both branches side by side: same names, same arity.
 * ====================================================================== */

#if defined(QQ_BUILDING_LIBRARY) || defined(QQ__MEM_IMPL)

/* The library itself: the functions above, never the macros (its calls to
 * malloc and free must reach the real allocator). */

#elif defined(QQ_ENABLE) || defined(QQ_ENABLED) || defined(MEM_STATS)

#define QQ_MEM_ENABLED 1

/* The default key, for files that define no MEM_KEY. An enum constant, not a
 * macro, so that a later "#define MEM_KEY KEY_X" is no redefinition: the
 * macro then shadows it. */
#ifndef MEM_KEY
enum { MEM_KEY = MEM_KEY_DEFAULT };
#endif

/* glibc may define some of these as macros of its own. */
#undef malloc
#undef calloc
#undef realloc
#undef free
#undef strdup
#undef strndup
#undef aligned_alloc
#undef posix_memalign

#define malloc(size)                         MemMalloc(MEM_KEY, (size))
#define calloc(count, size)                  MemCalloc(MEM_KEY, (count), (size))
#define realloc(ptr, size)                   MemRealloc(MEM_KEY, (ptr), (size))
#define free(ptr)                            MemFree(MEM_KEY, (ptr))
#define strdup(s)                            MemStrdup(MEM_KEY, (s))
#define strndup(s, n)                        MemStrndup(MEM_KEY, (s), (n))
#define aligned_alloc(alignment, size)       MemAlignedAlloc(MEM_KEY, (alignment), (size))
#define posix_memalign(ptr, alignment, size) MemPosixMemalign(MEM_KEY, (ptr), (alignment), (size))

/* An object of SIZE bytes at PTR was created / deleted (constructor and
 * destructor functions, pools, stack objects). */
#define MEMADDOBJECT(ptr, size)              MemAddObject(MEM_KEY, (ptr), (size))
#define MEMFREEOBJECT(ptr, size)             MemFreeObject(MEM_KEY, (ptr), (size))

#else /* memory profiling off */

#define MemAddKey(name)             (-1)                /* off: an unused key */
#define MemMalloc(key, size)        malloc(size)        /* off: plain malloc */
#define MemCalloc(key, count, size) calloc(count, size) /* off: plain calloc */
#define MemRealloc(key, ptr, size)  realloc(ptr, size)  /* off: plain realloc */
#define MemFree(key, ptr)           free(ptr)           /* off: plain free */
#define MemStrdup(key, s)           strdup(s)           /* off: plain strdup */
#define MemStrndup(key, s, n)       strndup(s, n)       /* off: plain strndup */
#define MemAlignedAlloc(key, alignment, size)                                                      \
    aligned_alloc(alignment, size) /* off: plain aligned_alloc */
#define MemPosixMemalign(key, ptr, alignment, size)                                                \
    posix_memalign(ptr, alignment, size)        /* off: plain posix_memalign */
#define MemAddObject(key, obj, size)  ((void)0) /* off: nothing */
#define MemFreeObject(key, obj, size) ((void)0) /* off: nothing */
#define MemPrint(fp)                  ((void)0) /* off: prints nothing */
#define GetMemoryUsed()               (0L)      /* off: 0 (see qq_mem_process_bytes) */
#define MemReset()                    ((void)0) /* off: nothing */
#define MEMADDOBJECT(ptr, size)       ((void)0) /* off: nothing, args unevaluated */
#define MEMFREEOBJECT(ptr, size)      ((void)0) /* off: nothing, args unevaluated */

#endif /* memory profiling switch */

#ifdef __cplusplus
}
#endif

#endif /* QQ_MEM_H */
