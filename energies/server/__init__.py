"""The class server: every student plays on their own device, the teacher watches every table.

    energies serve class.sqlite --tables 6 --host 0.0.0.0      # on the teacher's machine

    import energies as en                                       # or from the teacher's notebook
    server = en.server.serve("class.sqlite", tables=6, host="0.0.0.0")
    server.console()                                            # the console as a widget

A class lives in one SQLite file (:class:`energies.classroom.ClassDatabase`): its tables,
each with a short join code and a seed, the seats, and every move of every game, committed
before it is acknowledged, so a stopped or killed server goes on exactly where it was when
started again. A student opens the join link (or scans its QR code), types a name, takes a
free seat and plays on the PlayApp's own board, seeing only what that seat may see; bots fill
the seats nobody took, at a readable pace. The teacher's console shows every table live and
pauses, resumes and ends the round, starts lesson 07's second round (same seeds, with or
without the written agreement) and downloads the class; :func:`energies.classroom.collect`
reads the same file. See ``docs/server.md``.

========================  ======================================================================
:mod:`~.room`             the live class: tables, seats, games, the teacher's commands
:mod:`~.seatpage`         one student's page, built from ``game.view(seat)``
:mod:`~.console`          the console's data (public facts of every table), QR codes
:mod:`~.hub`              connections, messages, who is told what after a change
:mod:`~.limits`           origins, message sizes and rates, well-formed messages
:mod:`~.web`              the Starlette app: pages, websockets, downloads, security headers
:mod:`~.running`          ``energies serve`` and the notebook's background server
:mod:`~.widget`           the console as a notebook widget
:mod:`~.hublogin`         behind a JupyterHub's login (the hub's OAuth, ``--hub-login``)
:mod:`~.pages`            the pages' words in the class's language (``--lang``, ``?lang=``)
``static/``               the pages' scripts (the PlayApp's page code is loaded from
                          :mod:`energies.widgets.play`, not copied)
========================  ======================================================================

Needs the ``[server]`` extra (Starlette, uvicorn, websockets, segno).
"""

from __future__ import annotations

from .room import Refusal, create_class
from .running import ClassServer, serve

__all__ = ["ClassServer", "ConsoleWidget", "Refusal", "create_class", "serve"]


def __getattr__(name: str):
    if name == "ConsoleWidget":  # ipywidgets and anywidget only when the widget is asked for
        from .widget import ConsoleWidget

        return ConsoleWidget
    raise AttributeError(f"module 'energies.server' has no attribute {name!r}")
