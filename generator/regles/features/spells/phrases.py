"""What the pages and their scripts say about a database, in its own words (core/words.py):
the search box, the index of its entries, an entry's preview, a reader's lists.

One place for every such sentence: the build writes those of the templates and pages, and
gives the scripts theirs in each page (<meta name="regles-mots">, main.html), so that no
script says « sort » unless the game does. A script fills `{name}`-like fields itself.
"""

from __future__ import annotations

from regles.core.words import Words, capitalized
from regles.features.spells.book import SpellSettings

__all__ = ["NO_DATABASE", "phrases", "site_phrases"]

# The search box of a site without a database.
NO_DATABASE = {
    "search_label": "Rechercher une règle",
    "search_types": "Règles ou pages du site",
    "search_type_any": "Type",
    "search_hint": "Une règle, une section : tapez quelques lettres.",
}


def phrases(words: Words) -> dict[str, str]:
    """Every sentence about a database's entries, groups and lists, by key."""
    entry, group, lists = words.entry, words.group, words.list
    return {
        # The counts (a script says « 3 prières », « aucune prière »).
        "entry_one": entry.one,
        "entry_many": entry.many,
        "entry_none": entry.count(0),
        # The search box (partials/search.html, search.js) and the home page's field.
        "search_label": f"Rechercher une règle ou {entry.a()}",
        "search_types": f"Règles, {entry.many} ou pages du site",
        "search_type_any": f"Règle/{entry.one}",
        "search_groups": f"{capitalized(group.one)} {entry.kind()}",
        "search_group_any": capitalized(group.one),
        "search_hint": f"Une règle, une section, {entry.a()} : tapez quelques lettres.",
        "search_kind": capitalized(entry.many),  # the entries' type in the search's filter
        "badge_entry": capitalized(entry.one),
        "badge_group": capitalized(group.one),
        # The index of every entry (spells.js) and an entry's preview (preview.js).
        "index_search": f"Rechercher {entry.a()}",
        "index_filter": f"Filtrer les {entry.many}",
        "index_placeholder": f"nom, {group.one}, champ… (accents facultatifs)",
        "index_empty": f"{capitalized(entry.count(0))} ne correspond à ces filtres.",
        "open_entry": f"Ouvrir la fiche {entry.of()}",
        "preview_unavailable": (
            f"Aperçu indisponible (données {entry.of(2)} non chargées, hors connexion ?)."
        ),
        # A reader's lists, as the index's rows name them.
        "add_named_to_list": f"Ajouter « {{name}} » à {lists.a()}",
    }


def site_phrases(spells: SpellSettings | None) -> dict[str, str]:
    """The phrases of the site's database, or those of a site without one."""
    return phrases(spells.words) if spells is not None else dict(NO_DATABASE)
