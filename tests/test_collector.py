"""The garbage collector during a build (core/collector.py): what is loaded when a build
starts is set aside, and under `mkdocs serve` what an earlier build left is collected
before the next build sets aside what is alive then."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from regles.core.collector import set_aside_what_is_loaded


class Cycle:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture(autouse=True)
def nothing_set_aside() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_what_a_build_finds_loaded_is_set_aside_until_the_next_build() -> None:
    loaded = Cycle()
    left = weakref.ref(loaded)
    set_aside_what_is_loaded()
    assert gc.get_freeze_count() > 0
    del loaded  # garbage once the build is over, in a cycle
    gc.collect()
    assert left() is not None  # set aside: the collector does not look at it
    set_aside_what_is_loaded()  # the next build of `mkdocs serve`
    assert left() is None
    assert gc.get_freeze_count() > 0
