#!/usr/bin/python3
"""The nightly report in a real browser (issue #14): a passing and a failing quick-scale nightly on
the CPU (ci/nightly --backend cpu --scale 0.01, the failing one against references moved beyond
their tolerance by perturb_references.py), both in one history; then headless Chromium renders each
page (its DOM must show the verdict, the runs and, in the failing one, the failure rows) and every
local link and image of the reports and the history index must exist.

  browser_test.py --build BUILD_DIR [--work DIR] [--nights 2|3|4] [--screenshots DIR]

--nights 3 puts a passing night with a margin creeping towards its tolerance between the two, 4 adds
a passing night after the failing one (the regression fixed); --screenshots DIR writes small PNGs of
the last passing and the failing report and of the history index (ci/screenshots/ holds those of
--nights 4: each report shows a history of at least three nights).
Exit status 0 pass, 1 fail, 77 skipped (no Chromium, or a Python package of tools/report missing).
"""
import argparse
import pathlib
import shutil
import subprocess
import sys
import tempfile

SOURCE = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(SOURCE / "tools"))
sys.path.insert(0, str(SOURCE / "tests/report"))

DS_PERIOD = "tetrahedron.h5:hi=ds,int=ds/dt=0.01/euler/cpu:cycle.first_period"
F32_VELOCITY = "tetrahedron.h5:hi=f32,int=f32/dt=0.01/euler/cpu:centre_of_mass.mean_velocity_z"
FAILING = [f"{DS_PERIOD}:1.4", f"{F32_VELOCITY}:1.2"]  # the runs reproduce the references: these margins
CREEPING = [f"{DS_PERIOD}:0.45", f"{F32_VELOCITY}:0.7"]


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def browser(exe, *args, url):
    cmd = [exe, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
           "--disable-dev-shm-usage", *args, url]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stderr[-2000:]}")
    return r.stdout


def nightly(build, report, history, references, expect):
    cmd = [str(SOURCE / "ci/nightly"), "--backend", "cpu", "--scale", "0.01", "--no-setup", "--build", str(build),
           "--report", str(report), "--history", str(history), "--heartbeat", "30"]
    if references:
        cmd += ["--reference-dir", str(references)]
    r = subprocess.run(cmd, cwd=SOURCE, capture_output=True, text=True, timeout=900)
    if r.returncode != expect:
        raise AssertionError(f"{' '.join(cmd)}: exit {r.returncode}, expected {expect}\n{r.stdout[-3000:]}\n"
                             f"{r.stderr[-2000:]}")
    return report


def check_page(exe, page, verdict, failures):
    """The DOM Chromium builds from the page: the verdict, a row per run, the failure rows."""
    dom = browser(exe, "--dump-dom", url=page.resolve().as_uri())
    problems = []
    # The headline: the nightly's verdict, then the negative control's (tools/report/templates/nightly.html.j2).
    if f'<h1 id="verdict">Nightly regression report: <span class="{verdict.lower()}">{verdict}</span>; negative control: ' not in dom:
        problems.append(f"{page}: no {verdict} verdict in the rendered page")
    if dom.count("<tr class=\"\"><td><a href=\"#check-") + dom.count("<tr class=\"fail\"><td><a href=\"#check-") < 17:
        problems.append(f"{page}: fewer than 17 rows in the runs table")
    rows = dom.split('<table class="failures">')[1].split("</table>")[0] if '<table class="failures">' in dom else ""
    for observable in failures:
        if f"<td>{observable}</td>" not in rows:
            problems.append(f"{page}: no failure row for {observable}")
    if not failures and "No check failed." not in dom:
        problems.append(f"{page}: a passing report without 'No check failed.'")
    if "<details>" not in dom:
        problems.append(f"{page}: the full check table is not collapsible")
    return problems


def screenshot(exe, page, out, height):
    """A small PNG of the top of a page (palette PNG: a few tens of KB)."""
    raw = out.with_suffix(".raw.png")
    browser(exe, "--window-size=1200," + str(height), f"--screenshot={raw}", url=page.resolve().as_uri())
    try:
        from PIL import Image
        with Image.open(raw) as im:
            im.convert("RGB").resize((900, int(height * 0.75))).quantize(colors=64).save(out, optimize=True)
        raw.unlink()
    except ImportError:
        raw.replace(out)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", required=True, type=pathlib.Path)
    p.add_argument("--work", type=pathlib.Path)
    p.add_argument("--nights", type=int, choices=(2, 3, 4), default=2)
    p.add_argument("--screenshots", type=pathlib.Path)
    a = p.parse_args()
    exe = chromium()
    if exe is None:
        print("skipped: no headless Chromium (Debian chromium; ci/setup --browser installs it)")
        return 77
    from report import cli, links
    if cli.missing_packages():
        print("skipped: missing " + ", ".join(cli.missing_packages()))
        return 77
    import perturb_references

    work = a.work or pathlib.Path(tempfile.mkdtemp(prefix="stokesian_browser_"))
    work.mkdir(parents=True, exist_ok=True)
    history = work / "history"
    refs = SOURCE / "reference_data/scale-0.01"
    passing = nightly(a.build, work / "night-pass", history, None, 0)
    if a.nights >= 3:
        nightly(a.build, work / "night-creeping", history,
                perturb_references.perturb(refs, work / "refs-creeping", CREEPING), 0)
    failing = nightly(a.build, work / "night-fail", history,
                      perturb_references.perturb(refs, work / "refs-failing", FAILING), 1)
    if a.nights == 4:
        passing = nightly(a.build, work / "night-fixed", history, None, 0)

    problems = []
    problems += check_page(exe, work / "night-pass" / "summary.html", "PASS", [])
    if passing != work / "night-pass":
        problems += check_page(exe, passing / "summary.html", "PASS", [])
    problems += check_page(exe, failing / "summary.html", "FAIL", ["cycle.first_period",
                                                                     "centre_of_mass.mean_velocity_z"])
    pages = sorted({work / "night-pass" / "summary.html", passing / "summary.html", failing / "summary.html",
                    history / "index.html", *history.glob("nights/*/summary.html")})
    for page in pages:
        problems += [f"{page}: {b}" for b in links.broken(page)]
    index = history / "index.html"
    if index.read_text().count("<tr class=") != a.nights:
        problems.append(f"{index}: expected {a.nights} nights")
    if a.screenshots:
        a.screenshots.mkdir(parents=True, exist_ok=True)
        screenshot(exe, passing / "summary.html", a.screenshots / "nightly-pass.png", 1500)
        screenshot(exe, failing / "summary.html", a.screenshots / "nightly-fail.png", 2000)
        screenshot(exe, index, a.screenshots / "nightly-history.png", 1300)
    for problem in problems:
        print("FAIL:", problem)
    print(f"{len(pages)} pages checked in Chromium ({exe}) and for broken links: "
          f"{'PASS' if not problems else f'{len(problems)} problems'} (work folder {work})")
    if not problems and not a.work:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
