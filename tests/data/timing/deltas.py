"""deltas.py - read a qqbench --json report and hold its per-hit figures against the kernels' own bulk timings.

usage: deltas.py REPORT.json chain|km

chain: for each variant nN of the chain benchmark (N multiply-adds), the A/B
       delta of net ticks per hit against n0 (medians over launches) and the
       bulk delta (the kernel's value 'bulk', N minus 0); n0's net figure per
       launch (raw minus the launch's calibrated empty state) against the
       counter step.
km:    the Km delta pow -> direct (net per hit) against the Km_bulk delta,
       and the A/B verdicts of Ka and Kahp (neither regressed nor improved).
Prints one line per check, "ok ..." or "FAIL ...", and exits 1 on a failure.
"""
import json
import statistics
import sys

TOL = 0.10  # the agreement the issue asks for: within 10% of the bulk delta
# How much of the fenced reads' own cost the code around a state can move:
# a tenth of the empty state (test_run_chain's short chains and Ka on an
# AMD EPYC guest; see the chain and km checks below).
EMPTY_SHARE = 0.10

doc = json.load(open(sys.argv[1]))
cases = {c["name"]: c for c in doc["cases"]}
fails = 0


def metric(case, key, what):
    for m in cases[case]["metrics"]:
        if m["key"] == key and m["what"] == what:
            return m
    raise SystemExit("FAIL %s has no metric %s/%s" % (case, key, what))


def med(case, key, what):
    return statistics.median(metric(case, key, what)["samples"])


def net(case, key):
    """Median over launches of the net figure before its floor at the
    counter's resolution: raw per hit minus the launch's own empty state.
    A delta of floored figures would carry the floor (half a step: 13 ticks
    on a counter that advances in steps of 26) into the comparison."""
    raw = metric(case, key, "per_hit_raw")["samples"]
    empty = metric(case, "@timer", "empty")["samples"]
    return statistics.median(r - e for r, e in zip(raw, empty))


def read_slack(case):
    """The ticks a state's figure may move with its neighbours alone."""
    return EMPTY_SHARE * med(case, "@timer", "empty")


def check(ok, text):
    global fails
    print(("ok   " if ok else "FAIL ") + text)
    if not ok:
        fails += 1


if sys.argv[2] == "chain":
    ref = "chain[n0]@1"
    for n in (10, 40, 160):
        case = "chain[n%d]@1" % n
        if case not in cases:
            continue  # a suite may run fewer chain lengths
        q = net(case, "chain") - net(ref, "chain")
        b = med(case, "bulk", "mean") - med(ref, "bulk", "mean")
        err = (q - b) / b
        # Within 10% of the bulk delta, and a tenth of the empty state the
        # net figure subtracts: how much of the fenced reads' own cost the
        # chain between them hides depends on the core (an AMD EPYC guest
        # read N=10 +4.3 ticks of 42.2, +10.3%, with an empty state of 68
        # ticks; N=40 +3.1 of 178), so a relative bound alone holds short
        # chains only on the core it was written on. A state that did not
        # hold its line reads 50-100% off, far outside either term.
        slack = TOL * abs(b) + read_slack(case)
        check(abs(q - b) <= slack,
              "chain N=%d: qqbench net delta %.1f ticks, bulk %.1f (%+.1f%%; allowed +-%.1f)"
              % (n, q, b, 100 * err, slack))
    step = med(ref, "@timer", "step")
    net0 = net(ref, "chain")
    # Zero within a counter step, or the tenth of the empty state above
    # where the counter resolves single ticks (a step of 1: the same AMD
    # guest read -0.5 to -1.1 ticks against an empty state of 68); a net
    # figure that kept the empty state, or subtracted it twice, reads a
    # whole empty state off.
    slack0 = max(step, 1, read_slack(ref))
    check(abs(net0) <= slack0, "chain N=0: net %.2f ticks per hit, counter step %.0f, allowed +-%.1f"
          % (net0, step, slack0))
elif sys.argv[2] == "km":
    q = net("km[direct]@1", "Km") - net("km[pow]@1", "Km")
    b = med("km[direct]@1", "Km_bulk", "mean") - med("km[pow]@1", "Km_bulk", "mean")
    err = (q - b) / b
    # Within 25%, in both builds. The line's state and the bulk loop are
    # different code around a libm call, and where the linker puts them
    # moves them apart: three builds of the same source, interleaved in one
    # run, read the bulk delta -55.3 to -59.6 ticks and the state's -60.4
    # to -64.6, +4% to +12% apart. A state that did not hold its line
    # (the compiler moving the line out, unordered reads) reads 50-100% off.
    # The close agreement is measured, not asserted: 'make bench'
    # (tools/km_compare.sh) and docs/PERFORMANCE.md. The sanitizer build
    # instruments the state's loads and not the loop's registers (+11% seen).
    check(q < 0 and abs(err) <= 0.25,
          "Km pow -> direct (within 25%%): qqbench net delta %.1f ticks, bulk %.1f (%+.1f%%)"
          % (q, b, 100 * err))
    # Ka and Kahp run the same code in both variants: neither regressed nor
    # improved. `unchanged` is not asked for: it needs the whole interval
    # inside the threshold, which a busy machine's noise can deny (`noisy`
    # is then the correct answer), while a false `regressed` or `improved`
    # needs three quarters of the pairs beyond the threshold on one side.
    # `blind` is the row at its last look whose key's noise hides a change
    # of the threshold (26215c8: noise no longer grows the threshold), the
    # same answer as noisy for code that did not change.
    # A verdict on identical code is still no attribution error when the
    # shift is within a tenth of the empty state: the line before (pow or
    # direct) moves the fenced reads' own cost around Ka, as the chain's
    # short lengths show (test_run_chain). Seen: Ka +5.3 ticks of 124 on
    # the TSC path (+3.7%), +1.7 of 25 at QQ_TICKS=clock@500 (+6.7%,
    # regressed), both against an empty state of 68 and 25 ticks.
    allowed = read_slack("km[direct]@1")
    for key in ("Ka", "Kahp"):
        rows = [c for c in doc["comparisons"]
                if c["kind"] == "ab" and c["case"] == "km[direct]@1" and c["key"] == key]
        v = rows[0]["verdict"] if rows else "missing"
        shift = (abs(rows[0]["current_cycles_per_hit"] - rows[0]["baseline_cycles_per_hit"])
                 if rows else float("inf"))
        check(v in ("unchanged", "noisy", "blind") or (v != "missing" and shift <= allowed),
              "A/B %s (identical code in both variants): %s, %s%% (%.1f ticks; a tenth of the "
              "empty state: %.1f)" % (key, v, rows[0]["change_pct"] if rows else "?", shift,
                                       allowed))
else:
    raise SystemExit("usage: deltas.py REPORT.json chain|km")
sys.exit(1 if fails else 0)
