#!/usr/bin/python3
"""SASS instructions per pair of the HI kernels, counted statically (no GPU needed).

Reads `cuobjdump -sass` of an object or binary and builds each kernel's control-flow graph. For
every loop (a backward branch) it takes the common iteration that evaluates a pair:
  - without a warp vote (the old kernels): the lightest path once around the loop through a
    reciprocal square root (MUFU.RSQ / MUFU.RSQ64H: every pair evaluation issues one), a call
    (an IEEE slow path) weighing 1000: rare branches (slow paths, the tie rule, the self term)
    are not taken;
  - with one (the far kernels): the lightest path to the vote, its all-lanes-far branch, then the
    longest path back that calls nothing (past the vote the branches are the per-lane guards of
    the terms, which the common iteration takes; a periodic flush, such as the ds partial sum of
    fast-far-split every fourth step, is then counted in every step: amortize it by hand).
Instructions per pair = the path's length / the reciprocal square roots on it (several pairs per
iteration where the kernel or the compiler unrolls). Warp instructions of one lane per pair, i.e.
ncu's thread instructions per pair for the common case only: ncu also counts the rare paths, the
tile loads and the loop set-up.

usage: tools/perf/sass_pair_count.py FILE.o [--filter REGEX] [--cuobjdump PATH]
  prints pairs per iteration, instructions per pair, MUFU and LDS per pair, the kernel.
  cuobjdump and nvdisasm: the CUDA toolkit's, or PyPI's nvidia-cuda-cuobjdump and
  nvidia-cuda-nvdisasm (bin/ in the wheel) on PATH.
"""
import argparse
import heapq
import re
import subprocess
import sys

INSTR = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?);")
FUNC = re.compile(r"Function : (\S+)")
TARGET = re.compile(r"\b(?:BRA|BRX|JMP)\b[^0-9]*?(0x[0-9a-f]+)")


def parse(sass):
    """{kernel: [(address, text)]} from cuobjdump -sass output."""
    kernels, current = {}, None
    for line in sass.splitlines():
        m = FUNC.search(line)
        if m:
            current = m.group(1)
            kernels[current] = []
            continue
        m = INSTR.search(line)
        if m and current:
            kernels[current].append((int(m.group(1), 16), m.group(2).strip()))
    return kernels


def successors(code):
    index = {a: k for k, (a, _) in enumerate(code)}
    succ = []
    for k, (_, text) in enumerate(code):
        predicated = text.startswith("@")
        op = text.split()[1] if predicated else text.split()[0]
        nxt = [k + 1] if k + 1 < len(code) else []
        if op.startswith(("BRA", "JMP", "BRX")):
            m = TARGET.search(text)
            out = [index[int(m.group(1), 16)]] if m and int(m.group(1), 16) in index else []
            succ.append(out + (nxt if predicated or op.startswith("BRA.DIV") else []))
        elif op.startswith(("EXIT", "RET")):
            succ.append(nxt if predicated else [])
        else:
            succ.append(nxt)
    return succ


def weight(text):
    """A call (the slow path of an IEEE division or square root, a subroutine) weighs as if it were
    long, so that the shortest path takes the inline fast path wherever there is one."""
    return 1000 if "CALL" in text else 1


def path(code, succ, start, goal):
    """The lightest path start -> goal as a list of instruction indices, or None."""
    prev, dist = {start: None}, {start: weight(code[start][1])}
    queue = [(dist[start], start)]
    while queue:
        d, u = heapq.heappop(queue)
        if u == goal:
            out = []
            while u is not None:
                out.append(u)
                u = prev[u]
            return out[::-1]
        if d > dist[u]:
            continue
        for v in succ[u]:
            w = d + weight(code[v][1])
            if w < dist.get(v, 1 << 60):
                dist[v], prev[v] = w, u
                heapq.heappush(queue, (w, v))
    return None


def vote_restricted(code, succ):
    """The far kernels' warp vote (VOTE.ALL P, ...; then @P BRA to the far path): an iteration that
    reaches it follows the all-lanes-far way, so the general form and its self term are not counted."""
    out = list(succ)
    for k, (_, text) in enumerate(code):
        m = re.match(r"VOTE\.ALL (P\d)", text)
        if not m:
            continue
        p = m.group(1)
        for j in range(k + 1, min(k + 4, len(code))):
            t = code[j][1]
            if t.startswith(f"@{p} BRA"):
                out[j] = [x for x in succ[j] if x != j + 1]
                break
            if t.startswith(f"@!{p} BRA"):
                out[j] = [j + 1]
                break
    return out


def constrained_path(code, succ, h, u):
    """The lightest path h -> u through a MUFU.RSQ: an iteration that evaluates a pair (the self
    term of the exact kernels takes none; that of the far kernels is behind the vote)."""
    best = None
    for x in (k for k, (_, t) in enumerate(code) if "MUFU.RSQ" in t):
        a, b = path(code, succ, h, x), path(code, succ, x, u)
        if a and b:
            nodes = a + b[1:]
            cost = sum(weight(code[k][1]) for k in nodes)
            if best is None or cost < best[0]:
                best = (cost, nodes)
    return best[1] if best else None


def longest_without_calls(code, succ, start, goal):
    """The longest forward path start -> goal that calls nothing (a DAG: forward edges only)."""
    best = {goal: (1, None)}
    for x in range(goal - 1, start - 1, -1):
        if "CALL" in code[x][1]:
            continue
        options = [(best[y][0], y) for y in succ[x] if x < y <= goal and y in best]
        if options:
            length, y = max(options)
            best[x] = (length + 1, y)
    if start not in best:
        return None
    out, x = [], start
    while x is not None:
        out.append(x)
        x = best[x][1]
    return out


def pair_loops(code):
    """(length, reciprocal square roots, texts) of the common pair-evaluating iteration of each loop.
    Without a warp vote: the lightest path through a reciprocal square root. With one (the far
    kernels): the lightest path to the vote, then the all-far branch and, from it, the longest path
    back that calls nothing: past the vote the branches are the per-lane guards of the pair terms
    (which the common iteration takes), the rare ones are calls (IEEE slow paths)."""
    succ = vote_restricted(code, successors(code))
    loops = []
    for u, outs in enumerate(succ):
        for h in outs:
            if h > u or not path(code, succ, h, u):
                continue
            votes = [k for k in range(h, u) if code[k][1].startswith("VOTE.ALL")]
            nodes = None
            if votes:
                branch = next((j for j in range(votes[0] + 1, u) if " BRA" in code[j][1]), None)
                head = path(code, succ, h, branch) if branch is not None else None
                far = [x for x in succ[branch] if x != branch + 1] if head else []
                tail = longest_without_calls(code, succ, far[0], u) if far else None
                if head and tail:
                    nodes = head + tail
            else:
                nodes = constrained_path(code, succ, h, u)
            if nodes:
                texts = [code[k][1] for k in nodes]
                rsq = sum(1 for t in texts if "MUFU.RSQ" in t)
                if rsq:
                    loops.append((len(nodes), rsq, texts))
    return loops


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--filter", default="hi_")
    ap.add_argument("--cuobjdump", default="cuobjdump")
    args = ap.parse_args()
    sass = subprocess.run([args.cuobjdump, "-sass", args.file], check=True, capture_output=True, text=True).stdout
    demangled = subprocess.run(["c++filt"], input="\n".join(parse(sass)), capture_output=True, text=True).stdout
    names = dict(zip(parse(sass), demangled.splitlines()))
    print("pairs  instr/pair  MUFU  LDS  kernel")
    for kernel, code in parse(sass).items():
        name = names.get(kernel, kernel)
        if not re.search(args.filter, name):
            continue
        loops = pair_loops(code)
        if not loops:
            continue
        length, rsq, texts = min(loops, key=lambda x: x[0] / x[1])
        mufu = sum(1 for t in texts if "MUFU" in t)
        lds = sum(1 for t in texts if re.search(r"\bLDS", t))
        short = re.sub(r"^void stokesian::cuda::", "", name.split("(")[0])
        short = short.replace("stokesian::", "").replace("rotne_prager_yamakawa_tensor", "rpy")
        print(f"{rsq:5d}  {length / rsq:10.1f}  {mufu / rsq:4.1f}  {lds / rsq:3.1f}  {short}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
