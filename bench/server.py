"""A static server that behaves like GitHub Pages where it matters for the figures, and counts.

- text (HTML, CSS, JavaScript, JSON, SVG, XML, manifest) is sent gzip-compressed when the
  browser asks for it; binary files (wasm, zip, images, the `.gz` snapshot) are sent as they are;
- `Cache-Control: max-age=600` and an ETag, as GitHub Pages sends them, so that a second load in
  the same browser context is a warm one;
- an unknown path gets the site's `404.html` with status 404;
- every response's body size, as sent on the wire, is recorded: the weight figures come from
  here, so they include what workers and service workers fetch.

`/__bench__/…` serves the benchmark's own pages (`bench/static/`), on the site's origin.
"""

from __future__ import annotations

import email.utils
import gzip
import http.server
import mimetypes
import posixpath
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

__all__ = ["CountingServer", "Transfer"]

STATIC = Path(__file__).with_name("static")
BENCH_PREFIX = "/__bench__/"
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".webmanifest": "application/manifest+json; charset=utf-8",
    ".svg": "image/svg+xml",
    ".xml": "application/xml",
    ".txt": "text/plain; charset=utf-8",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
}
COMPRESSED_TYPES = ("text/", "application/json", "application/manifest+json", "image/svg+xml")
COMPRESSED_TYPES_EXACT = ("application/xml",)


def content_type(path: Path) -> str:
    return (
        TYPES.get(path.suffix.lower())
        or mimetypes.guess_type(path.name)[0]
        or ("application/octet-stream")
    )


def compressible(kind: str) -> bool:
    return kind.startswith(COMPRESSED_TYPES) or kind.split(";")[0] in COMPRESSED_TYPES_EXACT


@dataclass(frozen=True)
class Transfer:
    """One response as the server sent it."""

    at: float  # time.monotonic()
    path: str
    status: int
    body_bytes: int
    gzip: bool


@dataclass(frozen=True)
class _Body:
    raw: bytes
    gzipped: bytes | None
    etag: str
    modified: str


class _QuietServer(http.server.ThreadingHTTPServer):
    """Chromium drops keep-alive connections when a page or a run ends: a reset connection
    is the browser leaving, not a fault of the server, and gets no traceback."""

    def handle_error(self, request: object, client_address: object) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


class CountingServer:
    """The built site on 127.0.0.1:`port`, in a thread, with a log of every transfer."""

    def __init__(self, root: Path, port: int = 0) -> None:
        self.root = root.resolve()
        self.transfers: list[Transfer] = []
        self._lock = threading.Lock()
        self._cache: dict[tuple[Path, int, int], _Body] = {}
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                server._respond(self, head=False)

            def do_HEAD(self) -> None:
                server._respond(self, head=True)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._httpd = _QuietServer(("127.0.0.1", port), Handler)
        self._httpd.daemon_threads = True
        self.port = int(self._httpd.server_address[1])
        self.url = f"http://127.0.0.1:{self.port}/"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    # Life cycle --------------------------------------------------------------------------

    def start(self) -> CountingServer:
        self._prepare()
        self._thread.start()
        return self

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def _prepare(self) -> None:
        """Compress every text file once, before any timing, as a CDN would have done."""
        for path in self.root.rglob("*"):
            if path.is_file() and compressible(content_type(path)):
                self._body(path)

    # Counting ----------------------------------------------------------------------------

    def mark(self) -> int:
        """Position in the log, to count what comes after it."""
        with self._lock:
            return len(self.transfers)

    def since(self, mark: int) -> list[Transfer]:
        with self._lock:
            return list(self.transfers[mark:])

    def last_activity(self) -> float:
        with self._lock:
            return self.transfers[-1].at if self.transfers else 0.0

    def wait_quiet(self, quiet: float = 2.0, limit: float = 30.0) -> None:
        """Return once nothing was requested for `quiet` seconds (at most `limit` seconds)."""
        start = time.monotonic()
        while time.monotonic() - start < limit:
            idle = time.monotonic() - max(self.last_activity(), start)
            if idle >= quiet:
                return
            time.sleep(min(0.1, quiet - idle))

    # Serving -----------------------------------------------------------------------------

    def _body(self, path: Path) -> _Body:
        stat = path.stat()
        key = (path, stat.st_mtime_ns, stat.st_size)
        cached = self._cache.get(key)
        if cached is None:
            raw = path.read_bytes()
            packed = (
                gzip.compress(raw, compresslevel=6, mtime=0)
                if compressible(content_type(path))
                else None
            )
            cached = _Body(
                raw,
                packed,
                f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"',
                email.utils.formatdate(stat.st_mtime, usegmt=True),
            )
            self._cache[key] = cached
        return cached

    def _resolve(self, url_path: str) -> tuple[Path | None, str | None]:
        """The file for a URL path, or a redirect target for a folder without its slash."""
        clean = posixpath.normpath(unquote(url_path))
        if clean.startswith(BENCH_PREFIX.rstrip("/")):
            base, rest = STATIC, clean[len(BENCH_PREFIX) :]
        else:
            base, rest = self.root, clean.lstrip("/")
        target = (base / rest).resolve()
        if target != base and base not in target.parents:
            return None, None
        if target.is_dir():
            if not url_path.endswith("/"):
                return None, url_path + "/"
            target = target / "index.html"
        return (target if target.is_file() else None), None

    def _respond(self, handler: http.server.BaseHTTPRequestHandler, head: bool) -> None:
        url_path = urlsplit(handler.path).path
        path, redirect = self._resolve(url_path)
        if redirect is not None:
            self._send(handler, url_path, 301, b"", {"Location": redirect}, head, False)
            return
        status = 200
        if path is None:
            status, path = 404, self.root / "404.html"
            if not path.is_file():
                self._send(handler, url_path, 404, b"", {}, head, False)
                return
        body = self._body(path)
        headers = {
            "Content-Type": content_type(path),
            "Cache-Control": "max-age=600",
            "ETag": body.etag,
            "Last-Modified": body.modified,
            "Vary": "Accept-Encoding",
        }
        if status == 200 and handler.headers.get("If-None-Match") == body.etag:
            self._send(handler, url_path, 304, b"", headers, head, False)
            return
        wants_gzip = "gzip" in (handler.headers.get("Accept-Encoding") or "")
        if body.gzipped is not None and wants_gzip:
            headers["Content-Encoding"] = "gzip"
            self._send(handler, url_path, status, body.gzipped, headers, head, True)
        else:
            self._send(handler, url_path, status, body.raw, headers, head, False)

    def _send(
        self,
        handler: http.server.BaseHTTPRequestHandler,
        url_path: str,
        status: int,
        payload: bytes,
        headers: dict[str, str],
        head: bool,
        gzipped: bool,
    ) -> None:
        try:
            handler.send_response(status)
            for name, value in headers.items():
                handler.send_header(name, value)
            handler.send_header("Content-Length", str(len(payload)))
            handler.end_headers()
            if not head and payload:
                handler.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            return  # the browser gave up on this one; nothing was transferred in full
        sent = 0 if head else len(payload)
        with self._lock:
            self.transfers.append(Transfer(time.monotonic(), url_path, status, sent, gzipped))
