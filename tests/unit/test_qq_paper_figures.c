/* test_qq_paper_figures.c - the code of the paper's Figures 2, 3 and 4, unchanged, against qq.h. */
#define QQ_ENABLED /* the paper's spelling (section 3) */
#include <stdio.h>
#include <stdlib.h>

#include "qq.h"
#include "qq_file.h"
#include "test.h"

int QQload;
int gatherTime; // global scope

static volatile double sink;
static void loadAppList(void)
{
    for (int i = 0; i < 20000; i++)
        sink += i;
}
static void loadScriptList(void)
{
    loadAppList();
}

/* Figure 3's class member, as a C function (the figure is C++): the key is
 * created once in the main file and used elsewhere through extern. */
static void class_function(void)
{
    extern int gatherTime; // declared in main file
    QQStateOn(gatherTime); // turn on state at start of block
    loadAppList();
    QQStateOff(gatherTime); // turn off state at end of block
}

static void figure2(void)
{
    QQInit(1000);  // create space for large number of possible events
    QQBaseTime(0); // reset timer

    // create new event to monitor load functions
    QQload = QQAddState("load");

    QQStateOn(QQload); // Begin monitoring

    loadAppList();

    loadScriptList();

    QQStateOff(QQload); // End monitoring
}

static void test_figures(void)
{
    figure2();
    gatherTime = QQAddState("gather"); // inside a main function
    for (int i = 0; i < 4; i++)
        class_function();
    // when monitoring is finished:
    QQOut("myProfile", 0, 1);

    struct qq_file *f;
    int rc = qq_file_open("myProfile", &f);
    CHECK_INT_EQ(rc, 0);
    if (rc) {
        fprintf(stderr, "%s\n", qq_file_errmsg(f));
        qq_file_close(f);
        return;
    }
    CHECK_INT_EQ(qq_file_nkeys(f), 2);
    CHECK_STR_EQ(qq_file_key(f, (uint32_t)QQload)->name, "load");
    CHECK_STR_EQ(qq_file_key(f, (uint32_t)gatherTime)->name, "gather");
    struct qq_key_summary ks[2];
    struct qq_node_summary ns;
    CHECK_INT_EQ(qq_file_summarize(f, 0, &ns, ks), 0);
    CHECK_U64_EQ(ks[QQload].hits, 2); /* as in Figure 5: 'load' 2 hits */
    CHECK_U64_EQ(ks[gatherTime].hits, 8);
    CHECK_U64_EQ(ks[gatherTime].intervals, 4);
    /* load ran loadAppList twice, each gather once: load > gather / 4 * 2 */
    CHECK(ks[QQload].state_ticks > 0 && ks[gatherTime].state_ticks > 0);
    qq_file_close(f);
}

int main(void)
{
    RUN(test_figures);
    return TEST_DONE();
}
