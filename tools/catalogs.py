"""The translation catalogs in one command: extract, update and compile (Babel).

    python tools/catalogs.py            # all three steps (what a change of wording needs)
    python tools/catalogs.py extract    # energies/kit/i18n/locale/energies.pot from the code
    python tools/catalogs.py update     # merge the template into each language's .po
    python tools/catalogs.py compile    # each .po to its .mo (committed, shipped as data)
    python tools/catalogs.py init xx    # start a new language's .po from the template

Needs Babel (``pip install -e .[i18n]`` is not needed: ``pip install babel`` is enough).
The keywords are the kit's message makers (``energies.kit.i18n``): ``say``/``msg`` take one
message, ``nsay``/``nmsg`` a singular and a plural, ``N_`` marks a message said later.
See ``docs/translating.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LOCALE = REPO / "energies" / "kit" / "i18n" / "locale"
TEMPLATE = LOCALE / "energies.pot"
DOMAIN = "energies"
KEYWORDS = ["say", "msg", "nsay:1,2", "nmsg:1,2", "N_", "N_plural:1,2", "gettext", "ngettext:1,2"]
# gettext's folder names of the teaching languages other than English (zh-Hant -> zh_Hant)
FOLDERS = ("de", "zh_Hant", "be")


def _pybabel(*args: str) -> None:
    from babel.messages.frontend import CommandLineInterface

    CommandLineInterface().run(["pybabel", "-q", *args])


def extract() -> None:
    keywords = [arg for k in KEYWORDS for arg in ("-k", k)]
    _pybabel(
        "extract",
        "-F",
        str(REPO / "babel.cfg"),
        "--no-default-keywords",
        *keywords,
        "--sort-by-file",
        "--project=energies",
        "--copyright-holder=the energies authors",
        "-o",
        str(TEMPLATE),
        str(REPO / "energies"),
    )
    # paths relative to the repository, so the template reads the same on every machine
    text = TEMPLATE.read_text(encoding="utf-8").replace(str(REPO) + "/", "")
    TEMPLATE.write_text(text, encoding="utf-8")


def update() -> None:
    for folder in FOLDERS:
        po = LOCALE / folder / "LC_MESSAGES" / f"{DOMAIN}.po"
        if not po.exists():
            init(folder)
            continue
        _pybabel(
            "update",
            "-i",
            str(TEMPLATE),
            "-D",
            DOMAIN,
            "-d",
            str(LOCALE),
            "-l",
            folder,
            "--no-fuzzy-matching",
            "--ignore-obsolete",
        )


def init(folder: str) -> None:
    _pybabel("init", "-i", str(TEMPLATE), "-D", DOMAIN, "-d", str(LOCALE), "-l", folder)


def compile_catalogs() -> None:
    for folder in FOLDERS:
        _pybabel("compile", "-D", DOMAIN, "-d", str(LOCALE), "-l", folder, "--statistics")


def main(argv: list[str]) -> int:
    steps = {"extract": extract, "update": update, "compile": compile_catalogs}
    if argv[:1] == ["init"] and len(argv) == 2:
        init(argv[1].replace("-", "_"))
        return 0
    if argv and (len(argv) != 1 or argv[0] not in steps):
        print(__doc__, file=sys.stderr)
        return 2
    for name in argv or list(steps):
        steps[name]()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
