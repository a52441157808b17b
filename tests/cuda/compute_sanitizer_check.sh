#!/usr/bin/env bash
# CTest (label gpu): compute-sanitizer memcheck and racecheck on a short run of every CUDA HI
# kernel, with and without short-range forces (the tetrahedron; the approaching pair with
# lubrication), in the reference and the double-single precision modes. Exit 77 (CTest: skipped,
# with the reason printed) where there is no compute-sanitizer or no GPU.
#   compute_sanitizer_check.sh STOKESIAN_CLI SOURCE_DIR
set -uo pipefail
cli=$1
source_dir=$2
sanitizer=$(command -v compute-sanitizer || true)
[ -n "$sanitizer" ] || [ ! -x /usr/local/cuda/bin/compute-sanitizer ] || sanitizer=/usr/local/cuda/bin/compute-sanitizer
if [ -z "$sanitizer" ]; then
  echo "compute-sanitizer not found: skipped"
  exit 77
fi
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no CUDA device: skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The application runs under report_exit.sh (the sanitizer follows it, --target-processes all), which
# says how it ended when it fails; each configuration writes a file of its own, so no run meets
# another's output, lock or checkpoint.
report_exit="$(cd "$(dirname "$0")" && pwd)/report_exit.sh"

status=0
for kernel in naive tiling small-tiling fast-split far-tiling fast-far-split ordered-split adding-warps fused; do
  for tool in memcheck racecheck; do
    for run in "tetrahedron.toml --sample-every 0.1" "approaching_pairs.toml --sample-every 0.01"; do
      set -- $run
      scenario=$1
      shift
      for precision in hi=f64,int=f64 hi=ds,int=ds; do
        name="$tool-$kernel-${scenario%.toml}-${precision//[=,]/_}"
        log="$work/$name.log"
        "$sanitizer" --tool "$tool" --error-exitcode 9 --target-processes all "$report_exit" "$cli" run \
          "$source_dir/scenarios/$scenario" --backend cuda --hi-kernel "$kernel" --precision "$precision" --steps 200 "$@" \
          -o "$work/$name.h5" >"$log" 2>&1
        code=$?
        if [ "$code" = 0 ]; then
          echo "clean  $tool $kernel $scenario $precision"
        else
          echo "ISSUES $tool $kernel $scenario $precision (compute-sanitizer exit status $code; 9: it found errors):"
          if [ "$(wc -l <"$log")" -le 80 ]; then
            cat "$log"
          else
            head -n 20 "$log"
            echo "[...]"
            tail -n 60 "$log"
          fi
          status=1
        fi
      done
    done
  done
done
exit $status
