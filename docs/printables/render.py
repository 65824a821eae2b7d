"""Markdown to printable HTML: the A4 page, the slide deck, and pictures inlined as data.

Every page carries a ``{digest}`` placeholder in its footer; the builder fills it with the
first 12 hex digits of the page's SHA-256, so a printed PDF names the source it was made from.
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

DOC_STYLE = """
@page { size: A4; margin: 13mm 15mm 14mm 15mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 10pt; line-height: 1.35; color: #111; }
h1 { font-size: 16pt; margin: 0 0 2mm 0; }
h2 { font-size: 12.5pt; margin: 4mm 0 1.5mm 0; border-bottom: 1px solid #999; break-after: avoid; }
h3 { font-size: 10.5pt; margin: 3mm 0 1mm 0; break-after: avoid; }
p, li { margin: 0 0 1.5mm 0; }
ul, ol { margin: 0 0 2mm 0; padding-left: 5mm; }
table { border-collapse: collapse; width: 100%; margin: 1mm 0 2.5mm 0; font-size: 9.5pt; }
th, td { border: 1px solid #777; padding: 0.8mm 1.6mm; text-align: left; vertical-align: top; }
code, pre { font-family: "DejaVu Sans Mono", monospace; font-size: 8.5pt; }
pre { background: #F4F4F4; padding: 1.5mm 2mm; white-space: pre-wrap; margin: 1mm 0 2mm 0; }
.lead { color: #333; font-style: italic; }
footer { margin-top: 3mm; font-size: 7.5pt; color: #555; }
"""

SLIDE_STYLE = """
@page { size: 297mm 167.0625mm; margin: 0; }
html, body { margin: 0; padding: 0; }
body { font-family: "DejaVu Sans", Arial, sans-serif; color: #111; }
.slide { box-sizing: border-box; position: relative; overflow: hidden; background: #fff;
  width: 297mm; height: 167mm; padding: 9mm 14mm 12mm 14mm; font-size: 17pt; line-height: 1.3;
  break-after: page; }
.slide:last-of-type { break-after: auto; }
.slide h1 { font-size: 1.7em; margin: 0 0 0.45em 0; color: #0072B2; }
.slide p, .slide li { margin: 0 0 0.35em 0; }
.slide ul, .slide ol { margin: 0 0 0.4em 0; padding-left: 1.2em; }
.slide table { border-collapse: collapse; margin: 0.2em 0 0.5em 0; font-size: 0.9em; }
.slide th, .slide td { border: 1px solid #777; padding: 0.15em 0.5em; text-align: left; vertical-align: top; }
.slide img { display: block; max-width: 100%; max-height: 112mm; margin: 0 auto 0.3em auto; }
.slide code { font-family: "DejaVu Sans Mono", monospace; font-size: 0.9em; }
.slide footer { position: absolute; left: 14mm; right: 14mm; bottom: 4mm; font-size: 7.5pt; color: #666; }
@media screen {
  body { background: #222; }
  .slide { display: none; width: 100vw; height: 56.25vw; max-height: 100vh; max-width: 177.78vh;
    margin: 0 auto; font-size: min(2.4vw, 4.27vh); padding: 3vw 4.5vw 4vw 4.5vw; }
  .slide img { max-height: 68%; }
  .slide.current { display: block; }
}
"""

SLIDE_SCRIPT = """
const slides = [...document.querySelectorAll('.slide')];
let at = Math.min(slides.length, Math.max(1, parseInt(location.hash.slice(1)) || 1)) - 1;
function show(n) {
  at = Math.max(0, Math.min(slides.length - 1, n));
  slides.forEach((s, k) => s.classList.toggle('current', k === at));
  history.replaceState(null, '', '#' + (at + 1));
}
document.addEventListener('keydown', (e) => {
  if (['ArrowRight', 'ArrowDown', 'PageDown', ' ', 'Enter'].includes(e.key)) show(at + 1);
  if (['ArrowLeft', 'ArrowUp', 'PageUp', 'Backspace'].includes(e.key)) show(at - 1);
  if (e.key === 'Home') show(0);
  if (e.key === 'End') show(slides.length - 1);
});
document.addEventListener('click', (e) => show(e.clientX > innerWidth / 3 ? at + 1 : at - 1));
show(at);
"""

NOTICE = "energies — unofficial teaching kit; CATAN is a trademark of its owners."


def markdown(text: str) -> str:
    import mistune

    return mistune.html(text)  # as the worksheets: tables on, the kit's own HTML kept


def inline_pictures(page: str, folder: Path) -> str:
    """Every ``<img src="relative.png">`` replaced by its bytes as a data URL, so a page or a
    deck is one file that works offline; a missing picture stops the build."""

    def one(match) -> str:
        src = html.unescape(match.group(1))
        if src.startswith("data:"):
            return match.group(0)
        path = (folder / src).resolve()
        if not path.is_file():
            raise SystemExit(f"picture {src} (from {folder}) does not exist")
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        return f'src="data:image/png;base64,{data}"'

    return re.sub(r'src="([^"]+)"', one, page)


def document(title: str, body: str, source: str) -> str:
    """An A4 page: ``body`` (HTML) under a footer naming ``source`` and the digest."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{DOC_STYLE}</style></head><body>\n"
        f"{body}\n<footer>{NOTICE} Facilitator pack, built from {html.escape(source)} by "
        "docs/build_worksheets.py · source {digest}</footer></body></html>\n"
    )


def split_slides(text: str) -> list[str]:
    """A slide source's slides: markdown parts between lines holding only ``---``."""
    return [part.strip() for part in re.split(r"\n-{3,}\n", "\n" + text + "\n") if part.strip()]


def deck(title: str, slides: list[str], source: str) -> str:
    """A slide deck: one 16:9 page per slide when printed, one slide at a time on screen
    (arrow keys, space or a click move on; ``#3`` in the address opens slide 3)."""
    parts = []
    for number, slide in enumerate(slides, start=1):
        parts.append(
            f'<section class="slide" id="slide-{number}">\n{slide}\n'
            f"<footer>{html.escape(title)} · {number}/{len(slides)} · {NOTICE} Built from "
            f"{html.escape(source)} · source {{digest}}</footer></section>"
        )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width">'
        f"<title>{html.escape(title)}</title><style>{SLIDE_STYLE}</style></head><body>\n"
        + "\n".join(parts)
        + f"\n<script>{SLIDE_SCRIPT}</script></body></html>\n"
    )
