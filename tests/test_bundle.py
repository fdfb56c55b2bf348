"""The site's own stylesheets and scripts reach the pages as one file each (generator/bundle.py)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import material
import pytest
import yaml
from bs4 import BeautifulSoup

from generator.bundle import EAGER_HINT, BundleError, concatenate, with_eager_hint
from generator.minify import MinifyError, minify
from tests.conftest import ROOT


def listed(key: str) -> list[str]:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text("utf-8"), Loader=Loader)
    return [str(item) for item in config[key]]


def test_concatenation_keeps_the_order_and_names_each_source() -> None:
    bundle = concatenate(
        ["b.js", "a.js"], {"a.js": "(() => {})()", "b.js": "(() => {})()"}, "assets", "site", ".js"
    )
    assert bundle.content.index("/* b.js */") < bundle.content.index("/* a.js */")
    assert "\n;\n" in bundle.content  # a file without a final `;` cannot run into the next
    assert bundle.path.startswith("assets/site.") and bundle.path.endswith(".js")
    other = concatenate(["a.js"], {"a.js": "1"}, "assets", "site", ".js")
    assert other.path != bundle.path  # named by content


def test_the_script_opens_with_the_compile_hint_and_the_stylesheet_does_not() -> None:
    script = concatenate(["a.js"], {"a.js": "f()"}, "assets", "site", ".js")
    assert script.content.startswith(EAGER_HINT)  # V8 reads it on the first line only
    style = concatenate(["a.css"], {"a.css": "a{}"}, "assets", "site", ".css")
    assert "allFunctionsCalledOnLoad" not in style.content


def test_the_hint_shifts_the_source_map_by_its_line() -> None:
    source_map = json.dumps({"version": 3, "sources": ["a.ts"], "mappings": "AAAA;AACA"})
    script, shifted = with_eager_hint("f();\ng();", source_map)
    assert script == EAGER_HINT + "f();\ng();"
    assert shifted is not None
    assert json.loads(shifted) == {"version": 3, "sources": ["a.ts"], "mappings": ";AAAA;AACA"}
    assert with_eager_hint(script, shifted) == (script, shifted)  # once only
    assert with_eager_hint("f();", None) == (EAGER_HINT + "f();", None)


def test_a_missing_source_is_named() -> None:
    with pytest.raises(BundleError, match=r"absent\.css"):
        concatenate(["ici.css", "absent.css"], {"ici.css": "a{}"}, "assets", "site", ".css")


def test_every_page_links_one_stylesheet_and_one_deferred_script_of_ours(site_dir: Path) -> None:
    css_sources, js_sources = listed("extra_css"), listed("extra_javascript")
    bundles = set()
    for page in sorted(site_dir.rglob("*.html")):
        if page.parent.name == "pagefind":
            continue
        html = BeautifulSoup(page.read_text("utf-8"), "html.parser")
        ours_css = [
            link["href"]
            for link in html.select('link[rel="stylesheet"]')
            if "/stylesheets/" not in link["href"]
        ]
        ours_js = [s for s in html.select("script[src]") if "/javascripts/" not in s["src"]]
        assert len(ours_css) == 1 and len(ours_js) == 1, page
        assert ours_js[0].has_attr("defer"), page
        for address in (ours_css[0], ours_js[0]["src"]):
            # 404.html is served at any depth: its addresses start from the site root.
            base = site_dir if address.startswith("/") else page.parent
            bundles.add((base / address.lstrip("/")).resolve())
    assert len(bundles) == 2  # the same two files everywhere
    text = "".join(path.read_text("utf-8") for path in bundles)
    for source in [*css_sources, *js_sources]:
        assert f"/* {source} */" in text, source
        assert not (site_dir / source).exists(), f"{source} copié en plus du paquet"
        body = (ROOT / "site_overrides" / source).read_text("utf-8")
        small = minify(body, source, ROOT / "node_modules").strip()
        assert small in text, source
        assert len(small) < 0.8 * len(body), source  # comments and spaces gone


def test_materials_bundle_is_deferred_and_runs_before_ours_on_every_page(site_dir: Path) -> None:
    # A script the parser waits for at the end of the body is, to Lighthouse, needed for the
    # first paint: its download then counted in the first paint in one run out of two.
    for page in sorted(site_dir.rglob("*.html")):
        if page.parent.name == "pagefind":
            continue
        scripts = BeautifulSoup(page.read_text("utf-8"), "html.parser").select("script[src]")
        names = [s["src"].rsplit("/", 1)[-1] for s in scripts]
        material = [i for i, n in enumerate(names) if n.startswith("bundle.")]
        ours = [i for i, n in enumerate(names) if n.startswith("site.")]
        assert len(material) == 1 and len(ours) == 1, (page, names)
        assert scripts[material[0]].has_attr("defer"), page
        assert material[0] < ours[0], page  # deferred scripts run in the page's order


def test_materials_bundle_opens_with_the_compile_hint_and_its_map_follows(site_dir: Path) -> None:
    shipped = Path(material.__file__).parent / "templates" / "assets" / "javascripts"
    (original,) = shipped.glob("bundle.*.min.js")
    built = site_dir / "assets" / "javascripts" / original.name
    assert built.read_text("utf-8") == EAGER_HINT + original.read_text("utf-8")
    mappings = json.loads(Path(f"{original}.map").read_text("utf-8"))["mappings"]
    assert json.loads(Path(f"{built}.map").read_text("utf-8"))["mappings"] == ";" + mappings


def test_minified_scripts_and_styles_keep_their_meaning(tmp_path: Path) -> None:
    script = """
    // comment
    (function () {
      const longName = "Bonjour, « lecteur »";   /* kept: a string */
      window.regles = { salut: longName };
    })();
    """
    small = minify(script, "a.js", ROOT / "node_modules", tmp_path)
    assert "comment" not in small and "longName" not in small  # local names shortened
    assert "window.regles" in small and "Bonjour, « lecteur »" in small  # globals, UTF-8 text
    assert len(list(tmp_path.iterdir())) == 1  # kept in the cache…
    assert minify(script, "a.js", ROOT / "node_modules", tmp_path) == small  # …and read back
    css = ".a  {  color : red ;  }\n/* note */\n.b{margin:0px}"
    assert minify(css, "a.css", ROOT / "node_modules") == ".a{color:red}.b{margin:0}\n"


def test_the_cache_only_saves_time(tmp_path: Path) -> None:
    blocked = tmp_path / "fichier"  # a file where the cache folder should be
    blocked.write_text("", encoding="utf-8")
    assert minify("a { color: red }", "a.css", ROOT / "node_modules", blocked / "cache") == (
        "a{color:red}\n"
    )
    cache = tmp_path / "cache"
    first = minify("let x = 1;", "a.js", ROOT / "node_modules", cache)
    (entry,) = cache.iterdir()
    entry.write_bytes(b"\xff\xfe")  # damaged: not UTF-8
    assert minify("let x = 1;", "a.js", ROOT / "node_modules", cache) == first


def test_a_syntax_error_names_the_source_and_line(tmp_path: Path) -> None:
    with pytest.raises(MinifyError, match=r"assets/js/casse\.js:2:"):
        minify("const a = 1;\nconst = ;\n", "assets/js/casse.js", ROOT / "node_modules", tmp_path)
    assert list(tmp_path.iterdir()) == []  # nothing cached
    with pytest.raises(MinifyError, match="non pris en charge"):
        minify("x", "a.txt", ROOT / "node_modules")
    with pytest.raises(MinifyError, match="npm ci"):
        minify("x", "a.js", tmp_path / "node_modules")


def test_an_esbuild_that_hangs_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def hang(command: list[str], **options: Any) -> None:
        raise subprocess.TimeoutExpired(command, options["timeout"])

    monkeypatch.setattr(subprocess, "run", hang)
    with pytest.raises(MinifyError, match=r"assets/lent\.js en 60 s"):
        minify("x", "assets/lent.js", ROOT / "node_modules")
