"""A game's words in the generator's French sentences (core/words.py): articles, « de » and
« à » contracted or elided, counts, agreement; and `words:` as a site writes it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from regles.core.words import DEFAULT_WORDS, Noun, Words, duration, elides, file_size, words_from
from regles.features.databases.book import DatabaseSettings, export_problems, summary_text
from regles.features.databases.export import group_marker, parse_export
from regles.features.databases.phrases import phrases, search_badges, site_phrases

ENTRY = Noun("sort", "sorts", "m")
# This site's words, which no message about another game's export may use.
OTHER = re.compile(r"\b(sorts?|grimoires?|coll[èe]ges?)\b", re.IGNORECASE)
PRAYER = Noun("prière", "prières", "f")
ALMANAC = Noun("almanach", "almanachs", "m")
HERB = Noun("herbe", "herbes", "f")
HERO = Noun("héros", "héros", "m")
BOOK = Noun("livre de prières", "livres de prières", "m")


@pytest.mark.parametrize(
    ("noun", "the", "of", "to", "a"),
    [
        (ENTRY, "le sort", "du sort", "au sort", "un sort"),
        (PRAYER, "la prière", "de la prière", "à la prière", "une prière"),
        (ALMANAC, "l’almanach", "de l’almanach", "à l’almanach", "un almanach"),
        (HERB, "l’herbe", "de l’herbe", "à l’herbe", "une herbe"),
        (HERO, "le héros", "du héros", "au héros", "un héros"),  # h aspiré
        (
            BOOK,
            "le livre de prières",
            "du livre de prières",
            "au livre de prières",
            "un livre de prières",
        ),
    ],
)
def test_articles_agree_and_elide(noun: Noun, the: str, of: str, to: str, a: str) -> None:
    assert (noun.the(), noun.of(), noun.to(), noun.a()) == (the, of, to, a)


def test_plurals_and_counts() -> None:
    assert (PRAYER.the(2), PRAYER.of(3), PRAYER.to(2)) == (
        "les prières",
        "des prières",
        "aux prières",
    )
    assert [ENTRY.count(n) for n in (0, 1, 2)] == ["aucun sort", "1 sort", "2 sorts"]
    assert [PRAYER.count(n) for n in (0, 1, 12)] == ["aucune prière", "1 prière", "12 prières"]


def test_a_participle_agrees_with_the_noun_and_its_number() -> None:
    assert [ENTRY.agreed("publié", n) for n in (0, 1, 2)] == ["publié", "publié", "publiés"]
    assert [PRAYER.agreed("publié", n) for n in (0, 1, 2)] == ["publiée", "publiée", "publiées"]


@pytest.mark.parametrize(
    ("word", "expected"),
    [("ours", True), ("Élixir", True), ("hydre", True), ("hache", False), ("culte", False)],
)
def test_elision(word: str, expected: bool) -> None:
    assert elides(word) is expected


def test_the_export_summary_speaks_the_game_s_words() -> None:
    assert summary_text(23, 422, 0, DEFAULT_WORDS) == (
        "23 collèges, 422 sorts publiés, aucun sort écarté pour erreur"
    )
    words = words_from(
        {
            "entry": {"one": "prière", "many": "prières", "gender": "f"},
            "group": {"one": "culte", "many": "cultes", "gender": "m"},
        }
    )
    assert words.list == DEFAULT_WORDS.list  # left out: the default
    assert (
        summary_text(1, 10, 2, words)
        == "1 culte, 10 prières publiées, 2 prières écartées pour erreur"
    )


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ([], "attend entry, group et list"),
        ({"monstre": {}}, "« monstre » inconnu"),
        ({"entry": {"one": "prière"}}, "attend one, many et gender"),
        ({"entry": {"one": "prière", "many": "prières", "gender": "n"}}, "genre « n »"),
        ({"entry": {"one": "prière", "many": "prières", "genre": "f"}}, "« genre » inconnu"),
        ({"entry": {"one": " ", "many": "prières"}}, "non vides"),
        # Markup: a word is written as it is into pages, sentences and scripts.
        (
            {"entry": {"one": "prière<script>", "many": "prières"}},
            "« words.entry » : « prière<script> » contient < > : un mot du jeu est du texte",
        ),
        ({"list": {"one": "liste", "many": "listes *secrètes*"}}, "contient \\*"),
        ({"group": {"one": "culte & rite", "many": "cultes"}}, "contient &"),
    ],
)
def test_words_a_site_gets_wrong_get_a_french_message(data: object, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        words_from(data)


def export_of(marker: str) -> str:
    return (
        "# Prières _Généré le 01/01/2027 à 10:00_ ---\n"
        f"## Soleil **{marker} :** Le culte du soleil.\n"
        "### Lumière (I) - **Portée :** 10 m Une lumière.\n"
        "--- Fin du fichier\n"
    )


@pytest.mark.parametrize(
    ("group", "marker"),
    [
        (Noun("culte", "cultes", "m"), "Description du culte"),
        (Noun("confrérie", "confréries", "f"), "Description de la confrérie"),
        (Noun("école", "écoles", "f"), "Description de l’école"),
        (Noun("école", "écoles", "f"), "Description de l'école"),  # a straight apostrophe
    ],
)
def test_a_group_s_description_marker_is_in_the_game_s_words(group: Noun, marker: str) -> None:
    result = parse_export(export_of(marker), group=group)
    assert [p.message for p in result.problems if p.severity == "error"] == []
    (sun,) = result.groups
    assert (sun.name, sun.description) == ("Soleil", "Le culte du soleil.")


def test_an_export_in_other_words_than_the_site_s_says_which_marker_it_lacks() -> None:
    result = parse_export(export_of("Description du culte"))  # the default words: collège
    errors = [p.message for p in result.problems if p.severity == "error"]
    assert errors == [
        "marqueur « **Description du culte :** » inconnu : la description d’un collège suit "
        "« **Description du collège :** »"
    ]
    assert result.groups[0].name == "Soleil"  # told apart all the same
    assert group_marker(DEFAULT_WORDS.group)[1] == "**Description du collège :**"


DEN = Noun("repaire", "repaires", "m")
# An export another tool wrote, in its own (the default) words: one group on one line, the
# other on its own lines.
TOOL_EXPORT = (
    "# Bestiaire _Généré le 01/01/2027 à 10:00_ ---\n"
    "## Marais **Description du collège :** Les eaux mortes.\n"
    "### Goule (II) - **Taille :** moyenne Une silhouette grise.\n"
    "## Lande\n\n**Description du collège :** Les hauteurs nues.\n\n"
    "### Loup gris (I) - **Taille :** moyenne Il chasse en meute.\n"
    "--- Fin du fichier\n"
)


def test_an_export_in_the_default_words_reads_the_same_in_the_game_s_words() -> None:
    for group in (DEN, DEFAULT_WORDS.group):
        result = parse_export(TOOL_EXPORT, group=group)
        assert [p.message for p in result.problems if p.severity == "error"] == []
        assert [(c.name, c.description) for c in result.groups] == [
            ("Marais", "Les eaux mortes."),
            ("Lande", "Les hauteurs nues."),
        ]


def test_a_marker_in_words_neither_the_game_s_nor_the_default_is_named_with_its_group() -> None:
    # The site's words before (« culte »), in an export written then: the group's name is
    # quoted as written, not run on into its marker and description, in both forms; in the
    # line-broken one, the marker would otherwise have been kept as the description's text.
    text = TOOL_EXPORT.replace("du collège", "du culte")
    result = parse_export(text, group=DEN)
    errors = [(p.line, p.context, p.message) for p in result.problems if p.severity == "error"]
    said = (
        "marqueur « **Description du culte :** » inconnu : la description d’un repaire suit "
        "« **Description du repaire :** » ou « **Description du collège :** »"
    )
    assert errors == [(2, "Marais", said), (6, "Lande", said)]
    assert [c.description for c in result.groups] == ["Les eaux mortes.", "Les hauteurs nues."]
    report = [p.message for p in export_problems(result, Words(PRAYER, DEN, BOOK))]
    assert f"colonne 11, repaire « Marais » : {said}" in report, report


def test_a_group_without_any_marker_is_quoted_by_its_start() -> None:
    description = "Les eaux mortes où la brume ne se lève jamais, " * 3
    text = TOOL_EXPORT.replace("**Description du collège :** Les eaux mortes.", description)
    result = parse_export(text, group=DEN)
    (problem,) = [p for p in result.problems if p.severity == "error"]
    assert problem.message == (
        "repaire sans marqueur « **Description du repaire :** » ou « **Description du "
        "collège :** » : nom et description indiscernables"
    )
    assert problem.context == "Marais Les eaux mortes où la brume ne se lève jamais, Les…"
    assert len(problem.context or "") <= 61
    # Text before the first group is in no group: none is named (no « ? »).
    early = parse_export(TOOL_EXPORT.replace("## Marais", "Égaré ## Marais"), group=DEN)
    report = [p.message for p in export_problems(early, Words(PRAYER, DEN, BOOK))]
    assert "colonne 1 : texte hors repaire avant le premier repaire" in report, report


@pytest.mark.parametrize(
    ("noun", "every", "my", "kind_one", "kind_many"),
    [
        (DEFAULT_WORDS.entry, "tous les sorts", "mon sort", "de sort", "de sorts"),
        (PRAYER, "toutes les prières", "ma prière", "de prière", "de prières"),
        (Noun("arme", "armes", "f"), "toutes les armes", "mon arme", "d’arme", "d’armes"),
        (Noun("harpe", "harpes", "f"), "toutes les harpes", "ma harpe", "de harpe", "de harpes"),
    ],
)
def test_titles_and_kinds_agree(
    noun: Noun, every: str, my: str, kind_one: str, kind_many: str
) -> None:
    assert (noun.every(), noun.my(), noun.kind(1), noun.kind()) == (every, my, kind_one, kind_many)


PRAYERS = Words(
    PRAYER, Noun("culte", "cultes", "m"), Noun("livre de prières", "livres de prières", "m")
)


def test_what_the_pages_say_of_a_database_is_in_its_words() -> None:
    said = phrases(PRAYERS)
    assert said["search_label"] == "Rechercher une règle ou une prière"
    assert said["search_groups"] == "Culte de prières"
    assert said["index_empty"] == "Aucune prière ne correspond à ces filtres."
    assert said["open_entry"] == "Ouvrir la fiche de la prière"
    assert said["add_named_to_list"] == "Ajouter « {name} » à un livre de prières"
    forbidden = re.compile(r"\b(sorts?|grimoires?|coll[èe]ges?)\b", re.IGNORECASE)
    assert [text for text in said.values() if forbidden.search(text)] == []
    # This site's words: what its pages said before they came from its words.
    assert phrases(DEFAULT_WORDS)["search_hint"] == (
        "Une règle, une section, un sort : tapez quelques lettres."
    )
    assert site_phrases([])["search_label"] == "Rechercher une règle"


def test_the_buttons_and_choices_agree_with_the_words_they_stand_before() -> None:
    # « Toutes (12) » above « Famille », « Nouvelle » beside a list that is a « liste ».
    hunt = Words(Noun("créature", "créatures", "f"), Noun("famille", "familles", "f"), HERB)
    assert (phrases(hunt)["index_group_all"], phrases(hunt)["new_list_button"]) == (
        "Toutes",
        "Nouvelle",
    )
    assert (phrases(PRAYERS)["index_group_all"], phrases(PRAYERS)["new_list_button"]) == (
        "Tous",
        "Nouveau",
    )


def test_the_search_box_of_two_databases_names_both() -> None:
    entries = DatabaseSettings(Path("s.txt"), "s.txt", "magie", "Magie", "Tous les sorts")
    prayers = DatabaseSettings(Path("p.txt"), "p.txt", "foi", "Foi", "Toutes", words=PRAYERS)
    said = site_phrases([entries, prayers])
    assert said["search_label"] == "Rechercher une règle, un sort ou une prière"
    assert said["search_types"] == "Règles, sorts, prières ou pages du site"
    assert said["search_group_any"] == "Collège/culte"
    assert said["search_hint"] == (
        "Une règle, une section, un sort, une prière : tapez quelques lettres."
    )
    assert search_badges([entries, prayers]) == {
        "Sorts": {"entree": "Sort", "groupe": "Collège"},
        "Prières": {"entree": "Prière", "groupe": "Culte"},
    }


def test_the_export_s_mistakes_are_told_in_the_game_s_words() -> None:
    guild = Noun("guilde", "guildes", "f")
    text = (
        "# Prières _Généré le 01/01/2027 à 10:00_ ---\n"
        "### Égarée (I) Avant tout groupe.\n"
        "## Aube **Description de la guilde :** L’aube.\n"
        "### Lueur (I) Une lueur.\n"
        "### Lueur (II) Une autre.\n"
        "### (I) Sans nom.\n"
        "## Vide **Description de la guilde :** Rien.\n"
        "--- Fin du fichier\n"
    )
    result = parse_export(text, group=guild, entry=PRAYER)
    messages = [p.message for p in result.problems]
    assert any("texte hors guilde : prière avant la première guilde" in m for m in messages)
    assert any("prière en double dans la guilde « Aube »" in m for m in messages)
    assert any(m == "nom de prière vide" for m in messages), messages
    assert any(m == "guilde « Vide » sans aucune prière" for m in messages), messages
    assert [m for m in messages if OTHER.search(m)] == [], messages


@pytest.mark.parametrize(
    ("count", "words"),
    [(812, "812 octets"), (1_500, "1,5 Ko"), (231_600, "231,6 Ko"), (20_000_000, "20 Mo"),
     (20_900_000, "20,9 Mo"), (996_800, "996,8 Ko")],
)  # fmt: skip
def test_a_size_in_the_build_log_is_written_the_french_way(count: int, words: str) -> None:
    assert file_size(count) == words


@pytest.mark.parametrize(
    ("seconds", "digits", "words"),
    [(0.0234, 2, "0,02 s"), (1.25, 1, "1,2 s"), (5.0, None, "5 s"), (2.5, None, "2,5 s")],
)
def test_a_time_in_the_build_log_is_written_the_french_way(
    seconds: float, digits: int | None, words: str
) -> None:
    assert duration(seconds, digits) == words


def test_a_hangar_and_other_aspirated_h_are_not_elided() -> None:
    # « Ajouter à l’hangar », « Nouvel hangar » (the adoption of « Astres froids »).
    hangar = Noun("hangar", "hangars", "m")
    assert (hangar.the(), hangar.to(), hangar.new(), hangar.of(2)) == (
        "le hangar",
        "au hangar",
        "nouveau hangar",
        "des hangars",
    )
    assert not elides("hangars") and not elides("Homard géant") and not elides("hiboux")
    assert elides("herbe") and elides("hydre") and elides("hommes")
