"""Another table's game in a site that `regles new` wrote, as a game master adopts the
generator: the scaffold's example pages and calculator, plus the pages of another game
(tests/integration/autre-jeu/content/brumes/) and its calculator module dropped into the
site's rules package, with no registry to edit, its logo and a favicon of its own. It builds
with --strict, its app's icons are its logo on its colour, and, in Chromium under a project
sub-path, its search, its calculators (the example, the other game's, the generic dice and
the inline dice) and its offline copy work."""

from __future__ import annotations

import gzip
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from regles.cli import new_site
from regles.features.assets.theme import THEME_DIR
from tests.conftest import NODE_MODULES, ROOT, build_site, generator_pin, roll_inline_dice
from tests.test_offline import SiteServer
from tests.test_offline_browser import READY, first_visit

OTHER_GAME = ROOT / "tests" / "integration" / "autre-jeu"
SUBPATH = "brumes-site"
SITE_NAME = "Chroniques des Brumes"
SYSTEM = "Les Brumes"


def adopt(folder: Path) -> Path:
    """A new site in `folder`, with the other game's pages and calculator; its mkdocs.yml."""
    new_site(folder, SITE_NAME, pin=generator_pin())
    shutil.copytree(OTHER_GAME / "content" / "brumes", folder / "content" / "brumes")
    shutil.copy(OTHER_GAME / "brumes.py", folder / "calculators" / "brumes.py")
    # Its logo, and a favicon of its own (the generator's files replaced by the site's).
    (folder / "content" / "assets" / "icons").mkdir(parents=True)
    shutil.copy(OTHER_GAME / "logo-brumes.svg", folder / "content" / "assets" / "brumes.svg")
    shutil.copy(OTHER_GAME / "favicon.png", folder / "content" / "assets" / "icons")
    config = folder / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    # What the game master edits: the new system, its pages in the nav, its logo; and, here,
    # the generator's npm packages that the tests share (a site installs its own in build/npm).
    edits = (
        ("  icon:\n    logo: material/dice-d20\n", "  logo: assets/brumes.svg\n"),
        ("      systems:\n", f"      systems:\n        brumes: {SYSTEM}\n"),
        ("      calculators: calculators\n", f"      node_modules: {NODE_MODULES}\n"),
        ("nav:\n", f"nav:\n  - {SYSTEM}:\n      - brumes/regles.md\n      - brumes/combat.md\n"),
    )
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    config.write_text(text, encoding="utf-8")
    return config


def built_and_served(config: Path, www: Path, subpath: str) -> Iterator[tuple[Path, str, str]]:
    """`config`'s site built strict for, and served at, http://127.0.0.1:<port>/<subpath>/
    from `www`: its folder, its address and the build's output."""
    server = SiteServer(www)
    url = f"{server.origin}/{subpath}/"
    try:
        result = build_site(www / subpath, config, site_url=url)
        if result.returncode != 0:
            pytest.fail(f"mkdocs build --strict a échoué :\n{result.stdout}\n{result.stderr}")
        yield www / subpath, url, result.stdout + result.stderr
    finally:
        server.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, str]]:
    """The adopted site built for, and served at, http://127.0.0.1:<port>/brumes-site/;
    with the build's output."""
    config = adopt(tmp_path_factory.mktemp("adoption") / "brumes")
    yield from built_and_served(config, tmp_path_factory.mktemp("autre-jeu"), SUBPATH)


def test_it_builds_strict_without_a_warning_nor_entry_pages(
    served: tuple[Path, str, str],
) -> None:
    site, _, output = served
    assert "WARNING" not in output and "Traceback" not in output, output
    assert not (site / "data" / "bases").exists()
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("index.html"))
    assert pages == [
        "brumes/combat/index.html",
        "brumes/imprimer/index.html",  # the generator's print page of each system
        "brumes/regles/index.html",
        "donnees/index.html",  # the generator's page of the reader's data
        "hors-ligne/index.html",  # the generator's own offline page
        "index.html",
        "jeu/glossaire/index.html",
        "jeu/imprimer/index.html",
        "jeu/index.html",
    ]
    fallback = (site / "hors-ligne" / "index.html").read_text(encoding="utf-8")
    assert "sorts" not in fallback.split("<article", 1)[1].split("</article>", 1)[0]


def test_it_is_named_after_itself(served: tuple[Path, str, str]) -> None:
    site, _, _ = served
    manifest = json.loads((site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert (manifest["name"], manifest["short_name"]) == (SITE_NAME, "Chroniques")
    assert manifest["theme_color"] == "#009485"  # Material's teal, the scaffold's palette
    home = (site / "index.html").read_text(encoding="utf-8")
    assert f"<title>{SITE_NAME}</title>" in home
    assert 'name="apple-mobile-web-app-title" content="Chroniques"' in home


def test_its_app_icons_are_its_logo_on_its_colour_and_its_own_favicon(
    served: tuple[Path, str, str],
) -> None:
    site, _, _ = served
    icons = site / "assets" / "icons"
    for name in ("icone-192.png", "icone-512.png", "icone-masquable-512.png"):
        assert (icons / name).read_bytes() != (THEME_DIR / "assets/icons" / name).read_bytes()
    with Image.open(icons / "icone-masquable-512.png") as icon:
        pixels = icon.convert("RGB")
        assert pixels.size == (512, 512)
        assert pixels.getpixel((0, 0)) == (0, 148, 133)  # teal, the scaffold's palette
        assert pixels.getpixel((256, 256)) == (255, 179, 0)  # the logo's moon, as drawn
    assert (icons / "favicon.png").read_bytes() == (OTHER_GAME / "favicon.png").read_bytes()
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'src="assets/brumes.svg"' in home  # Material's header shows the same logo


def test_its_pages_are_searched_under_their_own_system(served: tuple[Path, str, str]) -> None:
    site, _, _ = served
    filters = {}
    for path in (site / "pagefind" / "fragment").glob("*.pf_fragment"):
        record = json.loads(gzip.decompress(path.read_bytes())[len(b"pagefind_dcd") :])
        filters[record["url"]] = record["filters"]
    assert filters["brumes/combat/#blessures"]["systeme"] == [SYSTEM]
    assert filters["brumes/regles/"]["systeme"] == [SYSTEM]
    assert filters["jeu/#tests"]["systeme"] == [SITE_NAME]


@pytest.mark.browser
@pytest.mark.python
@pytest.mark.offline
def test_search_calculators_dice_and_offline_work(
    browser: Any, served: tuple[Path, str, str], tmp_path: Path
) -> None:
    _, url, _ = served
    context, page, _ = first_visit(browser, tmp_path / "profil", url + "brumes/regles/")
    try:
        found = page.evaluate("window.rules.search('blessures')")
        assert found and found[0]["url"] == url + "brumes/combat/#blessures", found

        # The other game's module, run by Pyodide: 2d6 + 2 ≥ 8 in 26 cases of 36.
        form = page.locator("form[data-calculateur='test_brumes']")
        form.scroll_into_view_if_needed()
        form.locator("input[name='trait']").fill("2")
        chance = form.locator("output[name='p_reussite'][data-exacte='13/18']")
        chance.wait_for(timeout=60_000)  # its exact value a tap away
        assert chance.inner_text().startswith("72,2")

        # The scaffold's example: 2d6 + 1 ≥ 8, 7 chances in 12.
        page.goto(url + "jeu/")
        example = page.locator("form[data-calculateur='reussite']")
        example.scroll_into_view_if_needed()
        example.locator("input[name='modificateur']").fill("1")
        success = example.locator("output[name='p_reussite'][data-exacte='7/12']")
        success.wait_for(timeout=60_000)
        assert success.inner_text().startswith("58,3")

        # The generic dice, through an inline dice button of the other game's pages.
        page.goto(url + "brumes/combat/")
        assert 2 <= roll_inline_dice(page, "1d6+1") <= 7

        context.set_offline(True)
        page.goto(url + "brumes/regles/")
        assert page.locator("article h1").inner_text().startswith("Règles de base")
        page.locator(READY).wait_for(state="attached")  # « Disponible hors ligne »
    finally:
        context.close()
        shutil.rmtree(tmp_path / "profil", ignore_errors=True)
