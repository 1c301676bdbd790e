"""The viewer's web server: the standard library's ``http.server`` on the loopback interface only.

It serves the page's own files (``viewer/static/``, read once at start: a fixed list of names, so
no other file, no directory listing and no ``..`` can be reached) and a small JSON API on one
:class:`~.session.Session`:

=======================  =====================================================================
``GET /``                the page (``static/index.html``)
``GET /static/NAME``     one of the page's files
``GET /api/game``        the game, its seats, the mode (replay or live), the number of frames
``GET /api/frame``       ``?i=K&seat=S`` (``seat=all``: every hand; a replay only): frame K's
                         view model, the decision taken there, its text render, legal actions
``GET /api/log``         every decision so far, narrated (``effects``)
``POST /api/act``        ``{"action": ID}``: the person's move in a live game
``POST /api/save``       write a live game's record to its save path
=======================  =====================================================================

A request whose ``Host`` is not this server's loopback address (a page elsewhere reaching it
through a name that resolves to 127.0.0.1) is refused, and a POST must carry JSON, which a page of
another origin cannot send without the preflight this server never answers.
"""

from __future__ import annotations

import json
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from typing import Any
from urllib.parse import parse_qs, urlsplit

from mythzoo.viewer.session import LiveSession, Session, ViewerError

HOST = "127.0.0.1"
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                 ".svg": "image/svg+xml"}
MAX_BODY = 4096  # bytes: an action or a save request is a few dozen


def static_files() -> dict[str, tuple[bytes, str]]:
    """The page's files, by name: their bytes and content type (only the kinds in :data:`CONTENT_TYPES`)."""
    out = {}
    for entry in files("mythzoo.viewer").joinpath("static").iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1] if "." in entry.name else ""
        if entry.is_file() and suffix in CONTENT_TYPES:
            out[entry.name] = (entry.read_bytes(), CONTENT_TYPES[suffix])
    return out


class ViewerServer(ThreadingHTTPServer):
    """An HTTP server bound to 127.0.0.1 serving one session; ``url`` is where its page is."""

    daemon_threads = True

    def __init__(self, session: Session, port: int = 0):
        self.session = session
        self.files = static_files()
        super().__init__((HOST, port), Handler)
        self.port = self.server_address[1]
        self.url = f"http://{HOST}:{self.port}/"
        self.hosts = {f"{HOST}:{self.port}", f"localhost:{self.port}"}

    def start(self) -> threading.Thread:
        """Serve in a background thread (tests, notebooks); :meth:`stop` ends it."""
        thread = threading.Thread(target=self.serve_forever, name="mythzoo-viewer", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self.shutdown()
        self.server_close()


class Handler(BaseHTTPRequestHandler):
    """One request: a static file, an API call, or a 404."""

    server: ViewerServer
    server_version = "mythzoo-viewer"
    error_content_type = "text/plain; charset=utf-8"
    error_message_format = "%(code)d %(message)s\n"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the terminal shows the URL, not every request."""

    # ---------------------------------------------------------------- replies
    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, data: Any, status: int = 200) -> None:
        self._send(status, json.dumps(data).encode(), "application/json")

    def _error(self, status: int, message: str) -> None:
        self._json({"error": message}, status)

    def _host_ok(self) -> bool:
        if self.headers.get("Host", "") in self.server.hosts:
            return True
        self._error(HTTPStatus.FORBIDDEN, "wrong Host: open the address the viewer printed")
        return False

    # ---------------------------------------------------------------- methods
    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        if not self._host_ok():
            return
        url = urlsplit(self.path)
        path = url.path
        if path in ("/", "/index.html"):
            return self._static("index.html")
        if path.startswith("/static/"):
            return self._static(path[len("/static/"):])
        query = parse_qs(url.query)
        session = self.server.session
        try:
            with session.lock:
                if path == "/api/game":
                    return self._json(session.meta())
                if path == "/api/log":
                    return self._json([e.to_dict() for e in session.log])
                if path == "/api/frame":
                    i = _int(query, "i", len(session.frames) - 1)
                    seat_text = query.get("seat", ["all"])[0]
                    seat = None if seat_text == "all" else _int(query, "seat", 0)
                    if i < 0:
                        i += len(session.frames)
                    return self._json(session.frame(i, seat))
        except ViewerError as e:
            return self._error(HTTPStatus.BAD_REQUEST, str(e))
        self._error(HTTPStatus.NOT_FOUND, f"no such page: {path}")

    def do_POST(self) -> None:
        if not self._host_ok():
            return
        session = self.server.session
        path = urlsplit(self.path).path
        if path not in ("/api/act", "/api/save"):
            return self._error(HTTPStatus.NOT_FOUND, f"no such page: {path}")
        if not (self.headers.get("Content-Type") or "").startswith("application/json"):
            return self._error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send JSON (Content-Type: application/json)")
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            return self._error(HTTPStatus.BAD_REQUEST, f"a request body of 0-{MAX_BODY} bytes, please")
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError):
            return self._error(HTTPStatus.BAD_REQUEST, "the body is not JSON")
        if not isinstance(body, dict):
            return self._error(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
        if not isinstance(session, LiveSession):
            return self._error(HTTPStatus.CONFLICT, "a replay takes no moves: start a live game with mythzoo view --play")
        try:
            with session.lock:
                if path == "/api/act":
                    session.act(body.get("action"))
                    return self._json({"frames": len(session.frames), "finished": session.record.finished, "saved": session.saved})
                try:
                    return self._json({"saved": session.save()})
                except OSError as e:
                    return self._error(HTTPStatus.INTERNAL_SERVER_ERROR, f"cannot save to {session.save_path}: {e.strerror or e}")
        except ViewerError as e:
            return self._error(HTTPStatus.BAD_REQUEST, str(e))

    def _static(self, name: str) -> None:
        found = self.server.files.get(name)
        if found is None:
            return self._error(HTTPStatus.NOT_FOUND, f"no such file: {name}")
        self._send(HTTPStatus.OK, *found)


def _int(query: dict[str, list[str]], key: str, default: int) -> int:
    values = query.get(key)
    if not values:
        return default
    try:
        return int(values[0])
    except ValueError:
        raise ViewerError(f"{key} must be an integer, got {values[0]!r}") from None
