"""Build the printable worksheets, the rules sheet and the facilitator pack -> HTML -> PDF.

    python docs/build_worksheets.py            # write docs/worksheets/*.pdf and
                                               # docs/facilitator/* (needs Chromium)
    python docs/build_worksheets.py --check    # exit 1 if a PDF is stale (no Chromium needed)

The facilitator pack (slides, script, player aid, role cards, answer keys, debrief guide) is
built by the package beside this script, ``docs/printables``; its docstring says from what.

Each lesson's worksheet is made from its notebook, so the two cannot drift apart: the title,
the "**Predict first:**" prompts of the core path (one answer box each), the discussion or
debrief questions, plus an exit ticket (and for lesson 02 a build log) written below. The
rules sheet is ``notebooks/RULES.md``. Every page is rendered to HTML here and printed to PDF
by Debian's headless Chromium (``apt-get install chromium``). The SHA-256 of each HTML page
is printed in the PDF's footer and stored in ``docs/worksheets/sources.json``;
``tests/test_worksheets.py`` rebuilds the HTML and compares, so an edited notebook or rules
sheet with an old PDF fails the tests until this script is run again.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
OUT = ROOT / "docs" / "worksheets"
HASHES = OUT / "sources.json"
RULES = NOTEBOOKS / "RULES.md"

# What a notebook does not say itself: the exit ticket, and debrief questions where the
# notebook has no numbered discussion list of its own.
EXIT_TICKETS = {
    "00": "In one sentence: how can a game end with everybody losing?",
    "01": "Which corner of the board would you build your first town on, and what numbers made you choose it?",
    "02": "Name one build you made and say whether it helped you, the table, or both.",
    "03": "Who caused most of the footprint in the game, and who paid for it? One sentence with a number.",
    "04": "Name the temptation, the externality and the volunteer in this game (one line each).",
    "05": "Which rule change would you propose as a policy, and what did the data say about it?",
    "06": "What is the one rule your bot follows that the personas do not?",
    "07": 'Complete: "Playing in role changed / did not change ... because ..."',
}
DEBRIEF = {
    "00": [
        "Who won the bot game, and did they have the most victory points?",
        "Where on the footprint chart does the GF enter a new band? What changes then?",
    ],
    "01": [
        "Why is a corner with high pips worth more than one with many neighbours?",
        "How does the distance rule limit where towns can stand?",
    ],
    "02": [
        "Look at your build log: when did you choose fossil, when renewable, and why?",
        "Did anyone at your table pay for pollution they did not cause? How could you tell?",
        "If you played again, what would you do differently — and would the others?",
    ],
    "03": [
        "Which player caused the biggest footprint? Which player suffered the most harm?",
        "Why does pollution not stay with the polluter in this game?",
    ],
    "06": [
        "Which idea made your bot win more often? How many games did you need to be sure?",
        "Does your bot win by being green, or despite it?",
    ],
}
DEFAULT_EXIT_TICKET = "One thing you learned today, and one question you still have."
# Lessons whose charts colour the personas: their worksheets print the palette's key, so the
# colours on paper are the colours on the projector (energies.viz.PERSONA_COLORS).
PERSONA_KEYS = {
    "04": ("fossil", "freerider", "balanced", "green", "random", "search-fossil", "search-green"),
    "05": ("fossil", "freerider", "balanced", "green"),
    "06": ("fossil", "freerider", "balanced", "green", "random"),
}
BUILD_LOG_ROWS = 10


# The lessons with a worksheet: the New Energies lessons of the teacher guide. The extension
# lessons (08 learning agents, 09-10 companion games) can join by adding their number here.
WORKSHEET_LESSONS = ("00", "01", "02", "03", "04", "05", "06", "07")


def lesson_notebooks() -> list[Path]:
    return [
        p for p in sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb")) if p.stem[:2] in WORKSHEET_LESSONS
    ]


def _markdown(text: str) -> str:
    import mistune

    return mistune.html(text)


def _cells(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


def _title(path: Path) -> str:
    """ "NN · Title" from the notebook's first markdown cell (a heading or a bold line)."""
    match = re.search(r"(\d\d · [^*\n—]+)", _cells(path)[0])
    return match.group(1).strip() if match else path.stem


def _core_predictions(path: Path) -> list[str]:
    """The "Predict first" prompts outside sections marked *extension*, in order."""
    prompts, extension = [], False
    for text in _cells(path):
        for block in re.split(r"\n\s*\n", text):
            heading = re.match(r"^(#{2,3}) ", block)
            if heading:
                line = block.splitlines()[0]
                if heading.group(1) == "##" or "*core*" in line or "*extension*" in line:
                    extension = "*extension*" in line
            if block.startswith("**Predict first:**") and not extension:
                prompt = " ".join(block.split())[len("**Predict first:**") :].strip()
                prompts.append(prompt[:1].upper() + prompt[1:])
    return prompts


def _discussion(path: Path) -> list[str]:
    """Numbered questions under a 'Discussion questions' or 'Debrief questions' heading."""
    for text in _cells(path):
        match = re.search(
            r"#+ (?:Discussion|Debrief) questions[^\n]*\n(.*?)(?:\n#|\n<details>|$)",
            text,
            re.DOTALL,
        )
        if match:
            items = re.split(r"\n(?=\d+\. )", match.group(1).strip())
            return [
                " ".join(re.sub(r"^\d+\. ", "", item).split())
                for item in items
                if item[:1].isdigit()
            ]
    return []


STYLE = """
@page { size: A4; margin: 14mm 15mm 16mm 15mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 10.5pt; line-height: 1.35; color: #111; }
h1 { font-size: 17pt; margin: 0 0 2mm 0; }
h2 { font-size: 12.5pt; margin: 5mm 0 2mm 0; border-bottom: 1px solid #999; }
h3 { font-size: 11pt; margin: 3mm 0 1mm 0; }
.name { margin: 0 0 3mm 0; }
.box { border: 1px solid #444; border-radius: 2mm; padding: 2mm 3mm; margin: 0 0 3mm 0; break-inside: avoid; }
.box .answer { height: 16mm; }
.box.tall .answer { height: 26mm; }
table { border-collapse: collapse; width: 100%; margin: 1mm 0 3mm 0; }
th, td { border: 1px solid #666; padding: 1mm 2mm; text-align: left; vertical-align: top; }
.log td { height: 8mm; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 9.5pt; }
footer { margin-top: 4mm; font-size: 8pt; color: #555; }
.rules h2 { break-after: avoid; }
.rules h3 { break-after: avoid; font-size: 10.5pt; }
.rules table { font-size: 9.5pt; }
.personas { font-size: 9pt; margin: 0 0 3mm 0; }
.swatch { white-space: nowrap; margin-right: 2.5mm; }
.swatch span { display: inline-block; width: 3.2mm; height: 3.2mm; border: 0.2mm solid #333;
  vertical-align: -0.4mm; margin-right: 1mm; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
"""


def _page(title: str, body: str, css_class: str = "") -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
        f'<body class="{css_class}">\n{body}\n'
        "<footer>energies — unofficial teaching kit; CATAN is a trademark of its owners. "
        "Built from the notebooks by docs/build_worksheets.py · source {digest}</footer>"
        "</body></html>\n"
    )


def worksheet_html(path: Path) -> str:
    """The worksheet of one lesson as HTML, with a ``{digest}`` placeholder in the footer."""
    number = path.stem[:2]
    title = _title(path)
    parts = [
        f"<h1>Worksheet · {html.escape(title)}</h1>",
        '<p class="name">Name: ______________________ &nbsp; Group: ______ &nbsp; Date: __________</p>',
        (
            "<p>Write your guess in the box <em>before</em> the teacher runs the cell that answers "
            "it. Words and rule numbers are explained on the rules sheet.</p>"
        ),
    ]
    if number in PERSONA_KEYS:
        parts.append(_persona_key(PERSONA_KEYS[number]))
    prompts = _core_predictions(path)
    if prompts:
        parts.append("<h2>Predict first</h2>")
        for i, prompt in enumerate(prompts, start=1):
            parts.append(
                f'<div class="box"><strong>{i}.</strong> {_markdown(prompt).strip()[3:-4]}'
                '<div class="answer"></div><div>What happened: </div></div>'
            )
    if number == "02":
        parts.append("<h2>Build log</h2><p>One line for every power plant you build.</p>")
        rows = "".join(
            "<tr><td></td><td>fossil / renewable</td><td></td><td></td></tr>"
            for _ in range(BUILD_LOG_ROWS)
        )
        parts.append(
            '<table class="log"><tr><th style="width:12%">turn</th><th style="width:22%">plant</th>'
            '<th>why this one?</th><th style="width:14%">my LF after</th></tr>'
            f"{rows}</table>"
        )
    questions = _discussion(path) or DEBRIEF.get(number, [])
    if questions:
        parts.append("<h2>Debrief</h2>")
        for i, question in enumerate(questions, start=1):
            text = _markdown(question).strip()[3:-4]
            parts.append(
                f'<div class="box"><strong>{i}.</strong> {text}<div class="answer"></div></div>'
            )
    parts.append(
        '<h2>Exit ticket</h2><div class="box tall">'
        f'{html.escape(EXIT_TICKETS.get(number, DEFAULT_EXIT_TICKET))}<div class="answer"></div></div>'
    )
    return _page(f"Worksheet {title}", "\n".join(parts))


def _persona_key(personas) -> str:
    """One line of colour swatches, each with its persona's name (colour is never the only cue)."""
    from energies.viz import PERSONA_LABELS, persona_color

    swatches = " ".join(
        f'<span class="swatch"><span style="background:{persona_color(p)}"></span>'
        f"{html.escape(PERSONA_LABELS[p])} (<code>{p}</code>)</span>"
        for p in personas
    )
    return f'<p class="personas"><strong>Persona colours in the charts:</strong> {swatches}</p>'


def rules_html() -> str:
    return _page("Rules sheet and glossary", _markdown(RULES.read_text(encoding="utf-8")), "rules")


def pages() -> dict[str, str]:
    """PDF file name -> HTML (footer placeholder not yet filled)."""
    out = {f"{p.stem}.pdf": worksheet_html(p) for p in lesson_notebooks()}
    out["rules-sheet.pdf"] = rules_html()
    return out


def digest(page: str) -> str:
    return hashlib.sha256(page.encode("utf-8")).hexdigest()


def stale() -> list[str]:
    """PDF names whose stored source digest differs from a fresh build (or that are missing)."""
    stored = json.loads(HASHES.read_text(encoding="utf-8")) if HASHES.exists() else {}
    return [
        name
        for name, page in pages().items()
        if stored.get(name) != digest(page) or not (OUT / name).exists()
    ]


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise SystemExit("Chromium is needed to print the PDFs: apt-get install -y chromium")


def print_pdf(page: str, target: Path, browser: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "page.html"
        source.write_text(page, encoding="utf-8")
        partial = Path(tmp) / "page.pdf"
        subprocess.run(
            [
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-pdf-header-footer",
                f"--user-data-dir={tmp}/profile",
                f"--print-to-pdf={partial}",
                source.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        shutil.move(partial, target)  # a finished file only, never half a PDF


def build() -> None:
    browser = chromium()
    OUT.mkdir(parents=True, exist_ok=True)
    hashes = {}
    for name, page in pages().items():
        hashes[name] = digest(page)
        print_pdf(page.replace("{digest}", hashes[name][:12]), OUT / name, browser)
        print(f"wrote docs/worksheets/{name}")
    HASHES.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    pack().build(browser, print_pdf)


def pack():
    """The facilitator pack's builder, ``docs/printables`` (a package beside this script)."""
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    import printables

    return printables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale PDFs")
    args = parser.parse_args()
    if args.check:
        old = stale() + pack().stale()
        if old:
            print("stale printables (run python docs/build_worksheets.py):", ", ".join(old))
            sys.exit(1)
        print("worksheets and facilitator pack up to date")
        return
    build()


if __name__ == "__main__":
    main()
