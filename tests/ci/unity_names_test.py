#!/usr/bin/python3
"""ci/check_unity_names.py finds a test fixture a header defines inside an anonymous namespace (at
file scope or nested in a named one) and passes one in a named namespace: it reads small headers
written here. Exit status: 0 pass, 1 fail."""
import importlib.util
import pathlib
import sys
import tempfile

CHECKER = pathlib.Path(__file__).resolve().parents[2] / "ci" / "check_unity_names.py"
spec = importlib.util.spec_from_file_location("check_unity_names", CHECKER)
checker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(checker)

CASES = {
    "namespace {\n\nclass Files : public ::testing::Test {\n};\n\n}  // namespace\n": [("Files", 3)],
    "namespace a {\nnamespace {\nstruct Modes : public testing::TestWithParam<int> {};\n}  // namespace\n"
    "}  // namespace a\n": [("Modes", 3)],
    "namespace fixtures {\n\nclass Files : public ::testing::Test {\n};\n\n}  // namespace fixtures\n": [],
    "namespace {\nint helper();\n}  // namespace\nclass Files : public ::testing::Test {};\n": [],
}

failures = 0
with tempfile.TemporaryDirectory() as scratch:
    for number, (text, expected) in enumerate(CASES.items()):
        header = pathlib.Path(scratch) / f"case{number}.hpp"
        header.write_text(text)
        found = checker.fixtures_in_anonymous_namespaces(header)
        if found != expected:
            print(f"case {number}: found {found}, expected {expected}:\n{text}")
            failures += 1
sys.exit(1 if failures else 0)
