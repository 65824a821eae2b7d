"""The teacher's console as a notebook widget: the console page's own drawing code
(``static/console.js``) in an anywidget, fed by the class server running in the notebook.

    server = en.server.serve("class.sqlite", tables=6, host="0.0.0.0")
    server.console()        # every table live; pause, resume, end the round, round 2

The widget's buttons run the same commands as the console page, on the server's thread. The
downloads of the page are :meth:`~energies.server.ClassServer.save_games` and
:meth:`~energies.server.ClassServer.collect` here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..kit.i18n import N_, render, resolve, say
from .room import Refusal

STATIC = Path(__file__).resolve().parent / "static"


class ConsoleWidget(anywidget.AnyWidget):
    """The console of a running :class:`~energies.server.ClassServer` (see the module text)."""

    _esm = STATIC / "console.js"
    _css = STATIC / "class.css"
    console = traitlets.Dict().tag(sync=True)
    qr = traitlets.Dict().tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    downloads = traitlets.Bool(False).tag(sync=True)
    words = traitlets.Dict().tag(sync=True)  # the console's words, in the class's language

    def __init__(self, server: Any) -> None:
        if not all(hasattr(server, name) for name in ("call", "command", "running")):
            raise ValueError("ConsoleWidget needs a running class server (energies.server.serve).")
        super().__init__()
        self.server = server
        changes = server.call(lambda hub: hub.console_changes(codes=True))
        self.console, self.qr, self.words = changes["console"], changes["qr"], changes["words"]
        self.lang = server.call(lambda hub: resolve(hub.lang))
        server.call(lambda hub: hub.console_listeners.append(self._update))
        self.on_msg(self._on_message)

    def _update(self, console: dict[str, Any]) -> None:
        """Called on the server's thread after every change of the class."""
        self.console = console

    def _on_message(self, _widget, content: Any, _buffers) -> None:
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            self.status = say(N_("The console sent a message the server does not know."), self.lang)
            return
        kind = content["type"]
        if kind == "download":
            self.status = say(
                N_("In a notebook: {save} or {collect}."),
                self.lang,
                save="server.save_games('folder')",
                collect="server.collect()",
            )
            return
        fields = {k: v for k, v in content.items() if k != "type"}
        try:
            self.server.command(kind, **fields)
            self.status = say(N_("Done."), self.lang)
        except Refusal as exc:
            self.status = str(render(exc.reason, self.lang))

    def close(self) -> None:
        server = getattr(self, "server", None)  # None: refused in __init__, never listened
        if server is not None and server.running:
            server.call(lambda hub: hub.console_listeners.remove(self._update))
            self.server = None
        super().close()
