"""Broken links of a rendered report: every local href and src must name a file that exists (relative
to the document), every "#fragment" an element id of the target document. External links
(http:, https:, mailto:) are not followed. Used by the tests of the renderer and the browser test."""
import html.parser
import pathlib
import urllib.parse


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if name in ("href", "src") and value:
                self.links.append((tag, name, value))


def parse(path):
    p = _Links()
    p.feed(pathlib.Path(path).read_text(encoding="utf-8"))
    return p


def broken(path):
    """["<a href=...>: why"] for each local link of the HTML file that leads nowhere."""
    path = pathlib.Path(path)
    doc = parse(path)
    out = []
    for tag, attr, value in doc.links:
        url = urllib.parse.urlsplit(value)
        if url.scheme in ("http", "https", "mailto", "data"):
            continue
        if url.scheme not in ("", "file"):
            out.append(f"<{tag} {attr}={value}>: unexpected scheme")
            continue
        target = path if not url.path else (path.parent / urllib.parse.unquote(url.path)).resolve()
        if not target.exists():
            out.append(f"<{tag} {attr}={value}>: {target} does not exist")
            continue
        if url.fragment and target.suffix == ".html":
            ids = doc.ids if target == path else parse(target).ids
            if urllib.parse.unquote(url.fragment) not in ids:
                out.append(f"<{tag} {attr}={value}>: no element with id {url.fragment!r} in {target.name}")
    return out
