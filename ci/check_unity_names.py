#!/usr/bin/env python3
"""Refuses a file-scope name defined in two files of one batch-compiled target.

The CLI and the test binaries are compiled in batches (CMake's unity build: tools/CMakeLists.txt,
tests/CMakeLists.txt), so the files of a batch share one translation unit and their anonymous
namespaces merge. Which files share a batch follows from their alphabetical order and changes when a
file is added, so two files that each define a helper `load` compile today and fail after an
unrelated file lands. This check refuses the pair up front, whatever the batches: each function,
type or variable defined at file scope (column 0, the house's namespace style) has one file of its
directory, and a function its name and parameters (overloads on distinct types, as the CLI's
`execute(const analyze_options&)`, stay apart). It also refuses a test fixture defined in an
anonymous namespace of a header: two test files of its suite in different batches would each get a
class of their own.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# One group per set of files batch-compiled into the same binaries (tests/CMakeLists.txt): a file's
# name and folder say its binary, and a batch may hold files of several folders of one binary.
TEST_LAYERS = ["backends", "core", "cpu", "cuda", "harness", "io", "numeric", "observables", "physics", "port",
               "regression", "run", "settings", "study"]
GPU_FOLDERS = TEST_LAYERS + ["cli"]
GROUPS = {
    "the unit and internals tests (tests/<layer>)": [p for f in TEST_LAYERS for p in (ROOT / "tests" / f).glob("*.cpp")
                                                     if not p.name.endswith("_gpu_test.cpp")],
    "the CLI tests (tests/cli)": [p for p in (ROOT / "tests/cli").glob("*.cpp") if not p.name.endswith("_gpu_test.cpp")],
    "the GPU tests (tests/*/*_gpu_test.cpp)": [p for f in GPU_FOLDERS for p in (ROOT / "tests" / f).glob("*_gpu_test.cpp")],
    "tools/cli": list((ROOT / "tools/cli").glob("*.cpp")),
}

NOT_A_DEFINITION = re.compile(r"^(TEST|TYPED_TEST|INSTANTIATE|REGISTER|return|namespace|using|#|//|template|extern|friend)\b")
FUNCTION = re.compile(r"^(?:\[\[[\w:]+\]\]\s*)?(?:static |inline |constexpr |consteval |\[\[nodiscard\]\] )*"
                      r"[\w:<>,\*&]+(?:<[^;{]*>)?[\s\*&]+(?:[\w:<>]+[\s\*&]+)*(\w+)\(")
TYPE = re.compile(r"^(?:template\s*<[^>]*>\s*)?(?:struct|class|enum class|enum|union) (\w+)[^;]*$")
NAMESPACE = re.compile(r"^(?:inline )?namespace ([\w:]*)\s*\{\s*(?://.*)?$")
CLOSED = re.compile(r"^\}\s*// namespace")
VARIABLE = re.compile(r"^(?:static |inline |constexpr |const |thread_local )+[\w:<>,\s\*&]+?[\s\*&](\w+)\s*(?:=|\{|\[)")


def names_of(path):
    """File-scope names as 'enclosing::named::namespaces::name' (anonymous namespaces merge in a batch)."""
    names = {}
    scopes = []
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        opened = NAMESPACE.match(line)
        if opened:
            scopes.append(opened.group(1) or "")
            continue
        if CLOSED.match(line) and scopes:
            scopes.pop()
            continue
        if not line or line[0] in " \t}{)" or NOT_A_DEFINITION.match(line):
            continue
        for pattern in (TYPE, VARIABLE, FUNCTION):
            m = pattern.match(line)
            if m and m.group(1) not in ("operator", "main"):
                name = m.group(1)
                if pattern is FUNCTION:  # overloads differ in their parameters
                    name += "(" + " ".join(line[m.end():].split(")")[0].split()) + ")"
                names.setdefault("::".join([s for s in scopes if s] + [name]), number)
                break
    return names


FIXTURE = re.compile(r"^(?:class|struct) (\w+)\s*:\s*public\s+(?:::)?testing::(?:Test|TestWithParam)\b")


def fixtures_in_anonymous_namespaces(path):
    """Test fixtures a header defines inside an anonymous namespace: one class per file that includes
    it, so two test files of one suite in different batches define two fixtures (gtest refuses)."""
    found, scopes = [], []
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        if m := NAMESPACE.match(line):
            scopes.append(m.group(1))
        elif CLOSED.match(line) and scopes:
            scopes.pop()
        elif (m := FIXTURE.match(line)) and "" in scopes:
            found.append((m.group(1), number))
    return found


def main():
    status = 0
    for header in sorted((ROOT / "tests").rglob("*.hpp")):
        for name, line in fixtures_in_anonymous_namespaces(header):
            print(f"ci/check-guards: test fixture '{name}' is defined in an anonymous namespace of the header "
                  f"{header.relative_to(ROOT)}:{line}: each test file including it gets a class of its own, and "
                  f"gtest refuses a suite whose tests use two; define it in a named namespace")
            status = 1
    for group, paths in GROUPS.items():
        seen = {}
        for path in sorted(paths):
            for name, line in names_of(path).items():
                where = f"{path.relative_to(ROOT)}:{line}"
                if name in seen:
                    print(f"ci/check-guards: '{name}' is defined at file scope in {seen[name]} and {where}: files of "
                          f"{group} are compiled in batches (one translation unit), so give one a name of its own "
                          f"or share one definition from a support header")
                    status = 1
                else:
                    seen[name] = where
    return status


if __name__ == "__main__":
    sys.exit(main())
