"""Behind a JupyterHub's login: the class server as a hub service that only the hub's users reach.

Started by the hub as a service (``energies serve ... --hub-login``), the server finds what the
hub tells every service in its environment (``JUPYTERHUB_API_TOKEN``, ``JUPYTERHUB_API_URL``,
``JUPYTERHUB_CLIENT_ID``, ``JUPYTERHUB_OAUTH_CALLBACK_URL``, ``JUPYTERHUB_SERVICE_PREFIX``,
``JUPYTERHUB_BASE_URL``, ``JUPYTERHUB_HOST``, ``JUPYTERHUB_OAUTH_ACCESS_SCOPES``) and logs a
browser in with the hub's OAuth, as JupyterHub's own ``HubOAuth`` does:

1. a request without a session is sent to the hub's ``/hub/api/oauth2/authorize`` with a random
   ``state`` (also kept in a short-lived cookie);
2. the hub sends the browser back to ``oauth_callback`` with a code; the server trades it for a
   token (``/oauth2/token``, the service's API token as the client secret), asks the hub whose
   token it is (``/user``) and checks the token's scopes against the service's access scopes;
3. the browser gets a session cookie (HttpOnly, the service's path, signed with a key the
   server draws at start, valid 12 hours): pages, websockets and downloads need it.

The seat tokens and the teacher's key still apply inside: the hub says who may come in, the
class says who sits where. Only the standard library is used (``urllib``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from http.cookies import CookieError, SimpleCookie
from typing import Any

__all__ = ["HubLogin", "HubLoginError"]

SESSION_COOKIE = "energies-hub-session"
STATE_COOKIE = "energies-hub-oauth-state"
SESSION_SECONDS = 12 * 3600
STATE_SECONDS = 600
NEEDED = ("JUPYTERHUB_API_TOKEN", "JUPYTERHUB_CLIENT_ID")


class HubLoginError(ValueError):
    """The hub's login could not be set up or finished; the message says why."""


class HubLogin:
    """The hub's OAuth for one service (see the module text). ``env``: the environment the
    hub gave the service; ``fetch(request) -> dict``: one JSON request to the hub's API
    (``urllib`` by default)."""

    def __init__(
        self,
        env: Mapping[str, str],
        *,
        fetch: Callable[[urllib.request.Request], Any] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        missing = [name for name in NEEDED if not env.get(name)]
        if missing:
            raise HubLoginError(
                f"--hub-login needs the environment a JupyterHub gives its services; "
                f"{', '.join(missing)} is not set (start the server as a hub service)."
            )
        self.api_token = env["JUPYTERHUB_API_TOKEN"]
        self.client_id = env["JUPYTERHUB_CLIENT_ID"]
        self.api_url = env.get("JUPYTERHUB_API_URL", "http://127.0.0.1:8081/hub/api").rstrip("/")
        self.prefix = "/" + env.get("JUPYTERHUB_SERVICE_PREFIX", "/").strip("/") + "/"
        self.prefix = self.prefix.replace("//", "/")
        self.callback = env.get("JUPYTERHUB_OAUTH_CALLBACK_URL") or self.prefix + "oauth_callback"
        base = "/" + env.get("JUPYTERHUB_BASE_URL", "/").strip("/")
        hub = env.get("JUPYTERHUB_HOST", "") + base.rstrip("/") + "/hub/api/oauth2/authorize"
        self.authorize_url = hub
        try:
            self.access_scopes = set(json.loads(env.get("JUPYTERHUB_OAUTH_ACCESS_SCOPES", "[]")))
        except ValueError:
            raise HubLoginError("JUPYTERHUB_OAUTH_ACCESS_SCOPES is not a JSON list.") from None
        self.secure = env.get("JUPYTERHUB_PUBLIC_URL", "").startswith("https:")
        self.fetch = fetch or _fetch
        self.clock = clock
        self.key = secrets.token_bytes(32)  # a restart asks everybody to log in again
        self.states: dict[str, tuple[str, float]] = {}  # state -> (the page asked for, expiry)

    # -- the session cookie ------------------------------------------------------------------

    def _sign(self, text: str) -> str:
        return hmac.new(self.key, text.encode("utf-8"), hashlib.sha256).hexdigest()

    def session_for(self, user: str) -> str:
        expires = int(self.clock()) + SESSION_SECONDS
        body = f"{urllib.parse.quote(user)}|{expires}"
        return f"{body}|{self._sign(body)}"

    def user(self, cookie_header: str | None) -> str | None:
        """The hub user a request's cookies name, or None (no session, forged, expired)."""
        value = _cookie(cookie_header, SESSION_COOKIE)
        if not value or value.count("|") != 2:
            return None
        name, expires, signature = value.split("|")
        if not hmac.compare_digest(signature, self._sign(f"{name}|{expires}")):
            return None
        if not expires.isdigit() or int(expires) < self.clock():
            return None
        return urllib.parse.unquote(name)

    # -- the OAuth dance -----------------------------------------------------------------------

    def start(self, next_url: str) -> tuple[str, str]:
        """(the hub's authorize URL to send the browser to, the state cookie to set)."""
        now = self.clock()
        self.states = {s: v for s, v in self.states.items() if v[1] > now}
        state = secrets.token_urlsafe(24)
        self.states[state] = (next_url, now + STATE_SECONDS)
        query = urllib.parse.urlencode(
            {
                "client_id": self.client_id,
                "redirect_uri": self.callback,
                "response_type": "code",
                "state": state,
            }
        )
        cookie = _set_cookie(STATE_COOKIE, state, self.prefix, STATE_SECONDS, self.secure)
        return f"{self.authorize_url}?{query}", cookie

    def finish(
        self, code: str | None, state: str | None, cookie_header: str | None
    ) -> tuple[str, str]:
        """The hub sent the browser back: (the page it asked for, the session cookie to set).
        Blocks on two requests to the hub (run it in a worker thread)."""
        if not code or not state:
            raise HubLoginError("The hub's answer has no code or state: log in again.")
        kept = self.states.pop(state, None)
        if kept is None or kept[1] < self.clock() or _cookie(cookie_header, STATE_COOKIE) != state:
            raise HubLoginError("This login is stale or was not started here: log in again.")
        body = urllib.parse.urlencode(
            {
                "client_id": self.client_id,
                "client_secret": self.api_token,
                "grant_type": "authorization_code",
                "code": code,
                "redirect_uri": self.callback,
            }
        ).encode("ascii")
        answer = self.fetch(
            urllib.request.Request(
                f"{self.api_url}/oauth2/token",
                data=body,
                headers={"Content-Type": "application/x-www-form-urlencoded"},
                method="POST",
            )
        )
        token = answer.get("access_token") if isinstance(answer, dict) else None
        if not token:
            raise HubLoginError("The hub gave no token for this login.")
        model = self.fetch(
            urllib.request.Request(
                f"{self.api_url}/user", headers={"Authorization": f"token {token}"}
            )
        )
        if not isinstance(model, dict) or not isinstance(model.get("name"), str):
            raise HubLoginError("The hub did not say who logged in.")
        if self.access_scopes and not self.access_scopes & set(model.get("scopes") or ()):
            raise HubLoginError(f"{model['name']} may not use this service (ask the hub's admin).")
        session = self.session_for(model["name"])
        cookie = _set_cookie(SESSION_COOKIE, session, self.prefix, SESSION_SECONDS, self.secure)
        return kept[0], cookie


def _fetch(request: urllib.request.Request) -> Any:
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read(1_000_000).decode("utf-8"))


def _cookie(header: str | None, name: str) -> str | None:
    if not header:
        return None
    jar = SimpleCookie()
    try:
        jar.load(header)
    except CookieError:  # a malformed Cookie header names no session
        return None
    morsel = jar.get(name)
    return morsel.value if morsel is not None else None


def _set_cookie(name: str, value: str, path: str, seconds: int, secure: bool) -> str:
    flags = "; Secure" if secure else ""
    return f"{name}={value}; Path={path}; Max-Age={seconds}; HttpOnly; SameSite=Lax{flags}"
