#!/usr/bin/python3
"""The recipes of engine/README.md and the recipe proof (ci/recipe-proof) cannot drift apart: every
recipe names a file the proof adds (each recipe is proven), every file the proof adds under
tests/recipes/ (all but its own build and test files) is named by a recipe, every file of
tests/recipes/ a recipe names exists, and the CMake variables the proof sets
(tests/recipes/recipes.cmake) are the extension points the recipes name.
Exit status: 0 pass, 1 fail (one line per difference)."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
RECIPES = ROOT / "tests" / "recipes"
# The proof's own files: its build (CMakeLists.txt, recipes.cmake) and its test binary.
PROOF_OWN = {"CMakeLists.txt", "recipes.cmake", "recipe_proof_test.cpp"}


def recipe_sections(readme):
    """The text of each '## How to add' / '### How to add' section."""
    sections = re.split(r"^(?=#{2,3} )", readme, flags=re.M)
    return [s for s in sections if re.match(r"#{2,3} How to add ", s)]


def main():
    sections = recipe_sections((ROOT / "engine" / "README.md").read_text())
    text = "\n".join(sections)
    problems = []
    if not text:
        problems.append("engine/README.md: no 'How to add' section found")
    for section in sections:
        if "`tests/recipes/" not in section:
            title = section.splitlines()[0].lstrip("# ")
            problems.append(f"engine/README.md: the recipe '{title}' names no file the recipe proof adds")
    named = set(re.findall(r"`tests/recipes/([^`]+)`", text))
    added = {p.relative_to(RECIPES).as_posix() for p in RECIPES.rglob("*") if p.is_file()} - PROOF_OWN
    for name in sorted(added - named):
        problems.append(f"tests/recipes/{name}: added by the recipe proof but named by no recipe of engine/README.md")
    for name in sorted(named - added - PROOF_OWN):
        problems.append(f"engine/README.md: a recipe names tests/recipes/{name}, which the recipe proof does not add")
    proof_build = (RECIPES / "recipes.cmake").read_text()
    set_by_proof = set(re.findall(r"^\s*set\((STOKESIAN_[A-Z_]+)", proof_build, flags=re.M))
    named_points = set(re.findall(r"`(STOKESIAN_EXTRA_[A-Z_]+)`", text))
    for variable in sorted(set_by_proof - named_points):
        problems.append(f"tests/recipes/recipes.cmake sets {variable}, which no recipe of engine/README.md names")
    for variable in sorted(named_points - set_by_proof):
        problems.append(f"engine/README.md: a recipe names {variable}, which the recipe proof does not set")
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
