"""What every report shares: the Jinja2 environment (templates/, HTML autoescaped), the number
formats, and writing a document."""
import math
import pathlib

import jinja2

TEMPLATES = pathlib.Path(__file__).resolve().parent / "templates"


def num(x, digits=6):
    """A number as C's %.{digits}g; None (JSON null: NaN or not applicable) as "–", infinity as "∞"."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if isinstance(x, float) and math.isinf(x):
        return "∞" if x > 0 else "-∞"
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return str(x)
    return f"{x:.{digits}g}"


def pm(x, ci, digits=6):
    """"x ± ci" (ci to two digits), or x alone without an interval."""
    if x is None:
        return "–"
    return f"{num(x, digits)} ± {num(ci, 2)}" if ci is not None and math.isfinite(ci) else num(x, digits)


def duration(seconds):
    """"0.42 s", "12 s", "3 min 05 s", "2 h 10 min" (the CLI's format_duration)."""
    if seconds is None:
        return "–"
    if seconds < 10:
        return f"{seconds:.2g} s"
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{int(seconds) // 60} min {int(seconds) % 60:02d} s"
    return f"{int(seconds) // 3600} h {(int(seconds) % 3600) // 60:02d} min"


def margin(value):
    """A margin |observed - reference| / tolerance: two digits, "–" where nothing was compared."""
    if value is None:
        return "–"
    if math.isinf(value):
        return "∞"
    return f"{value:.2g}" if value < 100 else f"{value:.3g}"


def md_cell(text):
    """Text for a Markdown table cell: no pipe, no line break."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def environment():
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2"),
                                                                 default_for_string=False),
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True)
    env.filters.update(num=num, pm=pm, duration=duration, margin=margin, md=md_cell)
    return env


def write(path, template, **context):
    """Renders templates/<template> into path (written whole, then renamed: never half a document)."""
    path = pathlib.Path(path)
    text = environment().get_template(template).render(**context)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


def save_figure(fig, path, dpi=100):
    """Saves a matplotlib figure (PNG) whole, then renames it; closes the figure. Returns path.name."""
    import matplotlib.pyplot as plt
    path = pathlib.Path(path)
    tmp = path.with_name(path.stem + ".tmp.png")
    fig.savefig(tmp, dpi=dpi)
    plt.close(fig)
    tmp.replace(path)
    return path.name
