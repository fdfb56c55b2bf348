"""What the pages and their scripts say about a database, in its own words (core/words.py):
the search box, the index of its entries, an entry's preview, a reader's lists.

One place for every such sentence: the build writes those of the templates and pages, and
gives the scripts theirs once, at the head of the pages' script (`scripts_prelude`, read by
page.js's `phrase`), so that no script says « sort » unless the game does. A script fills
`{name}`-like fields itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from regles.core.slugs import slugify
from regles.core.words import Words, capitalized
from regles.features.databases.book import DatabaseSettings

__all__ = ["NO_DATABASE", "phrases", "scripts_prelude", "search_badges", "site_phrases"]

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
        # The index of every entry (entries.js) and an entry's preview (preview.js).
        "index_search": f"Rechercher {entry.a()}",
        "index_filter": f"Filtrer les {entry.many}",
        # Short enough for a phone's field (360 px): accents are optional anyway.
        "index_placeholder": f"nom, {group.one}, champ…",
        # The group filter's first choice, agreed with the group's word: « Toutes (12) ».
        "index_group_all": "Toutes" if group.feminine else "Tous",
        "index_empty": f"{capitalized(entry.count(0))} ne correspond à ces filtres.",
        "open_entry": f"Ouvrir la fiche {entry.of()}",
        "preview_unavailable": (
            f"Aperçu indisponible (données {entry.of(2)} non chargées, hors connexion ?)."
        ),
        # The print choice of a group's page and of the lists' page (print.js).
        "print_entries": f"Imprimer les {entry.many}",
        # A reader's lists, as the index's rows name them.
        "add_named_to_list": f"Ajouter « {{name}} » à {lists.a()}",
        **list_phrases(words),
    }


def list_phrases(words: Words) -> dict[str, str]:
    """What the readers' lists say (lists.js): their page, their dialogs and messages.
    `{name}`, `{n}`… are filled by the script; a key ending in `_one` or `_many` is the
    sentence for one or for several."""
    entry, group, lists = words.entry, words.group, words.list
    kept = lists.agreed("gardé", 2)
    newer = (
        f"Ces {lists.many} ont été {lists.agreed('enregistré', 2)} par une version plus "
        f"récente du site : {lists.pronoun(2)}"
    )
    ways = f"une page {group.kind(1)} ou l’aperçu d’{entry.a()}"
    return {
        "lists_label": capitalized(lists.many),
        "list_label": capitalized(lists.one),
        "my_lists": f"Mes {lists.many}",
        "your_lists": f"Vos {lists.many}",
        "lists_unreadable": f"{capitalized(lists.many)} {lists.agreed('illisible', 2)}",
        "lists_set_aside": (
            f"{capitalized(lists.many)} {lists.agreed('illisible', 2)} "
            f"{lists.agreed('mis', 2)} de côté"
        ),
        "entry_numbered": f"{capitalized(entry.one)} {{id}}",
        "entry_unknown": f"{capitalized(entry.one)} {entry.agreed('inconnu')} ({{id}})",
        "shared_list": f"{capitalized(lists.one)} {lists.agreed('partagé')}",
        # Writing the lists.
        "newer_read_only": f"{newer} restent en lecture seule ici, rien n’a été changé.",
        "newer_shown": f"{newer} sont {lists.agreed('montré', 2)} en lecture seule, pour que "
        "rien ne se perde.",
        "changed_meanwhile": (
            f"Une version plus récente du site a enregistré d’autres {lists.many} entre-temps : "
            "rien n’a été changé. Rechargez la page."
        ),
        "full_kept_copies": (
            f"{{full}} Les {lists.many} {lists.agreed('illisible', 2)} déjà {kept} sont "
            f"{lists.agreed('resté', 2)} {lists.agreed('intact', 2)} : téléchargez-les depuis "
            f"la page {lists.of(2)} pour faire de la place."
        ),
        "full_set_aside": (
            "La mémoire de ce navigateur est trop pleine pour mettre de côté les "
            f"{lists.many} {lists.agreed('actuel', 2)} : rien n’a été changé."
        ),
        "restore_ask": (
            f"Remettre cette copie à la place {lists.of(2)} {lists.agreed('actuel', 2)} ? "
            f"{capitalized(lists.these())} sont d’abord {lists.agreed('mis', 2)} de côté."
        ),
        "storage_refused": (
            "Ce navigateur refuse de garder des données pour ce site (navigation privée ?) : "
            f"les {lists.many} ne peuvent pas être {kept}."
        ),
        "damaged_copied": (
            f"Les {lists.many} {kept} dans ce navigateur étaient "
            f"{lists.agreed('illisible', 2)} : une copie intacte en est gardée à part "
            "(ci-dessous), et la page repart de zéro."
        ),
        "damaged_not_copied": (
            f"Les {lists.many} {kept} dans ce navigateur sont {lists.agreed('illisible', 2)}, "
            "et sa mémoire est trop pleine pour en faire une copie : "
            f"{lists.pronoun(2)} restent {lists.agreed('tel', 2)} {lists.agreed('quel', 2)} et "
            "rien n’est enregistré par-dessus. Téléchargez-les (ci-dessous), puis effacez-les "
            "pour repartir."
        ),
        # Naming and choosing a list.
        "name_label": f"Nom {lists.of()} (un personnage, par exemple)",
        "name_missing": f"Donnez un nom {lists.to()}.",
        "name_taken": f"{capitalized(lists.a())} s’appelle déjà « {{name}} ».",
        "new_list": capitalized(lists.new()),
        "new_list_button": "Nouvelle" if lists.feminine else "Nouveau",
        "new_list_name": f"Nom {'de la' if lists.feminine else 'du'} {lists.new()}",
        "new_list_choice": f"{capitalized(lists.new())} :",
        "new_list_name_missing": (
            f"Donnez un nom {'à la' if lists.feminine else 'au'} {lists.new()}."
        ),
        "name_taken_choose": (
            f"{capitalized(lists.a())} s’appelle déjà « {{name}} » : "
            f"choisissez-{lists.object_pronoun()} plus haut."
        ),
        "add_to_a_list": f"Ajouter à {lists.a()}",
        "add_to_list": f"Ajouter {lists.to()}",
        "which_list": f"Dans {lists.agreed('quel')} {lists.one} ?",
        "first_list": f"Votre {lists.agreed('premier')} {lists.one}",
        "list_full": f"« {{name}} » a déjà {{n}} {entry.many}.",
        "rename_list": f"Renommer {lists.the()}",
        "empty_list": f"Vider {lists.the()}",
        "empty_ask_one": (
            f"Retirer {entry.the()} de « {{name}} » ? {capitalized(lists.the())} reste, vide."
        ),
        "empty_ask_many": (
            f"Retirer les {{n}} {entry.many} de « {{name}} » ? "
            f"{capitalized(lists.the())} reste, vide."
        ),
        "delete_list": f"Supprimer {lists.the()}",
        "its_entry_one": entry.its(),
        "its_entry_many": f"ses {{n}} {entry.many}",
        "delete_ask": (
            "Supprimer « {name} »{its} de ce navigateur ? Ce n’est pas réversible "
            f"(exportez-{lists.object_pronoun()} d’abord pour {lists.object_pronoun()} garder)."
        ),
        "keep_list": f"Garder {lists.this()}",
        "remove_from_list": f"Retirer « {{name}} » {lists.of()}",
        # Adding an entry from a page.
        "entry_not_in_data": (
            f"{capitalized(entry.this())} n’est pas dans les données {entry.of(2)} du site."
        ),
        "data_unavailable_added": (
            f"Données {entry.of(2)} indisponibles (hors connexion ?) : rien n’a été ajouté."
        ),
        "data_unavailable_ids": (
            f"Données {entry.of(2)} indisponibles (hors connexion ?) : seuls les identifiants "
            "sont montrés."
        ),
        "data_unavailable_names": (
            f"Données {entry.of(2)} indisponibles (hors connexion ?) : les {entry.many} sont "
            f"{entry.agreed('montré', 2)} par leur nom seulement."
        ),
        "entry_absent": (
            f"{capitalized(entry.agreed('absent'))} des données actuelles du site (l’export "
            f"{entry.of(2)} a changé ?) : {entry.agreed('gardé')} sous le nom "
            f"qu’{entry.pronoun()} avait"
        ),
        # A shared link.
        "link_kept": f"{capitalized(lists.one)} « {{name}} » {lists.agreed('gardé')} dans ce "
        "navigateur.",
        "link_replaced": (
            f"{capitalized(lists.one)} « {{name}} » {lists.agreed('remplacé')} par "
            f"{lists.that_one()} du lien."
        ),
        "link_kept_renamed": (
            f"{capitalized(lists.one)} « {{kept}} » {lists.agreed('gardé')} dans ce navigateur. "
            f"{capitalized(lists.a())} s’appelait déjà « {{name}} » : {lists.pronoun()} est "
            f"{lists.agreed('resté')} {lists.agreed('tel')} {lists.agreed('quel')}."
        ),
        "list_exists": f"{capitalized(lists.a())} « {{name}} » existe déjà",
        "both_sizes": (
            f"{capitalized(lists.that_one())} de ce navigateur a {{here}}, "
            f"{lists.that_one()} du lien {{there}}."
        ),
        "link_missing_one": (
            f"1 {entry.one} du lien est {entry.agreed('absent')} des données de ce site : "
            f"{entry.pronoun()} est {entry.agreed('montré')} comme {entry.agreed('absent')}."
        ),
        "link_missing_many": (
            f"{{n}} {entry.many} du lien sont {entry.agreed('absent', 2)} des données de ce "
            f"site : {entry.pronoun(2)} sont {entry.agreed('montré', 2)} comme "
            f"{entry.agreed('absent', 2)}."
        ),
        "link_repeated_one": (
            f"1 {entry.one} {entry.agreed('nommé')} plusieurs fois par le lien est "
            f"{entry.agreed('compté')} une fois."
        ),
        "link_repeated_many": (
            f"{{n}} {entry.many} {entry.agreed('nommé', 2)} plusieurs fois par le lien sont "
            f"{entry.agreed('compté', 2)} une fois."
        ),
        "link_cut_one": (
            f"Ce lien nomme {{n}} {entry.many} : {lists.a()} en garde {{max}} au plus, "
            f"{'la' if entry.feminine else 'le'} {entry.agreed('dernier')} est "
            f"{entry.agreed('laissé')} de côté."
        ),
        "link_cut_many": (
            f"Ce lien nomme {{n}} {entry.many} : {lists.a()} en garde {{max}} au plus, "
            f"les {{cut}} {entry.agreed('dernier', 2)} sont {entry.agreed('laissé', 2)} de côté."
        ),
        "link_names_none": f"Ce lien ne nomme {entry.count(0)}.",
        "without_id_one": f"1 {entry.one} sans identifiant n’est pas dans le lien.",
        "without_id_many": f"{{n}} {entry.many} sans identifiant ne sont pas dans le lien.",
        # Files.
        "file_prefix": slugify(lists.one) or "liste",
        "file_unreadable_prefix": slugify(f"{lists.many} {lists.agreed('illisible', 2)}"),
        "file_not_json": (
            f"« {{file}} » n’est pas un fichier JSON{{where}} : {lists.a()} "
            f"{lists.agreed('exporté')} par ce site l’est."
        ),
        "file_not_a_list": (
            f"« {{file}} » contient {{what}}, pas {lists.a()} : il faut un objet "
            '{ "nom": …, "{key}": […] }.'
        ),
        "file_entries_not_list": (
            f"« {{file}} » : le champ « {{key}} » doit être une liste {entry.kind()}."
        ),
        "file_too_many": f"« {{file}} » a {{n}} {entry.many} : {{max}} au plus.",
        "file_item": f"« {{file}} », {entry.one} n° {{n}}",
        "file_too_big": (
            f"« {{file}} » pèse {{size}} Ko : trop pour {lists.a()}, rien n’a été importé."
        ),
        "imported": f"{capitalized(lists.one)} « {{name}} » {lists.agreed('importé')} ({{count}}).",
        "import_repeated_one": (
            f"1 {entry.one} {entry.agreed('nommé')} plusieurs fois est "
            f"{entry.agreed('compté')} une fois."
        ),
        "import_repeated_many": (
            f"{{n}} {entry.many} {entry.agreed('nommé', 2)} plusieurs fois sont "
            f"{entry.agreed('compté', 2)} une fois."
        ),
        "name_was_taken": f"{capitalized(lists.a())} s’appelait déjà « {{name}} ».",
        "import_unknown_one": (
            f"1 {entry.one} {entry.agreed('inconnu')} de ce site est {entry.agreed('gardé')} "
            f"comme {entry.agreed('absent')} : {{names}}."
        ),
        "import_unknown_many": (
            f"{{n}} {entry.many} {entry.agreed('inconnu', 2)} de ce site sont "
            f"{entry.agreed('gardé', 2)} comme {entry.agreed('absent', 2)} : {{names}}."
        ),
        "created": f"{capitalized(lists.one)} « {{name}} » {lists.agreed('créé')}.",
        "kept_here_only": f"Vos {lists.many} ne sont {kept} que dans ce navigateur : ",
        # The list first: on a phone's one line, the entry just tapped is what gets shortened.
        "added": f"{capitalized(entry.agreed('ajouté'))} à « {{name}} » : « {{entry}} ». ",
        # The notice's link: « Voir le grimoire », « Voir » alone on a phone (lists.css).
        "see": "Voir",
        "the_list": lists.the(),
        "deleted": f"« {{name}} » est {lists.agreed('supprimé')}.",
        # Another tab changed the lists meanwhile (lists.js): nothing is lost, all is said.
        "gone_elsewhere": (
            f"« {{name}} » vient d’être {lists.agreed('supprimé')} dans un autre onglet."
        ),
        "renamed_elsewhere": (
            f"{capitalized(lists.this())} vient d’être {lists.agreed('renommé')} « {{now}} » "
            f"dans un autre onglet : validez pour {lists.object_pronoun()} renommer quand même."
        ),
        "deleted_elsewhere_kept": (
            f"« {{old}} » avait été {lists.agreed('supprimé')} dans un autre onglet : "
            f"{lists.pronoun()} est {lists.agreed('gardé')} sous le nom « {{name}} »."
        ),
        "changed_not_deleted": (
            f"« {{name}} » a changé dans un autre onglet pendant que vous confirmiez : "
            f"{lists.pronoun()} n’a pas été {lists.agreed('supprimé')}."
        ),
        "renamed_not_deleted": (
            f"« {{name}} » a été {lists.agreed('renommé')} « {{now}} » dans un autre onglet "
            f"pendant que vous confirmiez : {lists.pronoun()} n’a pas été "
            f"{lists.agreed('supprimé')}."
        ),
        "emptied_but_one": (
            f"« {{name}} » est {lists.agreed('vidé')}, sauf 1 {entry.one} "
            f"{entry.agreed('ajouté')} entre-temps dans un autre onglet."
        ),
        "emptied_but_many": (
            f"« {{name}} » est {lists.agreed('vidé')}, sauf {{n}} {entry.many} "
            f"{entry.agreed('ajouté', 2)} entre-temps dans un autre onglet."
        ),
        "removed": f"« {{entry}} » {entry.agreed('retiré')} de « {{name}} ».",
        "print_title": f"{capitalized(lists.one)} « {{name}} » ({{count}})",
        # The page's empty states.
        "no_list_yet": (
            f"{capitalized(lists.count(0))} dans ce navigateur pour l’instant. "
            f"Ajoutez {entry.a()} depuis "
        ),
        "index_link": f"l’index {entry.of(2)}",
        "no_list_yet_end": (
            f" (bouton « + » de chaque ligne), {ways} : {lists.the()} se crée au passage."
        ),
        "list_empty": f"« {{name}} » est vide. Ajoutez-y des {entry.many} depuis ",
        "list_empty_end": f", {ways}.",
    }


def site_phrases(databases: Sequence[DatabaseSettings]) -> dict[str, str]:
    """The search box's sentences for a site's databases (those of its one database, or
    theirs together), or for a site without any."""
    if not databases:
        return dict(NO_DATABASE)
    if len(databases) == 1:
        return phrases(databases[0].words)
    entries = [d.words.entry for d in databases]
    groups = [d.words.group for d in databases]
    return {
        **phrases(databases[0].words),
        "search_label": f"Rechercher une règle, {_either(e.a() for e in entries)}",
        "search_types": f"Règles, {', '.join(e.many for e in entries)} ou pages du site",
        "search_type_any": "Type",
        "search_groups": f"{capitalized(_either(g.one for g in groups))}",
        "search_group_any": capitalized("/".join(g.one for g in groups)),
        "search_hint": (
            f"Une règle, une section, {', '.join(e.a() for e in entries)} : tapez quelques lettres."
        ),
    }


def _either(items: Iterable[str]) -> str:
    """« un sort ou une prière », « a, b ou c »."""
    *first, last = items
    return f"{', '.join(first)} ou {last}" if first else last


def search_badges(databases: Sequence[DatabaseSettings]) -> dict[str, dict[str, str]]:
    """For the search box's script (search.js): each database's type in the search's
    filter, with the badges of its entries and of its groups."""
    return {
        capitalized(d.words.entry.many): {
            "entree": capitalized(d.words.entry.one),
            "groupe": capitalized(d.words.group.one),
        }
        for d in databases
    }


def scripts_prelude(databases: Sequence[DatabaseSettings]) -> str:
    """The statement that gives the pages' scripts each database's folder, data file and
    sentences (`rules.databases`, page.js), in the order the site declares them, once in the
    hashed page script rather than in every page; "" for a site without a database. (Its
    lists' page is named in each page: main.html's `regles-listes`.)"""
    if not databases:
        return ""
    said = [
        {
            "folder": d.folder,
            "data": d.data_file,
            "phrases": phrases(d.words),
        }
        for d in databases
    ]
    text = json.dumps(said, ensure_ascii=False, sort_keys=True)
    return f"(window.rules = window.rules || {{}}).databases = {text};"
