"""The README is a front door, and the docs pages it leads to hold what it used to.

The README keeps at most 150 lines: what the kit is, a picture, the two set-up commands, a
quick start and a table of where to go next. Everything else lives in ``docs/`` (house rules,
learning agents, results ...; their own tests read them there). These tests hold the front
door to that shape and every relative link of the documents to a file of the repository.
"""

from __future__ import annotations

import inspect
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

#: the README's two set-up commands; .ci/run runs the second one, so they stay identical
LAUNCH = (
    'python3 -m pip install -e ".[notebooks]" && '
    "python3 -m jupyter lab --allow-root notebooks/00-start-here.ipynb"
)
TEST = 'python3 -m pip install -q -e ".[test]" && python3 -m pytest'

#: pages for readers, each opening with the sentence that says who it is for
USER_PAGES = (
    "teaching.md",
    "lessons-in-the-browser.md",
    "api.md",
    "agents.md",
    "command.md",
    "house-rules.md",
    "guarantees.md",
    "results.md",
    "server.md",
    "site.md",
)


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _without_code(text: str) -> str:
    """The text with fenced code blocks and inline code removed (links there are not links)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    return re.sub(r"`[^`\n]*`", "", text)


def _documents() -> list[Path]:
    return [
        README,
        *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "notebooks").glob("*.md")),
    ]


def _tracked() -> set[str]:
    """Files of the repository: git's list when there is one, else the files on disk."""
    if shutil.which("git") and (ROOT / ".git").exists():
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        return {name for name in out.split("\0") if name}
    return {p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*") if p.is_file()}


def _relative_links(path: Path) -> list[str]:
    targets = re.findall(
        r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", _without_code(_text(path))
    )
    targets += re.findall(r"""(?:src|href)=["']([^"']+)["']""", _without_code(_text(path)))
    return [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t, flags=re.IGNORECASE)]


def test_readme_is_at_most_150_lines():
    lines = _text(README).splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines; move text to docs/"


@pytest.mark.parametrize("path", _documents(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves_to_a_file_of_the_repository(path):
    """README.md, docs/*.md and notebooks/*.md: a link's file part (an anchor alone is a link
    within the page) names a tracked file, or a folder holding one."""
    tracked = _tracked()
    folders = {parent.as_posix() for name in tracked for parent in Path(name).parents}
    broken = []
    for target in _relative_links(path):
        file_part = target.split("#", 1)[0].split("?", 1)[0]
        if not file_part:
            continue
        resolved = (path.parent / file_part).resolve()
        try:
            name = resolved.relative_to(ROOT).as_posix()
        except ValueError:
            broken.append(f"{target} (outside the repository)")
            continue
        if name in tracked or name in folders:
            continue
        broken.append(target)
    assert not broken, f"{path.name}: links to files not in the repository: {broken}"


def test_readme_links_every_docs_page():
    """The "where to go next" table reaches every page of docs/ and the teacher guide."""
    linked = {
        (README.parent / t.split("#", 1)[0]).resolve().relative_to(ROOT).as_posix()
        for t in _relative_links(README)
        if t.split("#", 1)[0]
    }
    pages = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")}
    pages |= {
        "docs/architecture.md",
        "notebooks/TEACHER_GUIDE.md",
        "notebooks/RULES.md",
        "notebooks",
    }
    assert pages <= linked, sorted(pages - linked)


@pytest.mark.parametrize("name", USER_PAGES)
def test_each_page_says_who_it_is_for(name):
    text = _text(ROOT / "docs" / name)
    title, _, rest = text.partition("\n\n")
    assert title.startswith("# ")
    assert rest.startswith("This page is for "), f"{name}: the first sentence says who it is for"


def test_the_two_set_up_commands_are_in_the_readme_and_ci_runs_the_second():
    section = _text(README).split("## Set-up: two commands", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.*?)\n```", section, flags=re.DOTALL)
    assert commands == [LAUNCH, TEST]
    ci = [
        line.strip()
        for line in _text(ROOT / ".ci" / "run").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert ci[-1] == TEST


def test_the_readme_quick_start_runs():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    section = _text(README).split("## Quick start", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    assert len(code.strip().splitlines()) <= 12
    namespace: dict = {}
    exec(compile(code, "README quick start", "exec"), namespace)  # noqa: S102
    assert namespace["game"].is_over and len(namespace["frame"]) == 100


def test_user_documents_carry_no_benchmark_history():
    """Issue numbers and criteria belong in benchmarks/results/, not in what users read."""
    for path in [README, *(ROOT / "docs" / name for name in USER_PAGES)]:
        text = _text(path)
        assert not re.search(r"\bissue \d+|\bcriteri(on|a)\b", text, flags=re.IGNORECASE), path.name


def test_the_command_page_lists_every_subcommand_and_exit_status():
    from energies import cli

    page = _text(ROOT / "docs" / "command.md")
    listed = re.findall(r"^\| `([a-z]+)` \|", page, flags=re.MULTILINE)
    assert listed == list(cli.COMMANDS)
    statuses = page.split("## Exit statuses", 1)[1]
    quoted = {int(s) for s in re.findall(r"^\| (\d+) \|", statuses, flags=re.MULTILINE)}
    returned = {int(s) for s in re.findall(r"return (\d+)\b", inspect.getsource(cli.main))}
    assert quoted == returned


def test_the_voila_command_culls_idle_kernels():
    """tests/browser/test_board_clicks.py checks these two options with shorter times."""
    page = _text(ROOT / "docs" / "lessons-in-the-browser.md")
    command = re.search(r"^python3 -m voila notebooks/02-play\.ipynb .*$", page, flags=re.MULTILINE)
    assert command
    assert "--MappingKernelManager.cull_idle_timeout=" in command.group(0)
    assert "--MappingKernelManager.cull_interval=" in command.group(0)


def _overview_rows(text: str, columns: tuple[int, ...]) -> dict[str, tuple[str, ...]]:
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) > max(columns) and not set(cells[0]) <= {"-"}:
            rows[cells[0].replace("×", "x")] = tuple(cells[i] for i in columns)
    return rows


def test_the_persona_table_quotes_the_benchmark_results():
    """docs/results.md's persona table: the same mean turns and outcome shares as
    benchmarks/results/personas.md, and win rates that are the same numbers."""
    page = _text(ROOT / "docs" / "results.md").split("## Personas", 1)[1].split("\n## ", 1)[0]
    quoted = _overview_rows(page, (1, 2, 3))
    source = _text(ROOT / "benchmarks" / "results" / "personas.md")
    source = source.split("## Overview", 1)[1].split("\n## ", 1)[0]
    measured = _overview_rows(source, (2, 4, 5))
    del quoted["line-up"], measured["line-up"]
    assert quoted.keys() == measured.keys()
    for lineup, (wins, turns, shares) in quoted.items():
        m_wins, m_turns, m_shares = measured[lineup]
        assert turns == m_turns, lineup
        assert m_shares.startswith(shares + " / "), lineup  # the source adds "unfinished"
        rates = dict(re.findall(r"([a-z]+) (\d+\.\d%)", wins))
        if wins.endswith(" each"):  # "4x fossil": "19.2% each"
            rates = {lineup.split()[-1]: wins.split()[0]}
        assert rates == dict(re.findall(r"([a-z]+) (\d+\.\d%)", m_wins)), lineup


@pytest.mark.parametrize(
    "quoted, source",
    [
        ("43 ms (min–max 42–58", "import_time.md"),
        ("**2.55×** catanatron's actions/s (median; rounds 2.39–2.58", "vs_catanatron.md"),
        ("median 27,502 actions/s against the bare engine loop's 86,743", "env_speed.md"),
        ("makes **2.18×** catanatron-gym's steps/s (median; rounds 2.01–2.26", "env_speed.md"),
        ("2,607,823 actions, **0 violations**", "soak.md"),
        ("median 46 ms, max 270 ms", "browser_latency.md"),
        ("622.5 applied actions instead of the 354.3", "persona_speed.md"),
        ("4.6 s (04) and 6.7 s (05) of processor time", "lessons.md"),
        (
            (
                "| a lone fossil seat among three green ones wins | 43 % (36–50) | 47 % (40–54) "
                "| 34 % (29–39) | 32 % (28–37) |"
            ),
            "dilemma.md",
        ),
        (
            (
                "| an all-fossil table: everybody loses | 27 % (21–34) | 31 % (25–38) | 0 % (0–1) "
                "| 1 % (0–3) |"
            ),
            "dilemma.md",
        ),
        (
            "| an all-fossil table ends by 5 VP (rule 14.1) | 73 % | 69 % | 93 % | 95 % |",
            "dilemma.md",
        ),
    ],
)
def test_results_quote_numbers_the_benchmark_files_hold(quoted, source):
    """Each headline of docs/results.md is on the page, and each of its numbers is one of the
    benchmark file it cites, as quoted or rounded to the places quoted."""
    page = " ".join(_text(ROOT / "docs" / "results.md").split())
    assert quoted in page
    record = _text(ROOT / "benchmarks" / "results" / source).replace(",", "")
    measured = {float(n) for n in re.findall(r"\d+(?:\.\d+)?", record)}
    for number in re.findall(r"\d[\d,]*(?:\.\d+)?", quoted):
        places = len(number.partition(".")[2])
        value = float(number.replace(",", ""))
        assert any(round(m, places) == value for m in measured), (number, source)


def test_the_server_page_quotes_the_load_test_as_the_results_file_holds_it():
    """docs/server.md's latency table is the load test's: for each run (by its --think), the
    moves and the median, 95th percentile and max on every other page of the table, as
    benchmarks/results/server_load.md records them; and the server profile's numbers it cites."""
    page = _text(ROOT / "docs" / "server.md").split("## How fast", 1)[1]
    record = _text(ROOT / "benchmarks" / "results" / "server_load.md")
    runs = {}
    for section in record.split("\n## ")[1:]:
        think = re.search(r"think ([\d.]+) s", section).group(1)
        row = re.search(r"\| every other page of the table \| ([^\n]+) \|", section).group(1)
        moves = re.search(r"\| moves acknowledged \| ([\d,]+) in", section).group(1)
        runs[think] = [moves, *[cell.strip().replace(",", "") for cell in row.split("|")[1:]]]
    quoted = re.findall(r"\| [^|]*`--think ([\d.]+)`\) \| ([^\n]+) \|", page)
    assert sorted(think for think, _ in quoted) == sorted(runs)
    for think, cells in quoted:
        moves, *latencies = (cell.strip() for cell in cells.split("|"))
        assert [moves, *(c.replace(",", "") for c in latencies)] == runs[think], think
    profile = _text(ROOT / "benchmarks" / "results" / "server_profile.md").replace(",", "")
    measured = {float(n) for n in re.findall(r"\d+(?:\.\d+)?", profile + record.replace(",", ""))}
    prose = "\n".join(line for line in page.splitlines() if not line.startswith("|"))
    for number in re.findall(r"\d+(?:\.\d+)?(?= ?(?:ms|s\b|MiB))", prose.replace(",", "")):
        places = len(number.partition(".")[2])
        assert any(round(m, places) == float(number) for m in measured), number
