#!/usr/bin/env python3
"""Compiler launcher of ci/measure-build: runs the compile and appends its object, CPU seconds (user+sys
of the compiler and its children) and wall seconds to the CSV file named by STOKESIAN_CPU_TIME_LOG."""
import fcntl
import os
import resource
import subprocess
import sys
import time

command = sys.argv[1:]
begin = time.monotonic()
status = subprocess.call(command)
wall = time.monotonic() - begin
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
output = command[command.index("-o") + 1] if "-o" in command else command[-1]
with open(os.environ["STOKESIAN_CPU_TIME_LOG"], "a") as log:
    fcntl.flock(log, fcntl.LOCK_EX)
    log.write(f"{output},{usage.ru_utime + usage.ru_stime:.2f},{wall:.2f}\n")
sys.exit(status)
