#!/usr/bin/env bash
# One bounded libFuzzer session (CTest, build dir of the preset `fuzz`):
#   run_fuzzer.sh FUZZER SECONDS WORK_DIR SEED_DIR...
# New inputs go to WORK_DIR/corpus (the seed directories are only read); a crash, a sanitizer
# report, a leak, a timeout (> 20 s per input) or a memory blow-up (> 2 GB) fails the test and
# leaves the input in WORK_DIR/artifacts: add it to tests/fuzz/regressions/<target>/ and fix the bug.
set -uo pipefail
# HDF5's own leaks on damaged files are not findings (tests/sanitizers/lsan_hdf5.supp).
export LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")/../sanitizers" && pwd)/lsan_hdf5.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# HDF5 checks every malloc and fails cleanly on NULL; a damaged file can make it ask for an
# absurd size (a length field of garbage). Allocations above 512 MB answer NULL, as they would on
# a machine without that memory, instead of aborting or exhausting the fuzzing host.
export ASAN_OPTIONS="allocator_may_return_null=1:max_allocation_size_mb=512${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fuzzer=$1
seconds=$2
work=$3
shift 3
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
seeds=()
for dir in "$@"; do
  [ -d "$dir" ] && seeds+=("$dir")
done
"$fuzzer" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=17592186044415 -max_len=1048576 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$work/corpus" "${seeds[@]}" >"$work/log" 2>&1
status=$?
grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|stat::peak_rss_mb)" "$work/log" || true
if [ $status -ne 0 ]; then
  tail -n 60 "$work/log"
  echo "run_fuzzer.sh: $(basename "$fuzzer") failed; the input is in $work/artifacts:" $(ls "$work/artifacts")
fi
exit $status
