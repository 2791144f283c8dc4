/* st.h - trace: `qqbench st`, the summary of .qq files (docs/TIMING.md, docs/THREADS.md). */
#ifndef QQB_ST_H
#define QQB_ST_H

#include <stddef.h>

/* Every file of FILES (NFILES), streamed, summarised on stdout node by node
 * (ONLY >= 0: that node alone; PER_THREAD: each thread's state table too;
 * SIGNATURE: each state key's signature, its "sig:KEY:FIELD" counts);
 * the nodes before a damaged entry are printed before the error. 0, or -1
 * with one line on stderr (a file missing or damaged, no such node). */
int qqb_st_files(char **files, size_t nfiles, long only, int per_thread, int signature);

#endif /* QQB_ST_H */
