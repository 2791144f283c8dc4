/* match.c - the cases of a stored run matched to this run's, once, by hash (match.h). */
#include "match.h"

#include <stdlib.h>

#include "strmap.h"

int qqb_match_cases(const struct qqb_results *cur, size_t n, const struct qqb_results *other,
                    size_t **out)
{
    size_t *m = malloc((n ? n : 1) * sizeof *m);
    struct qqb_strmap names = {0};
    int rc = m ? 0 : -1;
    /* A stored run names each case once (its reader refuses duplicates);
     * were one there twice, the first would answer, as a search would. */
    for (size_t i = 0; rc == 0 && other && i < other->ncases; i++)
        if (qqb_strmap_add(&names, 0, other->cases[i]->name, i, NULL) < 0)
            rc = -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        size_t at;
        m[i] = other && qqb_strmap_get(&names, 0, cur->cases[i]->name, &at) ? at : QQB_NO_MATCH;
    }
    qqb_strmap_free(&names);
    if (rc != 0) {
        free(m);
        m = NULL;
    }
    *out = m;
    return rc;
}

const struct qqb_case_result *qqb_matched(const struct qqb_results *other, const size_t *match,
                                          size_t i)
{
    if (!other || !match || match[i] == QQB_NO_MATCH)
        return NULL;
    return other->cases[match[i]];
}
