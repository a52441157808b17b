#!/usr/bin/env bash
# One bounded libFuzzer session (CTest, build dir of the preset `sanitize`):
#   run_fuzzer.sh FUZZER --runs=N|--seconds=S WORK_DIR SEED_DIR...
# --runs=N: N inputs from the fixed seed 1 (label quick: the same course on every run of the same
# build and seeds); --seconds=S: S seconds from a random seed, printed in the log (label long).
# New inputs go to WORK_DIR/corpus (the seed directories are only read); a crash, a sanitizer
# report, an uncaught exception, a leak, a timeout (> 60 s per input) or a memory blow-up (> 2 GB)
# fails the test and leaves the input in WORK_DIR/artifacts: add it to
# tests/fuzz/regressions/<target>/ and fix the bug.
set -uo pipefail
# A hang is an input that runs longer than this. The largest legal scenarios (fcc lattices of up to
# 100 cells, 4e6 particles: max_lattice_cells in core/scenario_loader.cpp) took 10 s to parse under
# ASan + UBSan on the 2-core CI machine, 25 s beside another fuzzing session; 60 s leaves a slower
# runner a factor 2.4 over the worst.
per_input_timeout=60
# HDF5's own leaks on damaged files are not findings (tests/sanitizers/lsan_hdf5.supp).
export LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")/../sanitizers" && pwd)/lsan_hdf5.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# HDF5 checks every malloc and fails cleanly on NULL; a damaged file can make it ask for an
# absurd size (a length field of garbage). Allocations above 512 MB answer NULL, as they would on
# a machine without that memory, instead of aborting or exhausting the fuzzing host.
export ASAN_OPTIONS="allocator_may_return_null=1:max_allocation_size_mb=512${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fuzzer=$1
# A fixed-seed session takes the same course on every run of the same build only if nothing it
# observes depends on addresses or the clock: no comparison operands as mutation hints
# (-use_cmp=0: they include pointers), no rereading of its corpus every second (-reload=0), and no
# address-space randomisation (some coverage of toml++ and libstdc++ follows addresses). Where the
# container forbids switching that off, the session still runs, reproducible up to such coverage.
launcher=()
case "$2" in
  --runs=*)
    budget=(-seed=1 -use_cmp=0 -reload=0 "-runs=${2#--runs=}")
    if setarch "$(uname -m)" -R true 2>/dev/null; then launcher=(setarch "$(uname -m)" -R); fi
    ;;
  --seconds=*) budget=("-max_total_time=${2#--seconds=}") ;;
  *) echo "run_fuzzer.sh: the second argument is --runs=N or --seconds=S, not '$2'" >&2; exit 2 ;;
esac
work=$3
shift 3
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
seeds=()
for dir in "$@"; do
  [ -d "$dir" ] && seeds+=("$dir")
done
# STOKESIAN_FUZZ_OPTIONS (set by CTest per target): the input length options.
# shellcheck disable=SC2206
length=(${STOKESIAN_FUZZ_OPTIONS:--max_len=1048576})
"${launcher[@]}" "$fuzzer" "${budget[@]}" "${length[@]}" -timeout="$per_input_timeout" -rss_limit_mb=2048 -malloc_limit_mb=17592186044415 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$work/corpus" "${seeds[@]}" >"$work/log" 2>&1
status=$?
grep -E "^(INFO: Seed|#[0-9]+.*DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|stat::peak_rss_mb)" "$work/log" || true
if [ $status -ne 0 ]; then
  tail -n 60 "$work/log"
  echo "run_fuzzer.sh: $(basename "$fuzzer") failed; the input is in $work/artifacts:" $(ls "$work/artifacts")
fi
exit $status
