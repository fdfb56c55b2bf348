"""A static server that behaves like GitHub Pages where it matters for the figures, and counts.

- text (HTML, CSS, JavaScript, JSON, SVG, XML, manifest) is sent gzip-compressed when the
  browser asks for it; binary files (wasm, zip, images, the `.gz` snapshot) are sent as they are;
- `Cache-Control: max-age=600` and an ETag, as GitHub Pages sends them, so that a second load in
  the same browser context is a warm one;
- an unknown path gets a `404.html` with status 404: the one of the folder named by the path's
  first segment when there is one (a GitHub Pages project, served under /<repo>/), else the
  root's;
- every response's body size, as sent on the wire, is recorded: the weight figures come from
  here, so they include what workers and service workers fetch (`wire_size` tells what a
  file's body weighs before anyone asks for it);
- a request for part of a file (`Range: bytes=N-`, `N-M` or `-N`, one range) gets it, as a
  206 with its `Content-Range`, uncompressed, as GitHub Pages answers one: a download cut
  half-way resumes, and Chromium's HTTP cache, which checks a part it holds by asking for
  one byte, gets that byte, not the whole file again;
- no Nagle's algorithm (TCP_NODELAY), as a CDN: headers and body are two writes, and each
  small response would otherwise wait for the browser's delayed ACK (40 ms on Linux); the
  ~800 files a first visit stores offline took 6 s instead of 0.4 s to arrive.

`/__bench__/…` serves the benchmark's own pages (`bench/static/`), on the site's origin.

Switches, for the benchmark's throttled first visit and for the tests (each may be set at any
time, from any thread; a request reads them as it goes):

- `rate`: bytes per second of one link that every connection shares (a token bucket), or
  None (the default) for no limit. Response bodies go out in chunks of `CHUNK` bytes, each
  waiting for its turn on the link; headers are not throttled (nor counted).
- `root`: the folder served; replace it between requests to publish a new deploy.
- `cut`: while true the network is down: a new request gets no answer (its connection is
  closed) and its path goes to `requests_while_cut`; a body being sent stops at its next
  chunk (connection closed, so the browser sees a truncated response), and that transfer is
  not logged in `transfers`.
- `cut_after_bytes`: once `bytes_sent` reaches this figure (an absolute count: add it to the
  current `bytes_sent`), `cut` turns true by itself and `cut_after_bytes` back to None, so
  that setting `cut = False` later brings the link back; the chunk that reaches the figure
  is shortened to end exactly there. To lose the link, say, 20 % of the way through a
  download.

Counters: `transfers` (every response sent in full), `requests` (the path and query of every
request answered, in order of arrival, not those dropped while cut) and `bytes_sent` (every
body byte written, cut responses included: what crossed the link).
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

__all__ = ["CHUNK", "CountingServer", "Transfer"]

CHUNK = 16 * 1024  # bytes written at a time: the grain of the throttle and of a cut
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


def _byte_range(header: str | None, length: int) -> tuple[int, int] | None:
    """The bytes one `Range` header asks of a file of `length` bytes, first and last included:
    `bytes=N-` (the rest of a file, as a resumed download asks), `bytes=N-M` (Chromium's HTTP
    cache checks a file it holds a part of by asking for one byte of it), `bytes=-N` (its
    last N). None for the whole file: no header, several ranges, or one past its end."""
    if not header or not header.startswith("bytes=") or "," in header:
        return None
    first, dash, last = header[len("bytes=") :].strip().partition("-")
    if not dash or not (first or last) or not (first + last).isdigit():
        return None
    if not first:
        start, end = max(0, length - int(last)), length - 1
    else:
        start, end = int(first), min(int(last), length - 1) if last else length - 1
    return (start, end) if start <= end < length else None


class _QuietServer(http.server.ThreadingHTTPServer):
    """Chromium drops keep-alive connections when a page or a run ends: a reset connection
    is the browser leaving, not a fault of the server, and gets no traceback."""

    def handle_error(self, request: object, client_address: object) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


class _Link:
    """One link that every connection shares: a token bucket of `CHUNK` bytes, refilled at
    the rate given. Tokens may go into debt: each chunk takes its share at once and waits
    until the debt is paid, so concurrent responses go out one chunk after the other, never
    faster together than the rate."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tokens = 0.0
        self._at = time.monotonic()

    def reset(self) -> None:
        with self._lock:
            self._tokens, self._at = 0.0, time.monotonic()

    def take(self, size: int, rate: float | None) -> None:
        """Wait until `size` bytes may be sent at `rate` bytes per second (None: at once)."""
        if rate is None or rate <= 0:
            return
        with self._lock:
            now = time.monotonic()
            self._tokens = min(float(CHUNK), self._tokens + (now - self._at) * rate)
            self._at = now
            self._tokens -= size
            wait = -self._tokens / rate if self._tokens < 0 else 0.0
        if wait > 0:
            time.sleep(wait)


class _Dropped(Exception):
    """The link was cut while a body was being sent."""


class CountingServer:
    """The built site on 127.0.0.1:`port`, in a thread, with a log of every transfer.

    `rate`, `root`, `cut` and `cut_after_bytes` may be changed at any time (see the module's
    docstring); `requests`, `requests_while_cut` and `transfers` are lists that only grow
    (read them, or `clear()` them between steps of a test)."""

    def __init__(self, root: Path, port: int = 0) -> None:
        self._root = root.resolve()
        self.transfers: list[Transfer] = []
        self.requests: list[str] = []
        self.requests_while_cut: list[str] = []
        self.cut = False
        self.cut_after_bytes: int | None = None
        self._rate: float | None = None
        self._link = _Link()
        self._sent = 0  # body bytes written
        self._reserved = 0  # body bytes taken for writing: _sent and the chunks in flight
        self._lock = threading.Lock()
        self._cache: dict[tuple[Path, int, int], _Body] = {}
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body are two writes: with Nagle's algorithm, the body would wait
            # for the browser's delayed ACK of the headers (40 ms on Linux) on every small
            # response, which no CDN makes a reader wait.
            disable_nagle_algorithm = True

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

    # Switches ----------------------------------------------------------------------------

    @property
    def root(self) -> Path:
        """The folder served. Setting it publishes another deploy: each request reads it once."""
        return self._root

    @root.setter
    def root(self, folder: Path) -> None:
        self._root = Path(folder).resolve()

    @property
    def rate(self) -> float | None:
        """The link's bytes per second, None for no limit. Setting it starts the link afresh
        (no debt left by an earlier setting)."""
        return self._rate

    @rate.setter
    def rate(self, value: float | None) -> None:
        if value is not None and value <= 0:
            raise ValueError(f"débit invalide : {value!r}")
        self._rate = value
        self._link.reset()

    @property
    def bytes_sent(self) -> int:
        """Body bytes written so far, responses cut short included."""
        with self._lock:
            return self._sent

    def wire_size(
        self, url_path: str, *, gzipped: bool = True, root: Path | None = None
    ) -> int | None:
        """The body bytes a full GET of `url_path` (from the root, "/" or not) gets, from a
        browser that accepts gzip when `gzipped`; None for a path without a file. From the
        root served now, or from `root` (a deploy still to publish)."""
        path, _ = self._resolve(
            self._root if root is None else root.resolve(), "/" + url_path.lstrip("/")
        )
        if path is None:
            return None
        body = self._body(path)
        return len(body.gzipped if gzipped and body.gzipped is not None else body.raw)

    # Life cycle --------------------------------------------------------------------------

    def start(self) -> CountingServer:
        self._prepare()
        self._thread.start()
        return self

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def _prepare(self) -> None:
        self.prepare()

    def prepare(self) -> None:
        """Compress every text file of the root once, before any timing, as a CDN would have
        done (`start` does it; call it again after replacing the root if the next figures
        are times)."""
        for path in self._root.rglob("*"):
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

    def _resolve(self, root: Path, url_path: str) -> tuple[Path | None, str | None]:
        """The file for a URL path, or a redirect target for a folder without its slash."""
        clean = posixpath.normpath(unquote(url_path))
        if clean.startswith(BENCH_PREFIX.rstrip("/")):
            base, rest = STATIC, clean[len(BENCH_PREFIX) :]
        else:
            base, rest = root, clean.lstrip("/")
        target = (base / rest).resolve()
        if target != base and base not in target.parents:
            return None, None
        if target.is_dir():
            if not url_path.endswith("/"):
                return None, url_path + "/"
            target = target / "index.html"
        return (target if target.is_file() else None), None

    @staticmethod
    def _not_found_page(root: Path, url_path: str) -> Path:
        """As GitHub Pages: the project's own 404.html (/<repo>/…), else the root's."""
        first = posixpath.normpath(unquote(url_path)).lstrip("/").split("/", 1)[0]
        if first and first not in (".", ".."):
            page = (root / first / "404.html").resolve()
            if root in page.parents and page.is_file():
                return page
        return root / "404.html"

    def _respond(self, handler: http.server.BaseHTTPRequestHandler, head: bool) -> None:
        if self.cut:
            with self._lock:
                self.requests_while_cut.append(handler.path)
            handler.close_connection = True  # no answer at all: the network is down
            return
        with self._lock:
            self.requests.append(handler.path)
        root = self._root  # one deploy per request, even if it is replaced meanwhile
        url_path = urlsplit(handler.path).path
        path, redirect = self._resolve(root, url_path)
        if redirect is not None:
            self._send(handler, url_path, 301, b"", {"Location": redirect}, head, False)
            return
        status = 200
        if path is None:
            status, path = 404, self._not_found_page(root, url_path)
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
            "Accept-Ranges": "bytes",
        }
        if status == 200 and handler.headers.get("If-None-Match") == body.etag:
            self._send(handler, url_path, 304, b"", headers, head, False)
            return
        wanted = _byte_range(handler.headers.get("Range"), len(body.raw))
        if status == 200 and wanted is not None and wanted != (0, len(body.raw) - 1):
            start, end = wanted
            headers["Content-Range"] = f"bytes {start}-{end}/{len(body.raw)}"
            self._send(handler, url_path, 206, body.raw[start : end + 1], headers, head, False)
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
            if not head:
                self._write_body(handler, payload)
        except (BrokenPipeError, ConnectionResetError):
            return  # the browser gave up on this one; nothing was transferred in full
        except _Dropped:
            handler.close_connection = True  # a truncated body: the link went down
            return
        sent = 0 if head else len(payload)
        with self._lock:
            self.transfers.append(Transfer(time.monotonic(), url_path, status, sent, gzipped))

    def _write_body(self, handler: http.server.BaseHTTPRequestHandler, payload: bytes) -> None:
        """The body in chunks, each at its turn on the link, until done or cut."""
        offset = 0
        while offset < len(payload):
            if self.cut:
                raise _Dropped
            size = min(CHUNK, len(payload) - offset)
            with self._lock:
                limit = self.cut_after_bytes
                if limit is not None:
                    size = min(size, limit - self._reserved)
                    if size <= 0:
                        self.cut, self.cut_after_bytes = True, None
                        raise _Dropped
                self._reserved += size
            self._link.take(size, self._rate)
            if self.cut:
                with self._lock:
                    self._reserved -= size
                raise _Dropped
            try:
                handler.wfile.write(payload[offset : offset + size])
            except OSError:
                with self._lock:
                    self._reserved -= size
                raise
            offset += size
            with self._lock:
                self._sent += size
                if limit is not None and self._reserved >= limit:
                    self.cut, self.cut_after_bytes = True, None
