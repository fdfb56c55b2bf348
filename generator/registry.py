"""Named steps run by priority, as Python-Markdown registers its processors
(`registry.register(proc, "name", 12)`): a site or a test can add, replace or remove one
step by its name without restating the whole sequence."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

__all__ = ["Registry"]

T = TypeVar("T")


class Registry(Generic[T]):
    """Items by name; iterated from the highest priority to the lowest, and in the order of
    registration between equal priorities."""

    def __init__(self) -> None:
        self._items: dict[str, tuple[T, float]] = {}

    def register(self, item: T, name: str, priority: float) -> None:
        """Add an item, or replace the one of that name (the new priority applies)."""
        self._items.pop(name, None)
        self._items[name] = (item, priority)

    def deregister(self, name: str) -> None:
        del self._items[name]

    def names(self) -> list[str]:
        # sorted() is stable: equal priorities keep the order of registration.
        return sorted(self._items, key=lambda name: -self._items[name][1])

    def __iter__(self) -> Iterator[T]:
        return (self._items[name][0] for name in self.names())

    def __getitem__(self, name: str) -> T:
        return self._items[name][0]

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __len__(self) -> int:
        return len(self._items)
