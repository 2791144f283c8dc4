/* kbuild.h - what a kernel was built from: its build ID, compiler and flags, read from its ELF
 * file (docs/BASELINES.md, "The kernels' builds"). */
#ifndef QQB_KBUILD_H
#define QQB_KBUILD_H

#include <stddef.h>

#include "results.h"
#include "strbuf.h"

/*
 * Read the build of the program PATH into B (zeroed first): the GNU build
 * ID, the .comment strings and the DW_AT_producer of every compile unit
 * (gcc records the switches there with -g, -grecord-gcc-switches being its
 * default). Every byte of the file is untrusted: libelf and libdw read it,
 * sections that do not fit the file are skipped, at most QQB_KBUILD_MAX
 * distinct strings of each kind are kept, each cut at 512 bytes, every byte
 * outside printable ASCII read as '?'. A file that cannot be opened, is not
 * ELF or says none of it leaves B empty: 0. -1 only when out of memory.
 */
#define QQB_KBUILD_MAX 32
int qqb_kbuild_read(const char *path, struct qqb_kbuild *b, char *err, size_t errlen);

/* A deep copy of S into D (zeroed first): 0 or -1 on out of memory. */
int qqb_kbuild_copy(struct qqb_kbuild *d, const struct qqb_kbuild *s);
void qqb_kbuild_free(struct qqb_kbuild *b);

/*
 * 1 when A and B say the kernels were built differently: both name their
 * compile units' producers (compiler and switches) and the two sets differ,
 * or both carry .comment strings and only one names producers (the other
 * built without -g), or neither does and the .comment strings differ. 0 when
 * they agree or one side does not say (a stripped file, a baseline written
 * before builds were stored): nothing is claimed without evidence. The
 * build IDs are not compared: any change of the code changes them.
 */
int qqb_kbuild_differs(const struct qqb_kbuild *a, const struct qqb_kbuild *b);

/* What is said of a kernel whose own compile units are not in its file (it
 * was built without -g), in place of its switches. */
#define QQB_KBUILD_NO_G "switches not recorded (built without -g)"

/* Briefly, what differs: the words (switches, versions) of A's producers
 * (or compilers) that B's lack into SA, and B's that A's lack into SB, each
 * cut to about 60 characters ("-O0", "-O2"). */
void qqb_kbuild_brief(const struct qqb_kbuild *a, const struct qqb_kbuild *b, struct qqb_strbuf *sa,
                      struct qqb_strbuf *sb);

#endif /* QQB_KBUILD_H */
