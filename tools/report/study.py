"""A study folder (`stokesian study precision|timestep`): summary.md, summary.html and figures/ from
study.json (written by the C++ command: every number here comes from it) and the runs' H5MD files.
engine/docs/studies.md explains the fits."""
import math
import pathlib

from . import common, schema


def plural(n, noun):
    return f"{n} {noun}{'' if n == 1 else 's'}"


def trend_text(t, points):
    """"adequate: degree 2 over 38 cycles, lack-of-fit p = 0.41, runs p = 0.3" (trend_fit.hpp)."""
    if t is None or t.get("degree") is None:
        return "–"
    text = f"{t['validity']}: degree {t['degree']} over {t['cycles']} {points}"
    if t.get("lack_of_fit_p") is not None:
        text += f", lack-of-fit p = {common.num(t['lack_of_fit_p'], 2)}"
    if t.get("residual_runs_p") is not None:
        text += f", runs p = {common.num(t['residual_runs_p'], 2)}"
    return text


def mode_tag(mode):
    """"hi=ds,int=f32" -> "ds-f32" (study::mode_tag)."""
    return mode.replace("hi=", "").replace(",int=", "-")


def cost_rankings(study):
    """Per drift target: the (mode, integrator) entries cheapest first in wall seconds per tau_s."""
    out = []
    several_modes = len(study["modes"]) > 1
    for k, target in enumerate(study.get("drift_targets", [])):
        ranked = [c for c in study.get("cost", []) if k < len(c["wall_per_tau"]) and c["wall_per_tau"][k] is not None]
        if not ranked:
            continue
        ranked.sort(key=lambda c: c["wall_per_tau"][k])
        entries = [f"{c['integrator']} ({mode_tag(c['mode']) + ', ' if several_modes else ''}"
                   f"{common.num(c['wall_per_tau'][k], 3)}{'*' if c['beyond_range'][k] else ''})" for c in ranked]
        out.append((target, ", ".join(entries)))
    return out


def context(study, figures):
    kind = study["kind"]
    case = study.get("case") or ""
    show_cost = bool(study.get("cost")) and len(study["integrators"]) + len(study["dts"]) > 2
    cost_rows = []
    for c in study.get("cost", []):
        model = (f"{common.num(c['drift_coefficient'], 3)} δt^{common.num(c['drift_order'], 3)}"
                 if c.get("drift_order") is not None and math.isfinite(c["drift_order"]) and not c.get("note")
                 else "–")
        targets = []
        for k in range(len(study.get("drift_targets", []))):
            if k < len(c["dt_needed"]):
                targets.append(f"{common.num(c['dt_needed'][k], 3)}{'*' if c['beyond_range'][k] else ''}, "
                               f"{common.num(c['evaluations_per_tau'][k], 3)}, {common.num(c['wall_per_tau'][k], 3)}")
            else:
                targets.append("–")
        wall = c.get("wall_per_evaluation")
        cost_rows.append(dict(c, model=model, target_cells=targets, wall_us=None if wall is None else 1e6 * wall))
    return dict(study=study, title=f"{'Precision' if kind == 'precision' else 'Time-step'} study: "
                                   f"{pathlib.Path(study['scenario']).name}{f' (case {case})' if case else ''}",
                counts=f"{len(study['runs'])} ({plural(len(study['modes']), 'precision mode')} × "
                       f"{plural(len(study['dts']), 'time step')} × {plural(len(study['integrators']), 'integrator')})",
                runs=study["runs"], convergence=study.get("convergence", []), show_cost=show_cost,
                cost_rows=cost_rows, rankings=cost_rankings(study), figures=figures, trend_text=trend_text,
                provenance=sorted((study.get("provenance") or {}).items()))


def render(args):
    folder = pathlib.Path(args.study)
    study = schema.load(folder / "study.json", schema.STUDY)
    figures = []
    if not args.no_figures:
        from . import study_figures
        figures = study_figures.draw(folder, study)
    ctx = context(study, figures)
    common.write(folder / "summary.md", "study.md.j2", **ctx)
    common.write(folder / "summary.html", "study.html.j2", **ctx)
    print(f"study report: {folder / 'summary.md'}, {folder / 'summary.html'}, {len(figures)} figures")
    return 0
