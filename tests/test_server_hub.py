"""The class server as a JupyterHub service behind the hub's login (``--hub-login``).

A small stand-in hub (``http.server`` in a thread) answers the three requests of the hub's
OAuth as JupyterHub does: ``/hub/api/oauth2/authorize`` sends the browser back with a code,
``/hub/api/oauth2/token`` trades the code for a token when the service's API token is the
client secret, ``/hub/api/user`` says whose token it is and with which scopes. The class
server runs in this process under the prefix a hub gives it (``/services/energies``).
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytest.importorskip("starlette")
websockets_sync = pytest.importorskip("websockets.sync.client")

from energies.cli import main
from energies.server import create_class
from energies.server.hublogin import HubLogin, HubLoginError
from energies.server.running import ClassServer

API_TOKEN = "service-secret"
PREFIX = "/services/energies"


USERS = {"code-ada": "ada", "code-eve": "eve"}  # the code of each user's login
SCOPES = {"ada": ["access:services!service=energies"], "eve": ["self"]}


class StandInHub(BaseHTTPRequestHandler):
    def log_message(self, *_args):
        pass

    def _json(self, value, status=200):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path == "/hub/api/oauth2/authorize":  # the user is logged in at the hub
            assert query["client_id"] == "service-energies" and query["response_type"] == "code"
            who = self.server.next_user
            back = f"{query['redirect_uri']}?code=code-{who}&state={query['state']}"
            self.send_response(302)
            self.send_header("location", self.server.service + back)
            self.end_headers()
        elif url.path == "/hub/api/user":
            token = self.headers.get("authorization", "").removeprefix("token ")
            name = token.removeprefix("token-")
            self._json({"kind": "user", "name": name, "scopes": SCOPES[name]})
        else:
            self._json({"error": "no such page"}, 404)

    def do_POST(self):
        form = dict(
            urllib.parse.parse_qsl(self.rfile.read(int(self.headers["content-length"])).decode())
        )
        if form.get("client_secret") != API_TOKEN or form.get("code") not in USERS:
            self._json({"error": "invalid_grant"}, 400)
            return
        self._json({"access_token": f"token-{USERS[form['code']]}", "token_type": "Bearer"})


@pytest.fixture
def hub_and_class(tmp_path):
    hub = ThreadingHTTPServer(("127.0.0.1", 0), StandInHub)
    threading.Thread(target=hub.serve_forever, daemon=True).start()
    hub_url = f"http://127.0.0.1:{hub.server_address[1]}"
    env = {
        "JUPYTERHUB_API_TOKEN": API_TOKEN,
        "JUPYTERHUB_API_URL": f"{hub_url}/hub/api",
        "JUPYTERHUB_CLIENT_ID": "service-energies",
        "JUPYTERHUB_OAUTH_CALLBACK_URL": f"{PREFIX}/oauth_callback",
        "JUPYTERHUB_SERVICE_PREFIX": f"{PREFIX}/",
        "JUPYTERHUB_BASE_URL": "/",
        "JUPYTERHUB_HOST": hub_url,
        "JUPYTERHUB_OAUTH_ACCESS_SCOPES": json.dumps(
            ["access:services!service=energies", "access:services"]
        ),
    }
    create_class(tmp_path / "class.sqlite", tables=1)
    server = ClassServer(tmp_path / "class.sqlite", port=0, prefix=PREFIX, hub_login=HubLogin(env))
    hub.service = f"http://127.0.0.1:{server.port}"
    hub.next_user = "ada"
    yield hub, server
    server.stop()
    hub.shutdown()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def get(url: str, cookie: str = ""):
    """(status, headers, body) of one GET, redirects not followed."""
    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with opener.open(request, timeout=30) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()


def cookie_of(headers) -> str:
    return "; ".join(h.split(";", 1)[0] for h in headers.get_all("set-cookie") or [])


def log_in(hub, server, page: str) -> str:
    """Follow the hub's login from ``page`` like a browser; return the session cookie."""
    base = f"http://127.0.0.1:{server.port}"
    status, headers, _ = get(base + page)
    assert status == 302 and "/hub/api/oauth2/authorize?" in headers["location"]
    state_cookie = cookie_of(headers)
    status, headers, _ = get(headers["location"])  # the hub: already logged in there
    assert status == 302
    status, headers, body = get(headers["location"], state_cookie)  # our oauth_callback
    return status, headers, body


def test_only_the_hubs_users_come_in_and_seats_still_need_their_tokens(hub_and_class):
    hub, server = hub_and_class
    base = f"http://127.0.0.1:{server.port}"
    code = server.links[1].rsplit("/", 1)[1]
    page = f"{PREFIX}/t/{code}"
    status, headers, _ = get(base + page)
    assert status == 302 and "/hub/api/oauth2/authorize?" in headers["location"]
    assert "HttpOnly" in headers["set-cookie"] and f"Path={PREFIX}/" in headers["set-cookie"]
    status, headers, _ = log_in(hub, server, page)
    assert status == 302 and headers["location"] == page  # back where the student was going
    session = cookie_of(headers)
    assert session.startswith("energies-hub-session=ada|")
    status, _headers, body = get(base + page, session)
    assert status == 200 and b"data-lobby" in body
    assert get(base + f"{PREFIX}/healthz")[0] == 200  # open: the hub checks it is up
    url = f"ws://127.0.0.1:{server.port}{PREFIX}/ws/table/{code}"
    with pytest.raises(Exception) as refused:  # no session: no websocket
        websockets_sync.connect(url, proxy=None, open_timeout=30).close()
    assert "403" in str(refused.value)
    with websockets_sync.connect(
        url, proxy=None, open_timeout=30, additional_headers={"Cookie": session}
    ) as ws:
        assert json.loads(ws.recv(30))["type"] == "lobby"  # in: a seat still needs a name
    forged = session.replace("ada|", "eve|")
    assert get(base + page, forged)[0] == 302  # a forged session is no session
    # a hub user without the service's access scope is refused at the callback
    hub.next_user = "eve"
    status, _headers, body = log_in(hub, server, page)
    assert status == 403 and b"eve may not use this service" in body
    # a callback with a state the server never made is refused
    status, _headers, body = get(base + f"{PREFIX}/oauth_callback?code=code-ada&state=guess")
    assert status == 403 and b"stale" in body


def test_hub_login_needs_the_hubs_environment(tmp_path, monkeypatch, capsys):
    with pytest.raises(HubLoginError, match="JUPYTERHUB_API_TOKEN"):
        HubLogin({})
    for name in ("JUPYTERHUB_API_TOKEN", "JUPYTERHUB_CLIENT_ID"):
        monkeypatch.delenv(name, raising=False)
    assert main(["serve", str(tmp_path / "c.sqlite"), "--hub-login"]) == 2
    assert "hub service" in capsys.readouterr().err
    assert not (tmp_path / "c.sqlite").exists()  # refused before anything was written
