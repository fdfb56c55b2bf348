"""axe-core (pinned in package.json, read from node_modules: no third-party request) on the
home page, a rule page, the tools page and spell pages of the test site, in both palettes, on
a phone and on a desktop: no contrast failure, no scroll area the keyboard cannot reach."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# The rules this test holds the site to; axe's other findings are Material's own (its table
# of contents' nested lists share labels) and are not checked here.
RULES = ("color-contrast", "scrollable-region-focusable")
PAGES = (
    "",  # the home page: its search field and quick links (```accueil)
    "lankhmar/epees-et-pmt/",  # rules: dice buttons, tables
    "maison/poids-transportable/",  # tables narrowed on a phone, one left to scroll sideways
    "outils/",  # every calculator: buttons, result tables
    "sorts/acoustique/",  # a school's spells
    "sorts/index-des-sorts/",  # the spell index: its filters and their reset button
)
# Every folded form opened (as for printing, rules.js), then two frames: what the page
# measures at a change of size (scroll-areas.js) is done.
# « beforeprint » opens every folded part (rules.js); « afterprint » gives back what the
# print set-up changed for paper only (print.js: the light palette, cards), folds left open.
OPEN_ALL = """async () => {
    dispatchEvent(new Event("beforeprint"));
    dispatchEvent(new Event("afterprint"));
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""
RUN = """async (rules) => {
    const results = await axe.run(document, { runOnly: { type: "rule", values: rules } });
    return results.violations.map((violation) => ({
        rule: violation.id,
        nodes: violation.nodes.map((node) => `${node.target.join(" ")} : ${node.failureSummary}`),
    }));
}"""


# axe's WCAG 2 A and AA rules on some parts of a page only (CSS selectors): what a test of
# one widget checks, Material's own page being checked here. Its violations, and the rules
# that passed (so that a test can see its part was read).
ON_PARTS = """async (selectors) => {
    const results = await axe.run(
        { include: selectors.map((selector) => [selector]) },
        { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"] } },
    );
    const violations = results.violations.map((violation) => ({
        rule: violation.id,
        nodes: violation.nodes.map((node) => `${node.target.join(" ")} : ${node.failureSummary}`),
    }));
    return { violations, passed: results.passes.map((rule) => rule.id) };
}"""


def axe_on_parts(page: Any, *selectors: str) -> dict[str, Any]:
    """axe's WCAG findings on the parts `selectors` of the page (axe already loaded)."""
    found: dict[str, Any] = page.evaluate(ON_PARTS, list(selectors))
    return found


def axe_source() -> str:
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["devDependencies"]
    if not AXE.exists():
        pytest.fail(f"axe-core introuvable ({AXE}) : lancez « make deps » (npm ci)")
    installed = json.loads((AXE.parent / "package.json").read_text(encoding="utf-8"))["version"]
    assert installed == pinned["axe-core"], "node_modules n’est pas à jour : make deps"
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def axe() -> str:
    return axe_source()


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", PAGES)
def test_axe_finds_no_contrast_nor_unreachable_scroll_area(
    browser: Any, site_url: str, axe: str, path: str, scheme: str, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=scheme)
    page = context.new_page()
    # Served from the site's own address: its Content-Security-Policy allows 'self' only.
    page.route(
        "**/__axe.min.js",
        lambda route: route.fulfill(body=axe, content_type="text/javascript"),
    )
    page.goto(site_url + path)
    page.wait_for_load_state("load")
    expected = "slate" if scheme == "dark" else "default"
    assert page.evaluate("document.body.dataset.mdColorScheme") == expected
    page.evaluate(OPEN_ALL)
    page.add_script_tag(url=site_url + "__axe.min.js")
    violations = page.evaluate(RUN, list(RULES))
    assert violations == [], json.dumps(violations, ensure_ascii=False, indent=1)
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_focused_button_keeps_its_contrast(
    browser: Any, site_url: str, axe: str, scheme: str
) -> None:
    # A button a reader has just tapped keeps the focus, in the colours Material gives a
    # button under the pointer or the focus (the accent): its text must still be read.
    context = browser.new_context(viewport={"width": 360, "height": 800}, color_scheme=scheme)
    page = context.new_page()
    page.route(
        "**/__axe.min.js",
        lambda route: route.fulfill(body=axe, content_type="text/javascript"),
    )
    page.goto(site_url + "outils/")
    page.wait_for_load_state("load")
    page.evaluate(OPEN_ALL)
    button = page.get_by_role("button", name="Ajouter une ligne").first
    button.scroll_into_view_if_needed()
    button.focus()
    assert button.evaluate("b => b.matches(':focus')")
    page.add_script_tag(url=site_url + "__axe.min.js")
    violations = page.evaluate(
        """async () => {
            const results = await axe.run(document.activeElement,
                { runOnly: { type: "rule", values: ["color-contrast"] } });
            return results.violations.map((v) => v.nodes.map((n) => n.failureSummary));
        }"""
    )
    assert violations == [], violations
    context.close()
