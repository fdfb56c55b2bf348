"""The benchmark's server answers `Range` as GitHub Pages does (bench/server.py): what a
first visit cut half-way costs on the wire is only told right if a part asked for is sent
alone, not the whole file again."""

from __future__ import annotations

import time
import urllib.request
from pathlib import Path

import pytest

from bench.server import CountingServer, _byte_range


@pytest.mark.parametrize(
    ("header", "wanted"),
    [
        ("bytes=5-", (5, 9)),  # the rest, as a resumed download asks
        ("bytes=5-5", (5, 5)),  # one byte, as Chromium's HTTP cache checks a part it holds
        ("bytes=5-100", (5, 9)),
        ("bytes=-3", (7, 9)),
        ("bytes=0-", (0, 9)),
        (None, None),
        ("bytes=10-", None),  # past the end
        ("bytes=3-2", None),
        ("bytes=1-2,4-5", None),  # several ranges: the whole file
        ("bytes=-", None),
        ("bytes=2-x", None),
        ("octets=1-", None),
    ],
)
def test_a_range_names_the_bytes_it_asks_for(header: str | None, wanted: object) -> None:
    assert _byte_range(header, 10) == wanted


def test_one_byte_asked_for_is_sent_alone(tmp_path: Path) -> None:
    (tmp_path / "gros.bin").write_bytes(bytes(range(100)))
    server = CountingServer(tmp_path).start()
    try:
        request = urllib.request.Request(server.url + "gros.bin", headers={"Range": "bytes=40-40"})
        with urllib.request.urlopen(request) as response:
            assert response.status == 206
            assert response.headers["Content-Range"] == "bytes 40-40/100"
            assert response.read() == bytes([40])
        # Counted by the server's thread once the body is written: the client may be first.
        deadline = time.monotonic() + 10
        while not server.transfers and time.monotonic() < deadline:
            time.sleep(0.01)
        assert [(t.status, t.body_bytes) for t in server.transfers] == [(206, 1)]
        assert server.bytes_sent == 1
    finally:
        server.close()
