"""Where a reader's character keeps each calculator field's value (theme's characters.js).

A field keeps its value under its calculator's id and its name (« damage.amount »). A field
that several calculators of the site name and label alike (« hp », « Points de vie
actuels ») is the same value for all of them: it keeps it under its name alone (« hp »), and
is typed once. Two fields with one name and two labels (« amount »: « Dégâts infligés » and
« Points de vie récupérés ») are two values.

A field's keys are written best first: the page reads the first one it holds a value for
and writes the first. A field that becomes shared when the site adds a calculator still
reads what its calculator kept under its own key before.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["RANDOM_SEED", "memory_keys"]

# The draw of a calculator that rolls dice: never a value to keep.
RANDOM_SEED = "seed"


def memory_keys(catalog: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, str]]:
    """Each calculator's fields (by id, then by name) and their keys, space-separated."""
    entries = list(catalog)
    labels: dict[str, set[str]] = defaultdict(set)
    users: dict[str, set[str]] = defaultdict(set)
    for entry in entries:
        for spec in entry["inputs"]:
            labels[spec["name"]].add(str(spec.get("label", spec["name"])))
            users[spec["name"]].add(str(entry["id"]))
    keys: dict[str, dict[str, str]] = {}
    for entry in entries:
        calc_id = str(entry["id"])
        keys[calc_id] = {}
        for spec in entry["inputs"]:
            name = spec["name"]
            if name == RANDOM_SEED:
                continue
            own = f"{calc_id}.{name}"
            shared = len(users[name]) > 1 and len(labels[name]) == 1
            keys[calc_id][name] = f"{name} {own}" if shared else own
    return keys
