#!/usr/bin/env bash
# Runs a fuzz target once on every file of the given directories (the regression inputs kept from
# earlier findings, and the seeds): each must pass without a crash or a sanitizer report.
#   replay_inputs.sh FUZZER DIR...
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
shift
files=()
for dir in "$@"; do
  [ -d "$dir" ] || continue
  while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$dir" -type f ! -name README.md -print0 | sort -z)
done
if [ ${#files[@]} -eq 0 ]; then
  echo "no inputs"
  exit 0
fi
"$fuzzer" -timeout="$per_input_timeout" -rss_limit_mb=2048 -malloc_limit_mb=17592186044415 "${files[@]}" >"${TMPDIR:-/tmp}/replay_$$.log" 2>&1
status=$?
[ $status -eq 0 ] || tail -n 60 "${TMPDIR:-/tmp}/replay_$$.log"
rm -f "${TMPDIR:-/tmp}/replay_$$.log"
echo "$(basename "$fuzzer"): ${#files[@]} inputs replayed, exit $status"
exit $status
