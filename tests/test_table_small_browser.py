"""The smaller things a player met at the table (issue 42), on a 360×800 phone with touch, in
Chromium, on the test site: the number fields' pad and sign, the character's Force offered
to the ability calculator, the list's « + » that says an entry is in the current list, the
« Retour en haut de la page » that covers no text, and a reader's list printed without the
screen's reminder."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TOOLS = "outils/"  # every calculator of the test site
INDEX = "sorts/index-des-sorts/"  # its database's index (tests/site/mkdocs.yml)
GROUP = "sorts/acoustique/"
LISTS = "sorts/grimoire/"
LONG_PAGE = "jeu/combat/"
CHARACTERS_KEY = "regles-personnages:/"  # characters.js, the site served at the root
LISTS_KEY = "regles-lists:/"  # kept-lists.js


def characters(page: Any) -> Any:
    return json.loads(page.evaluate("k => localStorage.getItem(k)", CHARACTERS_KEY) or "null")


def kept_values(page: Any) -> dict[str, Any]:
    """The current character's kept values."""
    store = characters(page)
    (current,) = [c for c in store["characters"] if c["name"] == store["current"]]
    return dict(current["values"])


def open_form(page: Any, calc_id: str) -> Any:
    """A calculator's form, brought on screen and unfolded (rules.js unfolds a form the
    reader comes near)."""
    form = page.locator(f"form#calc-{calc_id}")
    form.scroll_into_view_if_needed()
    expect(form.locator(".calculateur-corps")).to_be_visible()
    expect(form.locator(".calculateur-personnage")).to_be_attached()  # set up by rules.js
    return form


def test_number_fields_have_a_number_pad_and_the_characters_force_is_offered(
    phone: Any, site_url: str
) -> None:
    store = {"version": 1, "current": "Aldric", "characters": [{"name": "Aldric", "values": {}}]}
    store["characters"][0]["values"] = {"charge.strength": "16"}
    phone.add_init_script(
        f"if (!sessionStorage.getItem('vu')) {{ sessionStorage.setItem('vu', '1');"
        f" localStorage.setItem({json.dumps(CHARACTERS_KEY)}, {json.dumps(json.dumps(store))}); }}"
    )
    page = phone.new_page()
    page.goto(site_url + TOOLS)

    # A signed modifier (-10 to 20): the pad with digits, and a « ± » for the minus sign
    # that iOS's pads lack; a DD (1 to 40): digits alone.
    chance = open_form(page, "chance")
    modifier = chance.locator("input[name=modifier]")
    assert modifier.get_attribute("inputmode") == "decimal"
    assert chance.locator("input[name=target]").get_attribute("inputmode") == "numeric"
    assert chance.locator("input[name=target] ~ .saisie-signe").count() == 0
    sign = chance.get_by_role("button", name="Changer le signe de « Modificateur total »")
    modifier.fill("3")
    sign.tap()
    expect(modifier).to_have_value("-3")
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('regles-personnages:/'))"
        ".characters[0].values['chance.modifier'] === '-3'"
    )
    sign.tap()
    expect(modifier).to_have_value("3")
    # A decimal field keeps its comma: « 1,5 » as typed, on the pad that has the comma.
    movement = open_form(page, "deplacement")
    speed = movement.locator("input[name=speed_m]")
    assert speed.get_attribute("inputmode") == "decimal"
    speed.fill("1,5")
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('regles-personnages:/'))"
        ".characters[0].values['deplacement.speed_m'] === '1,5'"
    )
    expect(speed).to_have_value("1,5")

    # The ability calculator asks for a score: the Force the character keeps for the
    # carrying calculator is offered, a tap away, and taken as typed (and kept).
    ability = open_form(page, "modificateur")
    score = ability.locator("input[name=score]")
    offer = ability.locator(".champ-offres button")
    expect(offer).to_have_text("Force de votre personnage\u00a0: 16")
    offer.tap()
    expect(score).to_have_value("16")
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('regles-personnages:/'))"
        ".characters[0].values['modificateur.score'] === '16'"
    )
    # The Force changed in the carrying calculator: the offer follows.
    carrying = open_form(page, "charge")
    carrying.locator("input[name=strength]").fill("12")
    expect(offer).to_have_text("Force de votre personnage\u00a0: 12")
    # A character without a Force is offered nothing.
    page.evaluate(
        "k => { const s = JSON.parse(localStorage.getItem(k)); s.characters[0].values = {};"
        " localStorage.setItem(k, JSON.stringify(s)); }",
        CHARACTERS_KEY,
    )
    page.reload()
    ability = open_form(page, "modificateur")
    expect(ability.locator(".champ-offres")).to_be_hidden()
    assert kept_values(page) == {}


def lists_of(entries: list[dict[str, str]]) -> str:
    return json.dumps(
        {"version": 2, "last": "Aldric", "lists": [{"name": "Aldric", "entries": entries}]}
    )


def test_the_lists_plus_says_an_entry_is_in_the_current_list_and_paper_leaves_the_reminder(
    phone: Any, site_url: str
) -> None:
    page = phone.new_page()
    page.goto(site_url + INDEX)
    rows = page.locator("#entry-table tbody tr")
    first, other = (
        rows.nth(0).locator("button.list-add"),
        rows.nth(1).locator("button.list-add"),
    )
    name = rows.nth(0).locator("td:first-child a").inner_text().strip()
    expect(first).to_have_accessible_name(re.compile(f"^Ajouter « {re.escape(name)} »"))
    first.tap()
    dialog = page.locator("dialog.list-dialog[open]")
    dialog.locator("#list-dialog-name").fill("Aldric")
    dialog.locator("button[value=ajouter]").tap()
    expect(dialog).to_have_count(0)
    # In the list: a tick, and its name says so first (then what a tap still does).
    expect(first).to_have_accessible_name(
        re.compile(f"^Dans « Aldric »\\. Ajouter « {re.escape(name)} »")
    )
    expect(first).to_have_class(re.compile("list-add--in"))
    assert first.evaluate("b => getComputedStyle(b, '::before').content") == '"✓"'
    expect(other).not_to_have_class(re.compile("list-add--in"))
    expect(other).not_to_have_accessible_name(re.compile("Dans"))
    kept = json.loads(page.evaluate("k => localStorage.getItem(k)", LISTS_KEY))
    (entry,) = kept["lists"][0]["entries"]

    # Taken out of the list in another tab: this one's « + » says so at once.
    other_tab = phone.new_page()
    other_tab.goto(site_url + LISTS)
    other_tab.evaluate("([k, v]) => localStorage.setItem(k, v)", [LISTS_KEY, lists_of([])])
    expect(first).not_to_have_class(re.compile("list-add--in"))
    expect(first).to_have_accessible_name(re.compile(f"^Ajouter « {re.escape(name)} »"))
    other_tab.close()

    # A college page's button with words says the list's name.
    blast = {
        "id": "",
        "url": "sorts/acoustique/#blast-sonore",
        "name": "Blast sonore",
        "group": "",
    }
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [LISTS_KEY, lists_of([entry, blast])])
    page.goto(site_url + GROUP)
    button = page.locator("h2#blast-sonore + p.niveaux button.list-add")
    expect(button).to_have_text("Dans « Aldric »")
    expect(button).to_have_accessible_name(
        re.compile("^Dans « Aldric »\\. Ajouter « Blast sonore »")
    )

    # The list's page: the reminder to save is for the screen, not for paper.
    page.goto(site_url + LISTS)
    page.wait_for_selector("#reader-lists.reader-lists--with-entries[data-list-ready]")
    reminder = page.locator(".list-reminder")
    expect(reminder).to_be_visible()
    page.emulate_media(media="print")
    expect(reminder).to_be_hidden()
    expect(page.locator(".list-print-title")).to_be_visible()


# The visible text under a box, leaving out what something else covers already (the header
# over the page's text): each text node's boxes, clipped by its element (a title cut with
# « … »), met where the topmost element but `box` is that text's.
TEXT_UNDER = """(box) => {
  const b = box.getBoundingClientRect();
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.data.trim() || !parent || box.contains(node)) continue;
    if (!parent.checkVisibility({ opacityProperty: true, visibilityProperty: true,
        checkOpacity: true, checkVisibilityCSS: true })) continue;
    const clip = parent.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      const left = Math.max(r.left, clip.left, b.left);
      const right = Math.min(r.right, clip.right, b.right);
      const top = Math.max(r.top, clip.top, b.top);
      const bottom = Math.min(r.bottom, clip.bottom, b.bottom);
      if (right - left < 1 || bottom - top < 1) continue;
      const hit = document.elementsFromPoint((left + right) / 2, (top + bottom) / 2)
        .find((e) => e !== box && !box.contains(e));
      if (hit && (hit === parent || parent.contains(hit) || hit.contains(parent))) {
        found.push(node.data.trim().slice(0, 40));
        break;
      }
    }
  }
  return found;
}"""

# Scrolls up a little at a time until Material shows its button (as the page scrolls up),
# its fade done.
SCROLL_UP_UNTIL_SHOWN = """() => {
  const top = document.querySelector('.md-top');
  if (top && !top.hidden && getComputedStyle(top).opacity === '1') return true;
  scrollBy(0, -40);
  return false;
}"""


def test_back_to_top_covers_no_text_on_a_phone(phone: Any, site_url: str) -> None:
    page = phone.new_page()
    page.goto(site_url + LONG_PAGE)
    title = page.locator(".md-header__title")
    # Mid-page, then at its end (where the footer is).
    for down in (3000, 100_000):
        at = page.evaluate(
            "y => { scrollTo(0, y);"
            " return Math.min(y, document.documentElement.scrollHeight - innerHeight); }",
            down,
        )
        page.wait_for_function("y => Math.abs(scrollY - y) < 2", arg=at)
        page.wait_for_function(SCROLL_UP_UNTIL_SHOWN, polling=100)
        button = page.locator(".md-top")
        expect(button).to_have_accessible_name("Retour en haut de la page")
        assert page.evaluate(TEXT_UNDER, button.element_handle()) == []
        # Under it: the header, never the page's text; the page's title still shows.
        under = page.evaluate(
            """(box) => { const b = box.getBoundingClientRect();
              return document.elementsFromPoint(b.x + b.width / 2, b.y + b.height / 2)
                .find((e) => e !== box && !box.contains(e)).closest('.md-header') !== null; }""",
            button.element_handle(),
        )
        assert under
        assert title.bounding_box()["width"] > 100  # type: ignore[index]
        box = button.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44  # a thumb's
    # Tapped, it takes the reader to the top of the page.
    page.wait_for_function(SCROLL_UP_UNTIL_SHOWN, polling=100)
    button.tap()
    page.wait_for_function("() => scrollY === 0")
