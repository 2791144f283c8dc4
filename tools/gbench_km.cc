// gbench_km.cc - Google Benchmark on channel.c's Km line, pow vs direct, as independent and as
// dependent calls.
//
// Four benchmarks: km_pow_indep, km_direct_indep, km_pow_dep, km_direct_dep.
//
//   indep  each iteration loads the inputs and evaluates the line; nothing
//          of one iteration feeds the next, so the core overlaps successive
//          lines (and the loop's turn): the figure is throughput, the
//          reciprocal of how many lines per cycle the machine retires.
//   dep    every input of the next line is made from the previous result,
//          as km_bulk in kernels/channel.c: the figure is the line's
//          latency plus the carry (one multiply and one add, the same in
//          both variants), comparable with an ordered QQ state.
//
// Google Benchmark reports ns per iteration; the TSC frequency measured by
// libqq (qq_tick_mhz) goes into the JSON context as "tsc_mhz", so a reader
// converts to ticks: ticks = ns * tsc_mhz / 1000 (tools/km_compare.sh).
// All of Google Benchmark's options apply (--benchmark_format=json,
// --benchmark_repetitions=N, --benchmark_filter=...).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "km_line.h"
#include "qq.h"

// Non-const with external linkage: the compiler cannot fold mPower == 1.
extern struct km_inputs gbench_km_inputs;
struct km_inputs gbench_km_inputs = KM_INPUTS_AT_REST;

static void km_pow_indep(benchmark::State &state)
{
    const struct km_inputs *in = &gbench_km_inputs;
    for (auto _ : state) {
        // DoNotOptimize clobbers memory: the inputs are loaded afresh each
        // iteration, as the state's loads are in the kernel.
        double I =
            km_line_pow(in->unitaryG, in->strength, in->m, in->mPower, in->reversePot, in->CmpV);
        benchmark::DoNotOptimize(I);
    }
}

static void km_direct_indep(benchmark::State &state)
{
    const struct km_inputs *in = &gbench_km_inputs;
    for (auto _ : state) {
        double I = km_line_direct(in->unitaryG, in->strength, in->m, in->reversePot, in->CmpV);
        benchmark::DoNotOptimize(I);
    }
}

static void km_pow_dep(benchmark::State &state)
{
    const struct km_inputs *in = &gbench_km_inputs;
    const double g0 = in->unitaryG, s0 = in->strength, m0 = in->m, mp = in->mPower,
                 E = in->reversePot, V0 = in->CmpV;
    double I = 0.0;
    for (auto _ : state)
        I = km_next_pow(I, g0, s0, m0, mp, E, V0);
    benchmark::DoNotOptimize(I);
}

static void km_direct_dep(benchmark::State &state)
{
    const struct km_inputs *in = &gbench_km_inputs;
    const double g0 = in->unitaryG, s0 = in->strength, m0 = in->m, E = in->reversePot,
                 V0 = in->CmpV;
    double I = 0.0;
    for (auto _ : state)
        I = km_next_direct(I, g0, s0, m0, E, V0);
    benchmark::DoNotOptimize(I);
}

BENCHMARK(km_pow_indep);
BENCHMARK(km_direct_indep);
BENCHMARK(km_pow_dep);
BENCHMARK(km_direct_dep);

int main(int argc, char **argv)
{
    char mhz[32];
    std::snprintf(mhz, sizeof mhz, "%.3f", qq_tick_mhz());
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 2;
    benchmark::AddCustomContext("tsc_mhz", mhz);
    benchmark::AddCustomContext("tick_source", qq_tick_path_name(qq_tick_path()));
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
