"""The dice of the texts in Chromium, on a phone (360×800, touch) and a desktop: a tap rolls
one and opens its tray beside it (assets/js/dice.js): the roll's number, its total, each die,
the modifiers, then the earlier rolls of the session, newest first, kept in sessionStorage
across instant navigation and a reload. A d20 rolls with advantage or disadvantage in one tap,
said in words; a roll never moves the words around the dice; a die the build wrote rolls at
once, offline and before Python; another works offline once Python is there, and says in
French when it cannot roll."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from regles.features.calculators.formatting import format_number, format_percent
from regles.kit.generic import rules
from tests.conftest import (
    RULES_RUNTIME,
    is_the_marked_document,
    mark_the_document,
    requests_of,
    retype,
    wait_for_page,
    wait_for_python,
    wait_for_still_scroll,
    wait_past_python_start,
)
from tests.test_axe_browser import axe_on_parts, axe_source

pytestmark = [pytest.mark.browser, pytest.mark.python]

PAGE = "jeu/degats-et-soins/"
# Dice the test site's pages do not have, added to that page as the build writes them
# (features/calculators/dice_buttons.py): an attack with its modifier, many dice, and a die
# of one face, whose every roll gives the same total.
EXTRA = (
    '<p id="des-essai">Attaque : <button type="button" class="de" data-de="1d20+5" '
    'title="Lancer 1d20+5">1d20+5</button> au toucher, puis <button type="button" '
    'class="de" data-de="20d6" title="Lancer 20d6">20d6</button> de feu, ou encore '
    '<button type="button" class="de" data-de="1d1+2" title="Lancer 1d1+2">1d1+2</button> '
    'points de rien du tout, voire <button type="button" class="de" data-de="200d6" '
    'title="Lancer 200d6">200d6</button>.</p>'
)
LOG_KEY = "regles-jets:/"
TRAY = ".de-pop"
OPEN = "() => document.querySelector('.de-pop')?.matches(':popover-open') === true"
CLOSED = "() => !document.querySelector('.de-pop')?.matches(':popover-open')"
# The entries the tray shows, top to bottom: the roll just made, then the earlier ones.
ENTRIES = """(tray) => [...tray.querySelectorAll(".de-jet")].map((entry) => ({
    n: Number(entry.dataset.n),
    text: entry.innerText,
    faces: [...entry.querySelectorAll(".de-face")].map((face) => ({
        value: Number(face.textContent), dropped: face.classList.contains("de-ecarte")})),
}))"""


def with_extra_dice(context: Any) -> None:
    def add(route: Any) -> None:
        response = route.fetch()
        body = response.text().replace("</h1>", "</h1>" + EXTRA, 1)
        route.fulfill(response=response, body=body)

    context.route(f"**/{PAGE}", add)


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport={"width": 360, "height": 800}, has_touch=True, is_mobile=True
    )
    with_extra_dice(context)
    yield context
    context.close()


def dice(page: Any, expression: str) -> Any:
    return page.locator(f"#des-essai button.de[data-de='{expression}']")


def badge(page: Any, expression: str) -> Any:
    """The last total of a dice, after it."""
    return page.locator(f"#des-essai button.de[data-de='{expression}'] ~ output.de-resultat").first


def opened(context: Any, site_url: str) -> Any:
    page = context.new_page()
    page.goto(site_url + PAGE)
    badge(page, "1d1+2").wait_for(state="attached")  # the dice are set up
    return page


def roll(page: Any, button: Any, number: int) -> list[dict[str, Any]]:
    """Taps `button` (a dice or a button of the tray): the tray's entries once it shows
    roll number `number` at its top."""
    if page.evaluate(OPEN) and not button.evaluate("(b) => Boolean(b.closest('.de-pop'))"):
        page.keyboard.press("Escape")  # as a reader closes it to reach a dice it covers
        page.wait_for_function(CLOSED)
    button.tap()
    tray = page.locator(TRAY)
    try:
        tray.locator(f".de-jet-courant[data-n='{number}']").wait_for(timeout=60_000)
    except PlaywrightError:
        # What the reader would see instead: the tray's words (an error?), the address.
        shown = tray.inner_text(timeout=1_000) if tray.count() == 1 else f"{tray.count()} plateaux"
        pytest.fail(f"pas de jet n° {number} : {shown!r} sur {page.url}")
    entries: list[dict[str, Any]] = tray.evaluate(ENTRIES)
    return entries


def total_of(entry: dict[str, Any]) -> int:
    first = entry["text"].strip().splitlines()[0]
    return int(first.replace("\u202f", "").replace("\u2212", "-"))


def words_of(entry: dict[str, Any]) -> str:
    """An earlier roll's line and its dice in words (« n° 2 1d20+5 : 19 », « d20 : 14 · +5 »),
    spaces made plain."""
    return re.sub(r"[\s\u00a0\u202f]+", " ", entry["text"]).strip()


def test_each_roll_is_logged_newest_first_with_its_dice(phone: Any, site_url: str) -> None:
    page = opened(phone, site_url)
    attack = dice(page, "1d20+5")
    for number in (1, 2, 3):
        entries = roll(page, attack, number)
    assert [e["n"] for e in entries] == [3, 2, 1]
    current, *earlier = entries
    # The roll just made: its die, and its total in large type, the die plus 5.
    assert len(current["faces"]) == 1 and not current["faces"][0]["dropped"]
    face = current["faces"][0]["value"]
    assert 1 <= face <= 20 and total_of(current) == face + 5
    tray = page.locator(TRAY)
    assert tray.locator(".de-jet-titre").inner_text() == "Jet n°\u00a03 · 1d20+5"
    assert "+5" in current["text"]
    # The earlier ones: their number, expression, total, die and modifier, in words.
    for entry, number in zip(earlier, (2, 1), strict=True):
        line = words_of(entry)
        found = re.fullmatch(r"n° (\d) 1d20\+5 : (\d+) d20 : (\d+) · \+5", line)
        assert found, line
        assert int(found[1]) == number and int(found[2]) == int(found[3]) + 5
    # The badge after the dice holds the last total, with its roll's number.
    assert badge(page, "1d20+5").inner_text() == str(total_of(current))
    assert badge(page, "1d20+5").get_attribute("data-jet") == "3"
    # The screen reader hears the roll: its number, expression, total and die.
    announce = tray.locator(".de-annonce")
    assert announce.get_attribute("aria-live") == "polite"
    assert announce.text_content() == (
        f"Jet n°\u00a03, 1d20+5 : {total_of(current)}. d20 : {face} · +5"
    )
    # No notation of the dice calculator, no bracket.
    assert not re.search(r"kh|kl|\[|\]|\(", tray.inner_text())


def test_a_reroll_is_a_new_roll_even_with_the_same_total(phone: Any, site_url: str) -> None:
    page = opened(phone, site_url)
    one_face = dice(page, "1d1+2")
    tray = page.locator(TRAY)
    first = roll(page, one_face, 1)
    again = roll(page, tray.get_by_role("button", name="Relancer"), 2)
    third = roll(page, tray.get_by_role("button", name="Relancer"), 3)
    # The same total each time (a die of one face), yet each roll has its own number.
    assert [total_of(e[0]) for e in (first, again, third)] == [3, 3, 3]
    assert [e["n"] for e in third] == [3, 2, 1]
    assert tray.locator(".de-jet-titre").inner_text().startswith("Jet n°\u00a03")
    assert "Jet n°\u00a03" in (tray.locator(".de-annonce").text_content() or "")
    assert badge(page, "1d1+2").get_attribute("data-jet") == "3"
    # A brief highlight marks the new roll.
    current = tray.locator(".de-jet-courant")
    assert current.evaluate("(c) => getComputedStyle(c).animationName") == "de-nouveau"
    # No d20, no advantage.
    assert tray.get_by_role("button", name="Avec avantage").count() == 0
    # « Fermer » closes the tray, a tap outside too.
    tray.get_by_role("button", name="Fermer").tap()
    page.wait_for_function(CLOSED)
    assert one_face.get_attribute("aria-expanded") == "false"
    roll(page, one_face, 4)
    assert one_face.get_attribute("aria-expanded") == "true"
    page.locator("h1").first.tap()
    page.wait_for_function(CLOSED)
    assert one_face.get_attribute("aria-expanded") == "false"


def test_reduced_motion_gets_no_highlight(browser: Any, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 800}, reduced_motion="reduce")
    with_extra_dice(context)
    page = opened(context, site_url)
    page.locator("#des-essai button.de[data-de='1d1+2']").click()
    current = page.locator(".de-pop .de-jet-courant[data-n='1']")
    current.wait_for(timeout=60_000)
    assert "de-nouveau" in (current.get_attribute("class") or "")
    assert current.evaluate("(c) => getComputedStyle(c).animationName") == "none"
    context.close()


LINE = """(button) => {
    const output = button.nextElementSibling.nextElementSibling;
    const after = document.createRange();
    after.selectNodeContents(output.parentElement.nextSibling);  // the words after the dice
    const box = (r) =>
        [r.x + scrollX, r.y + scrollY, r.width, r.height].map((v) => Math.round(v * 100) / 100);
    return {
        output: output.matches("output.de-resultat"),
        dice: box(button.getBoundingClientRect()),
        chances: box(button.nextElementSibling.getBoundingClientRect()),
        after: [...after.getClientRects()].map(box),
        paragraph: box(button.closest("p").getBoundingClientRect()),
    };
}"""


@pytest.mark.parametrize("expression", ["1d20+5", "20d6"])
def test_rolling_never_moves_the_words_around_the_dice(
    phone: Any, site_url: str, expression: str
) -> None:
    page = opened(phone, site_url)
    button = dice(page, expression)
    button.scroll_into_view_if_needed()
    before = button.evaluate(LINE)
    assert before["output"] and before["after"]
    rolled = roll(page, button, 1)
    page.keyboard.press("Escape")
    page.wait_for_function(CLOSED)
    # The badge shows the total, and nothing around it moved.
    shown = badge(page, expression)
    assert shown.is_visible() and shown.inner_text() == str(total_of(rolled[0]))
    assert button.evaluate(LINE) == before
    # Nor with a longer total.
    roll(page, button, 2)
    page.keyboard.press("Escape")
    page.wait_for_function(CLOSED)
    assert button.evaluate(LINE) == before


def test_a_dice_in_a_narrow_cell_keeps_its_chances_on_its_line(phone: Any, site_url: str) -> None:
    # « Évanouissement pendant 1d6 rounds », in a column a third of a phone wide: the line
    # breaks before the dice, never between it and its « Chances ».
    page = phone.new_page()
    page.goto(site_url + "lankhmar/epees-et-pmt/")
    page.locator("td button.de-chances").first.wait_for(state="attached")
    lines = page.evaluate(
        """() => [...document.querySelectorAll('td button.de')].map((dice) => {
            const chances = dice.parentElement.querySelector('button.de-chances');
            const [a, b] = [dice, chances].map((e) => e.getBoundingClientRect());
            const gap = Math.abs(a.top + a.height / 2 - (b.top + b.height / 2));
            return [dice.closest('tr').rowIndex, gap];
        })"""
    )
    assert len(lines) >= 5
    assert [row for row, gap in lines if gap > 4] == []


def test_a_d20_rolls_with_advantage_or_disadvantage_in_words(phone: Any, site_url: str) -> None:
    page = opened(phone, site_url)
    tray = page.locator(TRAY)
    roll(page, dice(page, "1d20+5"), 1)
    for number, name, mode, keep in (
        (2, "Avec avantage", "avec avantage", max),
        (3, "Avec désavantage", "avec désavantage", min),
    ):
        current = roll(page, tray.get_by_role("button", name=name), number)[0]
        assert tray.locator(".de-jet-titre").inner_text() == f"Jet n°\u00a0{number} · 1d20+5 {mode}"
        faces = current["faces"]
        assert len(faces) == 2, current
        values = [f["value"] for f in faces]
        kept = [f["value"] for f in faces if not f["dropped"]]
        assert len(kept) == 1 and kept[0] == keep(values)
        assert total_of(current) == keep(values) + 5
        said = tray.locator(".de-annonce").text_content() or ""
        assert f"d20 : {values[0]} et {values[1]}, garde {kept[0]} · +5" in said, said
        text = tray.inner_text()
        assert not re.search(r"kh|kl|\[|\]", text), text
    earlier = tray.evaluate(ENTRIES)[1:]
    assert re.fullmatch(
        r"n° 2 1d20\+5 avec avantage : \d+ d20 : \d+ et \d+, garde \d+ · \+5", words_of(earlier[0])
    ), earlier[0]
    # 20d6 has no d20: no advantage offered.
    roll(page, dice(page, "20d6"), 4)
    assert tray.get_by_role("button", name="Relancer").is_visible()
    assert not tray.get_by_role("button", name="Avec avantage").is_visible()


def test_twenty_dice_are_listed_within_the_tray(phone: Any, site_url: str) -> None:
    page = opened(phone, site_url)
    current = roll(page, dice(page, "20d6"), 1)[0]
    values = [f["value"] for f in current["faces"]]
    assert len(values) == 20 and all(1 <= v <= 6 for v in values)
    assert total_of(current) == sum(values)
    tray = page.locator(TRAY)
    box = tray.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert box["y"] >= 0 and box["y"] + box["height"] <= 800
    assert tray.evaluate("(t) => t.scrollWidth <= t.clientWidth")
    for face in tray.locator(".de-jet-courant .de-face").all():
        inner = face.bounding_box()
        assert (
            inner
            and box["x"] <= inner["x"]
            and inner["x"] + inner["width"] <= box["x"] + box["width"]
        )
        assert inner["height"] >= 16  # readable
    # In words for the screen reader, the last two joined by « et ».
    said = tray.locator(".de-annonce").text_content() or ""
    listed = ", ".join(map(str, values[:-1])) + f" et {values[-1]}"
    assert said.endswith(f"d6 : {listed}"), said


def test_the_log_outlives_instant_navigation_and_a_reload(phone: Any, site_url: str) -> None:
    page = opened(phone, site_url)
    roll(page, dice(page, "1d20+5"), 1)
    page.keyboard.press("Escape")
    page.wait_for_function(CLOSED)
    mark_the_document(page)
    page.locator("article a[href$='/jeu/glossaire/']").first.tap()
    wait_for_page(page, "/jeu/glossaire/")
    page.go_back()
    wait_for_page(page, f"/{PAGE}")
    badge(page, "20d6").wait_for(state="attached")
    assert is_the_marked_document(page)  # instant navigation, no reload
    wait_for_still_scroll(page)  # where it was left: Material scrolls back there
    entries = roll(page, dice(page, "20d6"), 2)
    assert [e["n"] for e in entries] == [2, 1]
    assert words_of(entries[1]).startswith("n° 1 1d20+5 : ")
    page.reload()
    badge(page, "1d1+2").wait_for(state="attached")
    entries = roll(page, dice(page, "1d1+2"), 3)
    assert [e["n"] for e in entries] == [3, 2, 1]
    assert words_of(entries[1]).startswith("n° 2 20d6 : ")
    stored = json.loads(page.evaluate(f"sessionStorage.getItem('{LOG_KEY}')"))
    assert [e["n"] for e in stored["jets"]] == [3, 2, 1]


def test_a_damaged_log_is_set_aside_and_the_log_is_kept_short(phone: Any, site_url: str) -> None:
    page = opened(phone, site_url)
    page.evaluate(f"sessionStorage.setItem('{LOG_KEY}', '{{oups')")
    assert [e["n"] for e in roll(page, dice(page, "1d1+2"), 1)] == [1]
    # An entry this page cannot read is left out, the others kept.
    good = {
        "n": 7,
        "expression": "1d20+5",
        "mode": "advantage",
        "total": 19,
        "terms": [
            {"term": "+2d20kh1", "dice": [14, 7], "kept": [True, False], "value": 14},
            {"term": "+5", "dice": [], "kept": [], "value": 5},
        ],
    }
    bad = {"n": 8, "expression": "<img>", "mode": "triche", "total": "beaucoup"}
    page.evaluate(
        "([key, value]) => sessionStorage.setItem(key, value)",
        [LOG_KEY, json.dumps({"n": 8, "jets": [bad, good, "rien", None]})],
    )
    entries = roll(page, dice(page, "1d1+2"), 9)
    assert [e["n"] for e in entries] == [9, 7]
    assert words_of(entries[1]) == "n° 7 1d20+5 avec avantage : 19 d20 : 14 et 7, garde 14 · +5"
    # At most 50 rolls are kept, the newest.
    many = [dict(good, n=n) for n in range(100, 40, -1)]
    page.evaluate(
        "([key, value]) => sessionStorage.setItem(key, value)",
        [LOG_KEY, json.dumps({"n": 100, "jets": many})],
    )
    entries = roll(page, dice(page, "1d1+2"), 101)
    assert [e["n"] for e in entries] == list(range(101, 51, -1))
    stored = json.loads(page.evaluate(f"sessionStorage.getItem('{LOG_KEY}')"))
    assert len(stored["jets"]) == 50


def test_a_roll_works_offline_once_python_is_there(phone: Any, site_url: str) -> None:
    page = opened(phone, site_url)
    wait_for_python(page)
    phone.set_offline(True)
    try:
        entries = roll(page, dice(page, "1d20+5"), 1)
        assert 6 <= total_of(entries[0]) <= 25
        stored = json.loads(page.evaluate(f"sessionStorage.getItem('{LOG_KEY}')"))
        assert [e["n"] for e in stored["jets"]] == [1]
    finally:
        phone.set_offline(False)


def test_a_die_of_the_texts_rolls_at_once_without_python(phone: Any, site_url: str) -> None:
    # Python's files never came and the link is down: a die the build wrote, with its terms
    # (dice_buttons.py), rolls all the same, with advantage too (dice-roll.js).
    phone.route(RULES_RUNTIME, lambda route: route.abort("internetdisconnected"))
    page = opened(phone, site_url)
    phone.set_offline(True)
    try:
        die = page.locator("article button.de[data-de='1d20'][data-de-termes]").first
        entries = roll(page, die, 1)
        assert 1 <= total_of(entries[0]) <= 20
        advantage = page.locator(TRAY).get_by_role("button", name="Avec avantage")
        entries = roll(page, advantage, 2)
        faces = entries[0]["faces"]
        assert len(faces) == 2 and [f["dropped"] for f in faces].count(True) == 1, faces
        assert total_of(entries[0]) == max(f["value"] for f in faces)
        assert words_of(entries[0]).endswith(f"garde {total_of(entries[0])}")
        stored = json.loads(page.evaluate(f"sessionStorage.getItem('{LOG_KEY}')"))
        assert [e["n"] for e in stored["jets"]] == [2, 1]
    finally:
        phone.set_offline(False)


def test_the_dice_calculator_answers_a_typed_expression_without_python(
    phone: Any, site_url: str
) -> None:
    # Python's files never came and the link is down: the dice calculator answers what is
    # typed all the same (dice-calculator.js, the kit's twin): its roll, its law, the kit's
    # words for a mistake; and its examples, dice as the pages write them, roll and show
    # their chances (kit/dice.py's dice_examples).
    phone.route(RULES_RUNTIME, lambda route: route.abort("internetdisconnected"))
    page = phone.new_page()
    page.goto(site_url + "outils/")
    form = page.locator("#calc-dice")
    examples = form.locator(".champ-des")
    examples.locator("button.de[data-de='2d6+3'] ~ output.de-resultat").wait_for(state="attached")
    phone.set_offline(True)
    try:
        field = page.locator("#calc-dice-expression")
        retype(page, field, "3d8kh2+1")
        page.locator("#calc-dice-target").tap()
        page.keyboard.type("12")
        # As the kit gives them: a mean of 383/32, a chance of 75/128.
        kit = rules.run("dice", {"expression": "3d8kh2+1", "target": 12})
        expect(form.locator("output[name=mean]")).to_have_text(format_number(kit["mean"]))
        expect(form.locator("output[name=p_at_least]")).to_have_text(
            format_percent(kit["p_at_least"])
        )
        expect(form.locator(".graphique-chance")).to_contain_text("d’obtenir au moins 12")
        # A threshold with a decimal comma: the kit's words at its field, as Python says them.
        target = page.locator("#calc-dice-target")
        target.press("Backspace")
        target.press("Backspace")
        page.keyboard.type("7,5")
        target_error = form.locator(".champ:has(#calc-dice-target) .erreur")
        expect(target_error).to_have_text("La valeur doit être un nombre entier.")
        for _ in "7,5":
            target.press("Backspace")
        page.keyboard.type("12")
        expect(target_error).to_have_text("")
        expect(form.locator("output[name=mean]")).to_have_text(format_number(kit["mean"]))
        state = form.locator(".calculateur-etat")
        assert "hors ligne" not in state.inner_text()
        # Its roll, at a tap of « Lancer »: three dice, the lowest set aside.
        form.locator(".calculateur-lancer").tap()
        rolled = form.locator("output[name=roll_text]")
        expect(rolled).to_have_text(re.compile(r"^\[(\(?\d\)?, ){2}\(?\d\)?\] \+ 1 = \d+$"))
        assert rolled.inner_text().count("(") == 1
        # A mistake gets the kit's words at the field.
        field.tap()
        page.keyboard.type("z")
        error = form.locator(".champ:has(#calc-dice-expression) .erreur")
        expect(error).to_have_text(
            "Caractère inattendu « z » à la position 9 : « + » ou « - » attendu."
        )
        page.keyboard.press("Backspace")
        expect(error).to_have_text("")
        # The examples roll as the pages' dice do.
        entries = roll(page, examples.locator("button.de[data-de='2d6+3']"), 1)
        assert 5 <= total_of(entries[0]) <= 15
        assert len(entries[0]["faces"]) == 2
        page.keyboard.press("Escape")
        page.wait_for_function(CLOSED)
        examples.get_by_role("button", name="Chances de 4d6kh3").tap()
        tray = page.locator(TRAY)
        tray.locator(".graphique-svg").wait_for(timeout=10_000)
        expect(tray).to_contain_text("moyenne 12,245, de 3 à 18")
        stored = json.loads(page.evaluate(f"sessionStorage.getItem('{LOG_KEY}')"))
        assert [e["expression"] for e in stored["jets"]] == ["2d6+3"]
        assert page.evaluate("() => window.rules.status().state") != "ready"
    finally:
        phone.set_offline(False)


def test_a_button_at_the_bottom_of_the_screen_works_at_the_first_tap(
    phone: Any, site_url: str
) -> None:
    # The form's first tap, on « Lancer » at the very bottom of the screen: the line of its
    # headline results (shown while a field is edited) must not come up under the finger and
    # take the tap.
    page = phone.new_page()
    page.goto(site_url + "outils/")
    page.locator("#calc-dice[data-pret]").wait_for()
    form = page.locator("#calc-dice")
    button = form.locator(".calculateur-lancer")
    button.evaluate("(b) => window.scrollBy(0, b.getBoundingClientRect().bottom - innerHeight + 4)")
    wait_for_still_scroll(page)
    button.tap()
    expect(form.locator("output[name=roll_text]")).to_have_text(re.compile(r"= \d+$"))


def test_a_roll_asked_for_comes_out_from_under_the_notices(phone: Any, site_url: str) -> None:
    # « Lancer » near the bottom of the screen, a notice there (the offline copy's « Disponible
    # hors ligne », a list's): the roll it draws is brought above the notice, not left under it.
    page = phone.new_page()
    page.goto(site_url + "outils/")
    form = page.locator("#calc-dice")
    page.locator("#calc-dice[data-pret]").wait_for()  # set up: « Lancer » rolls
    button = form.locator(".calculateur-lancer")
    page.evaluate(
        """() => {
            const notice = document.createElement("div");
            notice.style.height = "56px";
            notice.textContent = "Disponible hors ligne";
            let notices = document.querySelector(".regles-avis");
            if (!notices) {
                notices = document.createElement("div");
                notices.className = "regles-avis";
                document.body.append(notices);
            }
            notices.append(notice);
        }"""
    )
    button.evaluate(
        "(b) => window.scrollBy(0, b.getBoundingClientRect().bottom - innerHeight + 70)"
    )
    wait_for_still_scroll(page)
    button.tap()
    rolled = form.locator("output[name=roll_text]")
    expect(rolled).to_have_text(re.compile(r"= \d+$"), timeout=10_000)
    wait_for_still_scroll(page)
    notice_top = page.evaluate("document.querySelector('.regles-avis').getBoundingClientRect().top")
    assert notice_top <= 800 - 56
    bottom = form.locator(".sortie[data-tirage]").last.evaluate(
        "(node) => node.getBoundingClientRect().bottom"
    )
    assert bottom <= notice_top, (bottom, notice_top)
    assert button.evaluate("(b) => b.getBoundingClientRect().top") >= 0


def test_a_page_whose_dice_roll_without_python_does_not_start_it(
    browser: Any, site_url: str
) -> None:
    # The page's own dice only (the build wrote their terms): Python's 20 MB are not asked
    # for on the reader's link; its first « Chances » would start it.
    context = browser.new_context(
        viewport={"width": 360, "height": 800}, has_touch=True, is_mobile=True
    )
    try:
        page = context.new_page()
        asked = requests_of(page)
        page.goto(site_url + "licences/")  # a die (1d6), no calculator
        page.locator("article button.de[data-de-termes] ~ output.de-resultat").first.wait_for(
            state="attached"
        )
        wait_past_python_start(page)  # the moment the page would have started it
        assert page.evaluate("() => window.rules.status().state") == "idle"
        assert [url for url in asked if "rules-runtime" in url or "pyodide" in url] == []
    finally:
        context.close()


def test_without_python_a_die_rolls_or_says_why_the_kit_refuses_it(
    phone: Any, site_url: str
) -> None:
    # Python's files never came (offline before the first calculation). A die written
    # without its terms rolls all the same (dice-calculator.js); one past the kit's limits
    # says so in the kit's words, and is not logged.
    phone.route(RULES_RUNTIME, lambda route: route.abort("internetdisconnected"))
    page = opened(phone, site_url)
    phone.set_offline(True)
    try:
        entries = roll(page, dice(page, "1d20+5"), 1)
        assert 6 <= total_of(entries[0]) <= 25
        assert len(entries[0]["faces"]) == 1
        page.keyboard.press("Escape")
        page.wait_for_function(CLOSED)
        dice(page, "200d6").tap()
        tray = page.locator(TRAY)
        error = tray.locator(".de-jet-erreur")
        error.wait_for(timeout=10_000)
        assert error.inner_text() == (
            "Jet impossible\u00a0: On ne peut pas lancer plus de 100 dés (position 1)."
        )
        assert tray.locator(".de-jet-courant[data-n]").count() == 0
        stored = json.loads(page.evaluate(f"sessionStorage.getItem('{LOG_KEY}')"))
        assert [e["expression"] for e in stored["jets"]] == ["1d20+5"]
        assert badge(page, "200d6").text_content() == ""
        assert page.evaluate("() => window.rules.status().state") != "ready"
    finally:
        phone.set_offline(False)


def test_the_tray_from_the_keyboard_on_a_desktop(browser: Any, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    with_extra_dice(context)
    page = opened(context, site_url)
    attack = dice(page, "1d20+5")
    attack.focus()
    page.keyboard.press("Enter")
    tray = page.locator(TRAY)
    tray.locator(".de-jet-courant[data-n='1']").wait_for(timeout=60_000)
    assert page.evaluate(OPEN)
    assert attack.get_attribute("aria-expanded") == "true"
    assert tray.evaluate("(t) => t.contains(document.activeElement)")
    # Beside the dice, within the screen.
    box, anchor = tray.bounding_box(), attack.bounding_box()
    assert box and anchor and box["x"] + box["width"] <= 1280 and box["y"] + box["height"] <= 800
    assert abs(box["y"] - (anchor["y"] + anchor["height"])) <= 12
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Relancer"
    page.keyboard.press("Enter")
    tray.locator(".de-jet-courant[data-n='2']").wait_for(timeout=60_000)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # « Avec avantage »
    tray.locator(".de-jet-courant[data-n='3']").wait_for(timeout=60_000)
    assert "avec avantage" in tray.locator(".de-jet-titre").inner_text()
    page.keyboard.press("Escape")
    page.wait_for_function(CLOSED)
    assert attack.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.dataset.de") == "1d20+5"
    # The chances of the same dice still open in the same place.
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    tray.locator(".graphique-svg").wait_for(timeout=30_000)
    assert tray.locator(".de-jet-courant").is_hidden()
    page.keyboard.press("Escape")
    page.wait_for_function(CLOSED)
    context.close()


def test_the_log_is_read_from_chances_without_rolling_again(phone: Any, site_url: str) -> None:
    page = opened(phone, site_url)
    roll(page, dice(page, "1d20+5"), 1)
    roll(page, dice(page, "20d6"), 2)
    page.keyboard.press("Escape")
    page.wait_for_function(CLOSED)
    page.get_by_role("button", name="Chances de 1d20+5").tap()
    tray = page.locator(TRAY)
    tray.locator(".graphique-svg").wait_for(timeout=60_000)
    expect(tray.locator(".de-jets-titre")).to_be_visible()
    logged = tray.locator(".de-jets").evaluate(ENTRIES)
    assert [e["n"] for e in logged] == [2, 1]  # every roll, none new
    assert words_of(logged[1]).startswith("n° 1 1d20+5 : ")
    stored = json.loads(page.evaluate(f"sessionStorage.getItem('{LOG_KEY}')"))
    assert [e["n"] for e in stored["jets"]] == [2, 1]


def test_the_chances_stay_on_the_screen_with_their_table_open(phone: Any, site_url: str) -> None:
    page = opened(phone, site_url)
    page.get_by_role("button", name="Chances de 20d6").tap()
    tray = page.locator(TRAY)
    tray.locator(".graphique-svg").wait_for(timeout=60_000)
    tray.locator("summary", has_text="Tableau des chances").tap()
    grid = tray.locator("table.calculateur-table")
    # A table still (not a phone's cards): its header names the columns, kept in view.
    expect(grid.locator("thead th").first).to_be_visible()
    assert grid.evaluate("(t) => getComputedStyle(t).display") == "table"
    # The popover grew in place: placed again, whole on the screen, « Fermer » in reach.
    page.wait_for_function(
        "() => { const r = document.querySelector('.de-pop').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight; }"
    )
    tray.get_by_role("button", name="Fermer").tap()
    page.wait_for_function(CLOSED)


@pytest.mark.parametrize(("width", "scheme"), [(360, "light"), (360, "dark"), (1280, "light")])
def test_axe_finds_nothing_in_the_open_tray(
    browser: Any, site_url: str, width: int, scheme: str
) -> None:
    axe = axe_source()
    context = browser.new_context(
        viewport={"width": width, "height": 800},
        color_scheme=scheme,
        reduced_motion="reduce",  # no highlight under way while contrasts are measured
    )
    with_extra_dice(context)
    page = opened(context, site_url)
    page.route(
        "**/__axe.min.js", lambda route: route.fulfill(body=axe, content_type="text/javascript")
    )
    tray = page.locator(TRAY)
    dice(page, "1d20+5").click()
    tray.locator(".de-jet-courant[data-n='1']").wait_for(timeout=60_000)
    tray.get_by_role("button", name="Avec avantage").click()
    tray.locator(".de-jet-courant[data-n='2']").wait_for(timeout=60_000)
    page.add_script_tag(url=site_url + "__axe.min.js")
    found = axe_on_parts(page, ".de-pop")
    assert found["violations"] == [], json.dumps(found["violations"], ensure_ascii=False, indent=1)
    assert {"color-contrast", "button-name"} <= set(found["passed"]), found["passed"]
    context.close()
