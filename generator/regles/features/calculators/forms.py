"""Markdown and HTML made from the rules code: computed tables, reading notes, widget forms."""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from regles.core.markdown_text import markdown_text
from regles.features.calculators.charts import chart_html
from regles.features.calculators.dice_buttons import dice_button
from regles.features.calculators.formatting import exact_value, format_value
from regles.features.calculators.memory import RANDOM_SEED

__all__ = [
    "Followed",
    "Offer",
    "field_offers",
    "markdown_table",
    "note_admonition",
    "start_value",
    "wide_table",
    "widget_form",
]


def _cell(text: str) -> str:
    """A cell's text as Markdown that shows it as written, on one line."""
    return markdown_text(text).replace("|", "\\|").replace("\n", " ")


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table; every cell is text computed by the rules code."""
    lines = [
        "| " + " | ".join(_cell(h) for h in headers) + " |",
        "|" + "|".join(" --- " for _ in headers) + "|",
    ]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


@dataclass(frozen=True)
class Followed:
    """A reader's value a computed table follows (kit's `Follows`), as the page finds it:
    the field's keys in the reader's character (memory.py), for each value the index of its
    column, the value the field starts from (a worked example) and the one it takes for a
    character who has none (its default)."""

    keys: str
    columns: Mapping[int, int]
    start: object
    default: object


def wide_table(markdown: str, key_columns: int = 1, followed: Followed | None = None) -> str:
    """A computed table in a block that the page's script (table-columns.js) narrows on a
    phone it does not fit: its first `key_columns` columns and one other, chosen by the
    reader or by their own value (`followed`)."""
    attrs = f' data-cles="{_attr(key_columns)}"'
    if followed is not None:
        columns = {str(value): column for value, column in followed.columns.items()}
        attrs += (
            f' data-selon="{_attr(followed.keys)}"'
            f' data-depart="{_attr(json.dumps(followed.start))}"'
            f' data-sans-exemple="{_attr(json.dumps(followed.default))}"'
            f' data-colonnes="{_attr(json.dumps(columns, separators=(",", ":")))}"'
        )
    return f'<div class="table-calculee"{attrs} markdown="1">\n\n{markdown}\n\n</div>'


def note_admonition(text: str) -> str:
    """A visible reading note where the source contradicts itself."""
    body = "\n".join("    " + line for line in text.strip().split("\n"))
    return f'!!! info "Note de lecture"\n\n{body}'


def _attr(value: object) -> str:
    return html.escape(str(value), quote=True)


def start_value(spec: Mapping[str, Any]) -> object:
    """What a field of a form starts from: `initial` when the rules give one (a worked
    example), else the value a left-out field gets."""
    return spec["initial"] if spec.get("initial") is not None else spec.get("default")


_DEFAULT = object()  # a field shows its catalogue default unless given a value


def number_text(value: object) -> str:
    """A number as a French reader types it: « 9 » (not « 9.0 »), « 7,5 »."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).replace(".", ",") if isinstance(value, int | float) else str(value)


def _memory_attrs(spec: Mapping[str, Any], keys: str | None) -> str:
    """Where a reader's character keeps the field (memory.py), and the value it takes when
    the character has none for it: its default, not the worked example the form starts
    from (only written when the two differ)."""
    if keys is None:
        return ""
    attrs = f' data-garde="{_attr(keys)}"'
    if spec.get("initial") is not None:
        neutral = json.dumps(spec.get("default"), ensure_ascii=False)
        attrs += f' data-sans-exemple="{_attr(neutral)}"'
    return attrs


def _signed(spec: Mapping[str, Any]) -> bool:
    """Whether a number field may hold a negative value (it has no bound, or one below 0)."""
    return spec.get("min") is None or spec["min"] < 0


def _number_pad(spec: Mapping[str, Any]) -> str:
    """The phone's keyboard for a field that takes numbers (`inputmode`), never its letters:
    « numeric », digits alone, for a whole number that is never negative; « decimal »,
    digits and the decimal comma, for any other number (« 1,5 ») and for a list of numbers
    (the comma separates them). Android's number pads show the minus sign with either;
    iOS's show it with neither, so a signed field gets a « ± » button (_SIGN_BUTTON)."""
    whole = spec.get("type", "text") == "int" and not _signed(spec)
    return f' inputmode="{"numeric" if whole else "decimal"}"'


# Beside a number field that may be negative: changes the sign of what is typed
# (form-values.js), for the phones whose number pad has no minus sign.
_SIGN_BUTTON = (
    '<button type="button" class="saisie-signe" aria-label="Changer le signe de « {label} »"'
    ' title="Changer le signe">±</button>'
)


@dataclass(frozen=True)
class Offer:
    """A value the reader's character keeps for another calculator's field, offered to a
    field (kit's `Field.offered`): where it is kept (memory.py's keys) and that field's
    label, which the offer names (« Force de Mon personnage : 18 »)."""

    keys: str
    label: str


def field_offers(
    entry: Mapping[str, Any],
    catalog: Mapping[str, Mapping[str, Any]],
    memory: Mapping[str, Mapping[str, str]],
) -> dict[str, tuple[Offer, ...]]:
    """The offers of each field of a calculator (by name), from its `offered` fields named
    « calculator.field »; ValueError, in French, for a name that is no field of the site's
    calculators."""
    found: dict[str, tuple[Offer, ...]] = {}
    for spec in entry["inputs"]:
        offers = []
        for named in spec.get("offered", []):
            calc_id, _, name = str(named).partition(".")
            others = [s for s in catalog.get(calc_id, {}).get("inputs", []) if s["name"] == name]
            keys = memory.get(calc_id, {}).get(name)
            if not others or keys is None:
                raise ValueError(
                    f"calculateur « {entry['id']} », champ « {spec['name']} » : il propose "
                    f"« {named} », qui n’est le champ d’aucun calculateur (attendu "
                    "« calculateur.champ »)"
                )
            offers.append(Offer(keys, str(others[0].get("label", name))))
        if offers:
            found[str(spec["name"])] = tuple(offers)
    return found


def _offers_html(offers: Sequence[Offer]) -> str:
    """Where the page (characters.js) offers the character's kept values: hidden until the
    character holds one."""
    data = [{"cles": o.keys, "libelle": o.label} for o in offers]
    described = _attr(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    return f'<p class="champ-offres" data-offres="{described}" hidden></p>'


def _dice_examples_html(expressions: Sequence[str]) -> str:
    """A field's `dice_examples`, as the pages show dice: each rolls at a tap, with its
    chances, whether the rules code has come or not."""
    dice = " ".join(
        f'<span class="champ-de">{dice_button(e, e, with_law=True)}</span>' for e in expressions
    )
    return f'<p class="champ-des"><span class="champ-des-titre">Jets rapides :</span> {dice}</p>'


def _field(
    calc_id: str,
    spec: Mapping[str, Any],
    prefix: str = "",
    value: object = _DEFAULT,
    keys: str | None = None,
    presets: str | None = None,
    offers: Sequence[Offer] = (),
) -> str:
    """One labelled control; its id is unique in the page as each calculator appears once.
    A required field that can be emptied (a number, a text) says so to assistive tools:
    emptied, it gets a message, never a hidden default."""
    name = spec["name"]
    control_id = f"calc-{calc_id}-{prefix}{name}"
    label = _attr(spec.get("label", name))
    kind = spec.get("type", "text")
    default = start_value(spec) if value is _DEFAULT else value  # a list's row: its own
    error_id = f"{control_id}-erreur"
    help_id = f"{control_id}-aide"
    described = f"{help_id} {error_id}" if spec.get("help") else error_id
    # Required, unless empty is a value of its own (a list of numbers whose default is none).
    empty_is_a_value = spec.get("default") in ("", [], ())
    required = spec.get("required", True) and kind not in ("bool", "choice")
    required = required and not empty_is_a_value
    common = (
        f'id="{control_id}" name="{_attr(name)}" data-type="{_attr(kind)}" '
        f'aria-describedby="{described}"'
        + (' aria-required="true"' if required else "")
        + _memory_attrs(spec, keys)
    )
    # A field of a list's row that counts only for some rows (rules.js shows it for them).
    shown_if = spec.get("shown_if")
    holder = (
        f' data-si="{_attr(shown_if["field"])}"'
        f' data-si-valeurs="{_attr(json.dumps(shown_if["values"], ensure_ascii=False))}"'
        if shown_if
        else ""
    )
    help_text = spec.get("help")
    help_html = f'<span class="aide" id="{help_id}">{_attr(help_text)}</span>' if help_text else ""
    sign = ""  # a number field that may be negative: its « ± », after its unit
    if kind == "bool":
        checked = " checked" if default else ""
        control = f'<input type="checkbox" {common}{checked}>'
        label_html = f'<label for="{control_id}">{label}</label>'
        return (
            f'<div class="champ champ-case"{holder}>{control}{label_html}{help_html}'
            f'<span class="erreur" id="{error_id}" aria-live="polite"></span></div>'
        )
    if kind == "choice":
        # An optional choice can be left unsaid: the form sends null, not its first option.
        unsaid = not spec.get("required", True)
        options = (
            '<option value="" data-json="null"'
            + (" selected" if default is None else "")
            + ">Non indiqué</option>"
            if unsaid
            else ""
        ) + "".join(
            f'<option value="{_attr(c["value"])}" data-json="{_attr(json.dumps(c["value"]))}"'
            f"{' selected' if c['value'] == default else ''}>{_attr(c['label'])}</option>"
            for c in spec.get("choices", [])
        )
        control = f"<select {common}>{options}</select>"
    elif kind == "int" and spec.get("choices"):
        # A number chosen by its name (an encumbrance level): the page reads the number.
        options = "".join(
            f'<option value="{_attr(c["value"])}"'
            f"{' selected' if c['value'] == str(default) else ''}>{_attr(c['label'])}</option>"
            for c in spec["choices"]
        )
        control = f"<select {common}>{options}</select>"
    elif kind in ("int", "float"):
        # Text, not type="number": that one reads « 7,5 » by the browser's locale (75, or
        # nothing) and never says so. The page's script reads « 7,5 » and « 7.5 » alike and
        # leaves anything else to the rules' message (rules.js readControl).
        value = "" if default is None else f' value="{_attr(number_text(default))}"'
        control = f'<input type="text"{_number_pad(spec)} autocomplete="off" {common}{value}>'
        sign = _SIGN_BUTTON.format(label=label) if _signed(spec) else ""
    else:
        if kind == "int_list" and isinstance(default, list):
            default = ", ".join(str(v) for v in default)
        value = "" if default is None else f' value="{_attr(default)}"'
        offered = f' list="{presets}"' if presets else ""
        pad = _number_pad(spec) if kind == "int_list" else ""
        control = (
            f'<input type="text"{pad} autocomplete="off" spellcheck="false"{offered} '
            f"{common}{value}>"
        )
    unit = spec.get("unit")
    unit_html = f'<span class="unite">{_attr(unit)}</span>' if unit else ""
    return (
        f'<div class="champ"{holder}><label for="{control_id}">{label}</label>'
        f'<span class="saisie">{control}{unit_html}{sign}</span>{help_html}'
        f"{_dice_examples_html(spec['dice_examples']) if spec.get('dice_examples') else ''}"
        f"{_offers_html(offers) if offers else ''}"
        f'<span class="erreur" id="{error_id}" aria-live="polite"></span></div>'
    )


_REMOVE_ROW = '<button type="button" class="md-button liste-retirer">Retirer</button>'


def _list_field(calc_id: str, spec: Mapping[str, Any], keys: str | None = None) -> str:
    """A repeatable group of fields (e.g. the objects carried): its starting rows are in the
    page, the page's script adds others from the template."""
    name = spec["name"]
    # Its presets are offered by the value of their first text field (an object's name).
    presets = [p for p in spec.get("presets", []) if isinstance(p, Mapping)]
    keyed = next((sub["name"] for sub in spec["fields"] if sub.get("type") == "text"), None)
    offered = f"calc-{calc_id}-{name}-modeles" if presets and keyed else None

    def offer(sub: Mapping[str, Any]) -> str | None:
        return offered if sub["name"] == keyed else None

    template = "".join(
        _field(calc_id, sub, prefix=f"{name}-__i__-", presets=offer(sub)) for sub in spec["fields"]
    )
    starting = start_value(spec)
    records: list[Mapping[str, Any]] = [
        row
        for row in (starting if isinstance(starting, list | tuple) else [])
        if isinstance(row, Mapping)
    ]
    rows = "".join(
        '<div class="liste-ligne">'
        + "".join(
            _field(
                calc_id,
                sub,
                f"{name}-{i}-",
                row.get(sub["name"], sub.get("default")),
                presets=offer(sub),
            )
            for sub in spec["fields"]
        )
        + f"{_REMOVE_ROW}</div>"
        for i, row in enumerate(records)
    )
    default = _attr(json.dumps(starting or [], ensure_ascii=False))
    limit = _attr(spec.get("max_items", 20))
    datalist = ""
    if offered and keyed:
        options = "".join(f'<option value="{_attr(p.get(keyed, ""))}"></option>' for p in presets)
        data = _attr(json.dumps(presets, ensure_ascii=False, separators=(",", ":")))
        datalist = f'<datalist id="{offered}" data-modeles="{data}">{options}</datalist>'
    return (
        f'<fieldset class="liste" data-liste="{_attr(name)}" data-max="{limit}"'
        f' data-defaut="{default}"{_memory_attrs(spec, keys)}>'
        f"<legend>{_attr(spec.get('label', name))}</legend>{datalist}"
        f'<div class="liste-lignes">{rows}</div>'
        f'<template><div class="liste-ligne">{template}{_REMOVE_ROW}</div></template>'
        f'<button type="button" class="md-button liste-ajouter">Ajouter une ligne</button>'
        f'<span class="erreur" id="calc-{calc_id}-{name}-erreur" aria-live="polite"></span>'
        f"</fieldset>"
    )


def _output(
    calc_id: str,
    spec: Mapping[str, Any],
    result: Mapping[str, object] | None,
    main: bool,
    rolled: bool,
) -> str:
    """A labelled result: a value, or a table when the output is a list of records; with the
    value of `result` when there is one (the defaults' result, written at build time). A
    result the dice draw (`rolled`, the catalogue's) is marked, for the page to bring it
    into view when the reader rolls (rules.js)."""
    label = _attr(spec.get("label", spec["name"]))
    name = spec["name"]
    kind = "sortie sortie-principale" if main else "sortie"
    if spec.get("sentence"):
        kind += " sortie-phrase"
    rolled_mark = ' data-tirage=""' if rolled else ""
    chart = spec.get("chart")
    if chart:
        # A law of chances: its bar chart and table (features/calculators/charts.py; the
        # page's script draws the next ones from the catalogue's description kept here).
        drawn = chart_html(chart, result.get(name), result) if result is not None else ""
        described = _attr(json.dumps(chart, ensure_ascii=False, separators=(",", ":")))
        return (
            f'<div class="{kind} sortie-graphique"{rolled_mark}><dt>{label}</dt><dd>'
            f'<div class="graphique-place" data-graphique="{_attr(name)}" '
            f'data-spec="{described}">{drawn}</div></dd></div>'
        )
    if spec.get("columns"):
        keys = [str(c["name"]) for c in spec["columns"]]
        labels = {str(c["name"]): _attr(c["label"]) for c in spec["columns"]}
        headers = "".join(f'<th scope="col" data-cle="{_attr(k)}">{labels[k]}</th>' for k in keys)
        records = result.get(name) if result is not None else None
        # Each cell names its column (data-colonne): on a phone, a row is read as a card.
        body = "".join(
            "<tr>"
            + "".join(
                f'<td data-colonne="{labels[k]}">{_attr(format_value(k, r))}</td>' for k in keys
            )
            + "</tr>"
            for r in (records if isinstance(records, list) else [])
            if isinstance(r, dict)
        )
        return (
            f'<div class="{kind} sortie-table"{rolled_mark}><dt>{label}</dt><dd>'
            f'<table class="calculateur-table" data-sortie="{_attr(name)}">'
            f"<thead><tr>{headers}</tr></thead><tbody>{body}</tbody></table></dd></div>"
        )
    # The unit in a span of its own: withdrawn with the value when an input is refused
    # (regles.css, form[data-sans-resultat]), never « — jours ».
    unit = f'<span class="sortie-unite"> {_attr(spec["unit"])}</span>' if spec.get("unit") else ""
    shown = format_value(name, dict(result)) if result is not None else "–"
    exact = exact_value(name, result) if result is not None else None
    return (
        f'<div class="{kind}"{rolled_mark}><dt>{label}</dt>'
        f'<dd><output name="{_attr(name)}" for="calc-{calc_id}"{_exact_attrs(exact)}>'
        f"{_attr(shown)}</output>{unit}</dd>"
        "</div>"
    )


def _exact_attrs(exact: str | None) -> str:
    """An output's exact value, shown a tap away (regles.css: the output takes the focus and
    shows it after its value), and said as its title."""
    if exact is None:
        return ""
    return f' data-exacte="{_attr(exact)}" tabindex="0" title="Valeur exacte : {_attr(exact)}"'


def _summary(entry: Mapping[str, Any], result: Mapping[str, object] | None) -> str:
    """The headline results on one line, kept at the bottom of the screen by the page while
    the form's fields are edited and its results are out of view (its script shows it)."""
    specs = {str(o["name"]): o for o in entry.get("outputs", [])}
    parts = []
    for name in entry.get("headline", []):
        spec = specs[name]
        shown = format_value(name, dict(result)) if result is not None else "–"
        parts.append(
            f'<span class="calculateur-resume__valeur" data-sortie="{_attr(name)}">'
            f"{_attr(spec.get('label', name))} : <b>{_attr(shown)}</b></span>"
        )
    return f'<p class="calculateur-resume" aria-hidden="true" hidden>{"".join(parts)}</p>'


# Run as soon as its form is parsed (window.rules.fold is defined in the page's head,
# main.html): a form that starts more than two screens down is shown folded, its title and
# description only, until the reader comes near it. A page of sixteen calculators then does
# not lay out and restyle a thousand controls while it loads, and a form on the first screens
# is whole from the first paint (unfolding it later would shift the text under it).
FOLD_SCRIPT = "<script>window.rules&&rules.fold(document.currentScript)</script>"


def widget_form(
    entry: Mapping[str, Any],
    result: Mapping[str, object] | None = None,
    memory: Mapping[str, str] | None = None,
    offers: Mapping[str, Sequence[Offer]] | None = None,
) -> str:
    """The form of one calculator, generated from its catalogue entry (never by hand); with
    `result`, the outputs for its default inputs, the form is whole before any script runs:
    the outputs that are a draw of the dice (`rolled`) wait for the reader to roll. `memory`
    names where a reader's character keeps each field (memory.py); without it, nothing is
    kept. `offers` (field_offers) names, by field, the values of the character's other
    fields it is offered."""
    calc_id = entry["id"]
    keys = memory or {}
    offered = offers or {}
    fields = "".join(
        _list_field(calc_id, spec, keys.get(spec["name"]))
        if spec.get("type") == "list"
        else _field(
            calc_id, spec, keys=keys.get(spec["name"]), offers=offered.get(spec["name"], ())
        )
        for spec in entry["inputs"]
        if spec["name"] != RANDOM_SEED
    )
    rolled = set(entry.get("rolled", []))
    shown = (
        {
            k: v
            for k, v in result.items()
            if k not in rolled and k.removesuffix("_exact") not in rolled
        }
        if result is not None
        else None
    )
    headline = list(entry.get("headline", []))
    specs = sorted(
        entry.get("outputs", []),
        key=lambda o: headline.index(o["name"]) if o["name"] in headline else len(headline),
    )
    outputs = "".join(
        _output(calc_id, o, shown, o["name"] in headline, o["name"] in rolled) for o in specs
    )
    rolls = any(spec["name"] == RANDOM_SEED for spec in entry["inputs"])
    roll_button = (
        '<button type="button" class="md-button md-button--primary calculateur-lancer">'
        "Lancer</button>"
        if rolls
        else ""
    )
    description = entry.get("description", "")
    if result is None:
        state = "Ce calculateur a besoin de JavaScript."
    else:
        state = "Résultat des valeurs ci-dessus. En changer demande JavaScript."
    marked = ' data-resultat="defaut"' if result is not None else ""
    return (
        f'<form class="calculateur" id="calc-{calc_id}" data-calculateur="{_attr(calc_id)}" '
        f'novalidate markdown="0" aria-labelledby="calc-{calc_id}-titre"{marked}>'
        f'<p class="calculateur-titre" id="calc-{calc_id}-titre">{_attr(entry["title"])}</p>'
        f'<p class="calculateur-description">{_attr(description)}</p>'
        f'<div class="calculateur-corps"><div class="calculateur-champs">{fields}</div>'
        f"{_summary(entry, shown)}"
        f'{roll_button}<dl class="calculateur-resultats" aria-live="polite">{outputs}</dl></div>'
        f'<p class="calculateur-etat" role="status">{state}</p>'
        f"</form>{FOLD_SCRIPT}"
    )
