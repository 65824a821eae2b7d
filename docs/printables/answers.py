"""The answer key of every worksheet, made from the same notebooks as the worksheets.

For each "Predict first" prompt of a worksheet the key prints what the notebook printed in the
cells that answer it and the explanation or solution that follows them; for the debrief
questions, the notebook's "Expected answers" where it has them. ``docs/facilitator/
answer-notes.md`` adds what to listen for (and the expected answers a notebook lacks, and one
for every exit ticket). A worksheet prompt without its note stops the build with a message
naming it, so the key cannot silently fall behind a changed lesson.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from .render import document, markdown

NOTES = Path(__file__).resolve().parent.parent / "facilitator" / "answer-notes.md"
MAX_OUTPUT_LINES = 10
MAX_OUTPUT_WIDTH = 100
MAX_EXPLANATION_WORDS = 200
# A short line between two code cells ("The next cell reads the table...") is a bridge: the
# answer follows it, so the key reads on, at most this many bridges.
BRIDGE_WORDS = 45
BRIDGES = 2
STYLE = """
<style>
.key { break-before: page; }
.key:first-of-type { break-before: auto; }
.item { border-left: 1mm solid #0072B2; padding: 0.5mm 0 0.5mm 3mm; margin: 0 0 3mm 0; }
.item .q { font-weight: bold; }
.label { color: #0072B2; font-weight: bold; margin: 1mm 0 0.5mm 0; }
.shows { font-size: 9pt; color: #222; }
</style>
"""


def notes() -> dict[tuple[str, str, int], tuple[str, str, bool]]:
    """{(lesson, "predict"|"debrief"|"exit", n): (quoted start of the prompt, note markdown,
    whether the note is the whole answer)}. A heading ending in "· note only" says that the
    notebook's cells after the prompt do not answer it (lesson 02's first roll)."""
    text = NOTES.read_text(encoding="utf-8")
    out = {}
    for block in re.split(r"\n(?=## )", text)[1:]:
        head, _, body = block.partition("\n")
        match = re.fullmatch(
            r'## (\d\d) · (predict|debrief) (\d+)(?: · "([^"]+)")?( · note only)?'
            r"|## (\d\d) · exit ticket",
            head.strip(),
        )
        if not match:
            raise SystemExit(f"answer-notes.md: a heading the key cannot read: {head!r}")
        if match.group(6):
            out[(match.group(6), "exit", 1)] = ("", body.strip(), True)
        else:
            key = (match.group(1), match.group(2), int(match.group(3)))
            out[key] = (match.group(4) or "", body.strip(), bool(match.group(5)))
    return out


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[*_`]", "", text).split()).lower()


def _note(all_notes, lesson: str, kind: str, n: int, prompt: str) -> str | None:
    found = all_notes.get((lesson, kind, n))
    if found is None:
        return None
    start, body, _alone = found
    if start and not _plain(prompt).startswith(_plain(start)):
        raise SystemExit(
            f"answer-notes.md: the note '{lesson} · {kind} {n}' is for a prompt starting "
            f"{start!r}, but the worksheet's {kind} {n} of lesson {lesson} reads {prompt[:60]!r}: "
            "update the note"
        )
    return body


def _text_outputs(cell) -> list[str]:
    """What a code cell printed, and the values it showed that read well as text: a plain
    value (an Outcome, a number) or a small table; never a picture, a widget or a wide table."""
    lines: list[str] = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream" and output.get("name") == "stdout":
            lines += "".join(output["text"]).splitlines()
        elif output.get("output_type") in ("execute_result", "display_data"):
            data = output.get("data", {})
            if not set(data) <= {"text/plain", "text/html"} or "text/plain" not in data:
                continue
            text = "".join(data["text/plain"]).splitlines()
            small = len(text) <= MAX_OUTPUT_LINES and all(len(t) <= MAX_OUTPUT_WIDTH for t in text)
            if set(data) == {"text/plain"} or (small and not any(t.endswith("\\") for t in text)):
                lines += text
    return lines


def _details(text: str) -> str:
    """The inside of the first ``<details>`` block, without its summary."""
    inner = text.split("<details>", 1)[1].split("</details>", 1)[0]
    return re.sub(r"<summary>.*?</summary>", "", inner, flags=re.DOTALL).strip()


def _until_heading(text: str) -> str:
    kept = []
    for block in re.split(r"\n\s*\n", text):
        if block.lstrip().startswith("#") or block.lstrip().startswith("<details>"):
            break
        kept.append(block)
    return "\n\n".join(kept).strip()


def _blocks(text: str) -> list[str]:
    """Paragraphs, and each item of a bullet list on its own."""
    out = []
    for block in re.split(r"\n\s*\n", text):
        out += [b for b in re.split(r"\n(?=[*-] )", block) if b.strip()]
    return out


def _shorter(text: str) -> str:
    """At most about MAX_EXPLANATION_WORDS words, cut at a paragraph or a list item; a last
    paragraph that only introduces the next cell ("...:") is left out."""
    kept, words = [], 0
    for block in _blocks(text):
        size = len(block.split())
        if kept and words + size > MAX_EXPLANATION_WORDS:
            kept.append("…")
            break
        kept.append(block)
        words += size
    if len(kept) > 1 and kept[-1].rstrip().endswith(":"):
        kept.pop()
    return "\n\n".join(kept)


def notebook_answer(path: Path, prompt: str) -> tuple[list[str], str]:
    """(printed lines, explanation markdown) the notebook gives after ``prompt``."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    wanted = _plain(prompt)[:60]
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] != "markdown" or "**Predict first:**" not in source:
            continue
        after = source.split("**Predict first:**", 1)[1]
        if not _plain(after).startswith(wanted):
            continue
        rest = after.split("\n\n", 1)[1] if "\n\n" in after else ""
        if "<details>" in rest and not re.search(r"^#", rest.split("<details>")[0], re.MULTILINE):
            return [], _details(rest)  # the solution sits under the prompt itself
        printed, said, j = [], [], i + 1
        for _hop in range(BRIDGES + 1):
            while j < len(cells) and cells[j]["cell_type"] == "code":
                printed += _text_outputs(cells[j])
                j += 1
            if j >= len(cells):
                break
            following = "".join(cells[j]["source"]).strip()
            if following.startswith("<details>"):
                said.append(_details(following))
                break
            if following.startswith("#"):
                break
            said.append(_until_heading(following))
            if len(said[-1].split()) >= BRIDGE_WORDS:
                break  # an explanation, not a bridge to the next cell
            j += 1
        return printed, "\n\n".join(said)
    raise SystemExit(f"{path.name}: the worksheet's prompt {prompt[:50]!r} is not in the notebook")


def expected_answers(path: Path) -> list[str]:
    """The numbered items of the "Expected answers" block beside the discussion questions."""
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and "<summary>Expected answers</summary>" in source:
            block = source.split("<summary>Expected answers</summary>", 1)[1]
            block = block.split("</details>", 1)[0].strip()
            items = re.split(r"\n(?=\d+\. )", block)
            return [re.sub(r"^\d+\. ", "", item).strip() for item in items if item[:1].isdigit()]
    return []


def _printed(lines: list[str]) -> str:
    if not lines:
        return ""
    shown = [
        line if len(line) <= MAX_OUTPUT_WIDTH else line[: MAX_OUTPUT_WIDTH - 1] + "…"
        for line in lines[:MAX_OUTPUT_LINES]
    ]
    if len(lines) > MAX_OUTPUT_LINES:
        shown.append(f"… ({len(lines) - MAX_OUTPUT_LINES} more lines in the notebook)")
    return f"<pre>{html.escape(chr(10).join(shown))}</pre>"


def _item(number: int, question: str, parts: list[tuple[str, str]]) -> str:
    body = "".join(
        f'<p class="label">{html.escape(label)}</p><div class="shows">{content}</div>'
        for label, content in parts
        if content
    )
    return f'<div class="item"><p class="q">{number}. {markdown(question).strip()[3:-4]}</p>{body}</div>'


def answer_key(path: Path, builder, all_notes) -> tuple[str, list[str]]:
    """(HTML of one lesson's key, the notes it lacks)."""
    lesson = path.stem[:2]
    missing: list[str] = []
    parts = [f'<section class="key"><h1>Answer key · {html.escape(builder._title(path))}</h1>']
    parts.append(
        f'<p class="lead">For the teacher: the worksheet <code>{path.stem}.pdf</code> item by '
        "item. “The notebook shows” is the committed notebook's own output and explanation "
        "(seeded games: a class that changes a seed sees other numbers).</p>"
    )
    prompts = builder._core_predictions(path)
    if prompts:
        parts.append("<h2>Predict first</h2>")
    for n, prompt in enumerate(prompts, start=1):
        note = _note(all_notes, lesson, "predict", n, prompt)
        if note is None:
            missing.append(f'{lesson} · predict {n} · "{prompt[:40]}"')
        shows = ""
        if not all_notes.get((lesson, "predict", n), ("", "", False))[2]:
            printed, explanation = notebook_answer(path, prompt)
            shows = _printed(printed) + (markdown(_shorter(explanation)) if explanation else "")
        parts.append(
            _item(
                n,
                prompt,
                [("What to listen for", markdown(note or "")), ("The notebook shows", shows)],
            )
        )
    if lesson == "02":
        parts.append(
            "<h2>Build log</h2><p>No single right answer. Each line should give a reason tied to "
            "cost, LF, GF or the empty-bag ending (rules 4, 10, 14.2); look for a change of "
            "plan late in the game.</p>"
        )
    questions = builder._discussion(path) or builder.DEBRIEF.get(lesson, [])
    expected = expected_answers(path) if builder._discussion(path) else []
    if len(expected) != len(questions):
        expected = []
    if questions:
        parts.append("<h2>Debrief</h2>")
    for n, question in enumerate(questions, start=1):
        note = _note(all_notes, lesson, "debrief", n, question)
        answer = expected[n - 1] if expected else None
        if note is None and answer is None:
            missing.append(f'{lesson} · debrief {n} · "{question[:40]}"')
        parts.append(
            _item(
                n,
                question,
                [
                    ("Expected answer (from the notebook)", markdown(answer) if answer else ""),
                    ("What to listen for", markdown(note or "")),
                ],
            )
        )
    ticket = builder.EXIT_TICKETS.get(lesson, builder.DEFAULT_EXIT_TICKET)
    note = _note(all_notes, lesson, "exit", 1, "")
    if note is None:
        missing.append(f"{lesson} · exit ticket")
    parts.append("<h2>Exit ticket</h2>")
    parts.append(_item(1, ticket, [("A good answer", markdown(note or ""))]))
    parts.append("</section>")
    return "\n".join(parts), missing


def answer_keys_html(builder) -> str:
    all_notes = notes()
    sections, missing = [], []
    for path in builder.lesson_notebooks():
        section, lacking = answer_key(path, builder, all_notes)
        sections.append(section)
        missing += lacking
    if missing:
        raise SystemExit(
            "docs/facilitator/answer-notes.md has no note for: "
            + "; ".join(missing)
            + " (add a '## NN · predict|debrief N · \"start of the prompt\"' section)"
        )
    return document(
        "Answer keys",
        STYLE + "\n".join(sections),
        "the notebooks and docs/facilitator/answer-notes.md (docs/printables/answers.py)",
    )
