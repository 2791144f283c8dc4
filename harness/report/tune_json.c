/* tune_json.c - QQTune's choices as the run JSON's "tunes" (docs/TUNE.md). */
#include <jansson.h>
#include <math.h>

#include "run_json.h"

/* A choice: an integer where it is one (QQTune's candidates are ints), a
 * number otherwise (a baseline's samples are read as numbers). */
static json_t *choice(double v)
{
    if (isfinite(v) && v == floor(v) && fabs(v) <= 9007199254740992.0)
        return json_integer((json_int_t)v);
    return json_real(v);
}

json_t *qqb_tune_judgement_json(const struct qqb_tune_judgement *j)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < j->n; i++) {
        const struct qqb_tune_row *r = &j->rows[i];
        json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:I, s:I, s:b}", "case", r->case_name, "name",
                              r->name, "machine", j->machine, "choice", choice(r->choice), "agree",
                              (json_int_t)r->agree, "launches", (json_int_t)r->launches, "changed",
                              r->changed);
        if (o && r->have_base) {
            json_object_set_new(o, "baseline_machine", json_string(j->base_machine));
            json_object_set_new(o, "baseline_choice", choice(r->base_choice));
            json_object_set_new(o, "baseline_agree", json_integer((json_int_t)r->base_agree));
            json_object_set_new(o, "baseline_launches", json_integer((json_int_t)r->base_launches));
        }
        json_array_append_new(a, o);
    }
    return a;
}
