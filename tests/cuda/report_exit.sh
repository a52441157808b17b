#!/usr/bin/env bash
# Runs its arguments and says on stderr how they ended (exit status, or the signal that killed them),
# for the compute-sanitizer test: the sanitizer reports only that its target "returned an error".
"$@"
status=$?
if [ "$status" -gt 128 ]; then
  echo "report_exit.sh: the application was killed by signal $((status - 128)) ($(kill -l $((status - 128)) 2>/dev/null))" >&2
elif [ "$status" -ne 0 ]; then
  echo "report_exit.sh: the application exited with status $status" >&2
fi
exit "$status"
