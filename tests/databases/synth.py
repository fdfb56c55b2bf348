"""Test helpers for the spell export: the seed's location and a synthetic N× export.

The seed is the export of the generator's test site (tests/site/sorts.txt: five colleges of
this site's export, 79 spells); bench/ gives these helpers this site's own export."""

from __future__ import annotations

import re
from pathlib import Path

SEED = Path(__file__).resolve().parents[1] / "site" / "sorts.txt"

# The keys of a record of data/spells.json: a contract with regles/theme/assets/js/entries.js
# (filters, sorting, spell previews), checked on the parser's records and on the built site.
ENTRY_RECORD_KEYS = frozenset(
    {"id", "name", "group", "group_slug", "level_min", "level_max", "fields", "description",
     "url", "slug", "tri", "choix", "long"}
)  # fmt: skip

_GROUP_HEADING = re.compile(r"(?<!\S)## (?P<name>.+?)(?= \*\*Description du collège)")
_END = " --- Fin du fichier"


def seed_text() -> str:
    """The seed export, read as the site reads it."""
    from regles.features.databases.model import read_export

    if not SEED.is_file():
        raise AssertionError(f"export de référence introuvable : {SEED}")
    return read_export(SEED)


def synthesize_export(text: str, n_copies: int) -> str:
    """The export repeated ``n_copies`` times, copy k ≥ 2 renaming each college « Nom k ».

    Entry names stay as they are: they only need to be unique within a college, and
    renamed colleges keep every spell's URL distinct.
    """
    body = text.rstrip()
    if not body.endswith(_END):
        raise ValueError("l’export ne se termine pas par « --- Fin du fichier »")
    body = body[: -len(_END)]
    first = _GROUP_HEADING.search(body)
    if first is None:
        raise ValueError("aucun collège dans l’export")
    preamble, groups = body[: first.start()], body[first.start() :]
    copies = [groups]
    for k in range(2, n_copies + 1):

        def rename(m: re.Match[str], k: int = k) -> str:
            return f"## {m.group('name')} {k}"

        copies.append(_GROUP_HEADING.sub(rename, groups))
    return preamble + " ".join(copies) + _END
