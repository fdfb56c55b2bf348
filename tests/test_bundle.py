"""The site's own stylesheets and scripts reach the pages as one file each
(regles/features/assets/bundle.py):
the stylesheets concatenated, the scripts bundled by esbuild from one module graph."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import material
import pytest
from bs4 import BeautifulSoup

from regles.features.assets import minify as minify_module
from regles.features.assets.bundle import (
    EAGER_HINT,
    BundleError,
    concatenate,
    script_bundle,
    with_eager_hint,
)
from regles.features.assets.minify import MinifyError, bundle_modules, minify
from regles.features.assets.theme import ENTRY_SCRIPT, STYLESHEETS, THEME_DIR
from regles.features.databases.book import DatabaseSettings
from regles.features.databases.phrases import scripts_prelude
from tests.conftest import NODE_MODULES, build_site, variant_of_test_site

MODULES = THEME_DIR / "assets" / "js"
# Loaded by its own Worker, not by the page: not a module of the page's graph.
WORKER = "rules-worker.mjs"


def test_concatenation_keeps_the_order_and_names_each_source() -> None:
    bundle = concatenate(
        ["b.css", "a.css"], {"a.css": "a{}", "b.css": "b{}"}, "assets", "site", ".css"
    )
    assert bundle.content.index("/* b.css */") < bundle.content.index("/* a.css */")
    assert bundle.path.startswith("assets/site.") and bundle.path.endswith(".css")
    other = concatenate(["a.css"], {"a.css": "a{}"}, "assets", "site", ".css")
    assert other.path != bundle.path  # named by content


def test_the_script_opens_with_the_compile_hint_and_the_stylesheet_does_not() -> None:
    script = script_bundle('"use strict";\n(()=>{f()})();\n', ["a.js"], "assets/js", "site")
    assert script.content == EAGER_HINT + '"use strict";\n(()=>{f()})();\n'  # first line only
    assert script.path.startswith("assets/js/site.") and script.path.endswith(".js")
    assert script_bundle("g()", ["a.js"], "assets/js", "site").path != script.path  # by content
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
    css_sources, js_sources = list(STYLESHEETS), [ENTRY_SCRIPT]
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
    (style,) = (path for path in bundles if path.suffix == ".css")
    (script,) = (path for path in bundles if path.suffix == ".js")
    text = style.read_text("utf-8")
    for source in css_sources:
        assert f"/* {source} */" in text, source
        assert not (site_dir / source).exists(), f"{source} copié en plus du paquet"
        body = (THEME_DIR / source).read_text("utf-8")
        small = minify(body, source, NODE_MODULES).strip()
        assert small in text, source
        assert len(small) < 0.8 * len(body), source  # comments and spaces gone
    # The script: opened by the hint, the systems' folders (each with the name the search
    # gives it), the database's folder, data file and sentences (the test site's words are
    # the default ones), then the one entry module's graph, bundled, minified.
    assert js_sources == ["assets/js/site.js"]
    modules = bundle_modules(MODULES / "site.js", THEME_DIR, NODE_MODULES)
    systems = (
        '(window.rules = window.rules || {}).systems = {"epees": "Épées d’essai", '
        '"jeu": "Jeu d’essai", "lankhmar": "Lankhmar d’essai", '
        '"maison": "Règles maison d’essai", "sorts": "Magie d’essai"};'
        "window.rules.servedBy = {};"  # no database of the test site is linked from a system
    )
    prelude = scripts_prelude([DatabaseSettings(Path("sorts.txt"), "sorts.txt", "sorts", "S", "I")])
    assert '"data": "data/bases/sorts.json"' in prelude and '"folder": "sorts"' in prelude
    text = script.read_text("utf-8")
    assert text == EAGER_HINT + systems + prelude + "\n;\n" + modules.code
    graph = set(modules.inputs)
    ours = {f"assets/js/{path.name}" for path in MODULES.iterdir() if path.name != WORKER}
    assert graph == ours  # every module of ours is in the graph, and only they are
    for source in graph:
        assert not (site_dir / source).exists(), f"{source} copié en plus du paquet"
    assert (site_dir / "assets" / "js" / WORKER).is_file()
    body = sum(len((THEME_DIR / source).read_text("utf-8")) for source in graph)
    assert len(modules.code) < 0.6 * body  # comments and spaces gone, local names shortened


def test_a_module_imported_by_several_is_in_the_script_once(site_dir: Path) -> None:
    # page.js, imported by each of the four concerns: its code once (the four scripts each
    # had their own copy of the site root's reading when they were concatenated).
    (script,) = (site_dir / "assets" / "js").glob("site.*.js")
    text = script.read_text("utf-8")
    assert text.count('meta[name="regles-racine"]') == 1
    assert text.count('"use strict"') == 1  # the banner: the whole bundle is strict code
    # No module syntax left, a classic script (the French texts may say « importé »).
    assert not re.search(r"\bimport\b(?!\()", text)


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
    small = minify(script, "a.js", NODE_MODULES, tmp_path)
    assert "comment" not in small and "longName" not in small  # local names shortened
    assert "window.regles" in small and "Bonjour, « lecteur »" in small  # globals, UTF-8 text
    assert len(list(tmp_path.iterdir())) == 1  # kept in the cache…
    assert minify(script, "a.js", NODE_MODULES, tmp_path) == small  # …and read back
    css = ".a  {  color : red ;  }\n/* note */\n.b{margin:0px}"
    assert minify(css, "a.css", NODE_MODULES) == ".a{color:red}.b{margin:0}\n"


def test_the_cache_only_saves_time(tmp_path: Path) -> None:
    blocked = tmp_path / "fichier"  # a file where the cache folder should be
    blocked.write_text("", encoding="utf-8")
    assert minify("a { color: red }", "a.css", NODE_MODULES, blocked / "cache") == (
        "a{color:red}\n"
    )
    cache = tmp_path / "cache"
    first = minify("let x = 1;", "a.js", NODE_MODULES, cache)
    (entry,) = cache.iterdir()
    entry.write_bytes(b"\xff\xfe")  # damaged: not UTF-8
    assert minify("let x = 1;", "a.js", NODE_MODULES, cache) == first


def test_a_syntax_error_names_the_source_and_line(tmp_path: Path) -> None:
    with pytest.raises(MinifyError, match=r"assets/js/casse\.js:2:"):
        minify("const a = 1;\nconst = ;\n", "assets/js/casse.js", NODE_MODULES, tmp_path)
    assert list(tmp_path.iterdir()) == []  # nothing cached
    with pytest.raises(MinifyError, match="non pris en charge"):
        minify("x", "a.txt", NODE_MODULES)
    with pytest.raises(MinifyError, match="npm ci"):
        minify("x", "a.js", tmp_path / "node_modules")


def test_an_esbuild_that_hangs_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def hang(command: list[str], **options: Any) -> None:
        raise subprocess.TimeoutExpired(command, options["timeout"])

    monkeypatch.setattr(subprocess, "run", hang)
    with pytest.raises(MinifyError, match=r"assets/lent\.js en 60 s"):
        minify("x", "assets/lent.js", NODE_MODULES)


# esbuild on a module graph of its own ---------------------------------------------------------

SHARED = 'export const marker = "partagé par deux modules";\nexport let count = 0;\n'


def write_graph(folder: Path) -> Path:
    """site.js imports a.js and b.js, which both import shared.js."""
    js = folder / "assets" / "js"
    js.mkdir(parents=True)
    (js / "shared.js").write_text(SHARED, "utf-8")
    for name in ("a", "b"):
        (js / f"{name}.js").write_text(
            f'import {{ marker }} from "./shared.js";\nwindow.{name} = marker + "{name}";\n',
            "utf-8",
        )
    (js / "site.js").write_text('import "./a.js";\nimport "./b.js";\n', "utf-8")
    return js / "site.js"


def test_the_script_is_bundled_from_the_import_graph(tmp_path: Path) -> None:
    entry = write_graph(tmp_path)
    bundle = bundle_modules(entry, tmp_path, NODE_MODULES)
    assert sorted(bundle.inputs) == [
        "assets/js/a.js",
        "assets/js/b.js",
        "assets/js/shared.js",
        "assets/js/site.js",
    ]
    assert bundle.code.count("partagé par deux modules") == 1  # UTF-8 kept, the module once
    assert bundle.code.startswith('"use strict";\n(()=>{')  # one strict function, no global
    assert "count" not in bundle.code  # local names shortened, unused exports dropped
    # Run as the page runs it: a.js, then b.js (the import order), with the shared value.
    node = subprocess.run(
        [
            "node",
            "-e",
            f"globalThis.window = {{}}; {bundle.code}; console.log(JSON.stringify(window))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(node.stdout) == {
        "a": "partagé par deux modulesa",
        "b": "partagé par deux modulesb",
    }
    again = bundle_modules(entry, tmp_path, NODE_MODULES)
    assert again == bundle  # the same sources, the same bytes


def test_a_warm_build_does_not_start_esbuild(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = write_graph(tmp_path / "site")
    cache = tmp_path / "cache"
    first = bundle_modules(entry, tmp_path / "site", NODE_MODULES, cache)
    runs: list[list[str]] = []
    real_run = subprocess.run

    def counted(command: list[str], **options: Any) -> Any:
        runs.append(command)
        return real_run(command, **options)

    monkeypatch.setattr(subprocess, "run", counted)
    assert bundle_modules(entry, tmp_path / "site", NODE_MODULES, cache) == first
    assert runs == []  # read back from the cache
    # A module the entry does not name itself changed: the key covers every input.
    shared = tmp_path / "site" / "assets" / "js" / "shared.js"
    shared.write_text(SHARED.replace("partagé", "mis en commun"), "utf-8")
    changed = bundle_modules(entry, tmp_path / "site", NODE_MODULES, cache)
    assert len(runs) == 1 and "mis en commun" in changed.code
    assert bundle_modules(entry, tmp_path / "site", NODE_MODULES, cache) == changed
    assert len(runs) == 1
    # Back to the first sources: that result is still kept, under their content's key.
    shared.write_text(SHARED, "utf-8")
    assert bundle_modules(entry, tmp_path / "site", NODE_MODULES, cache) == first
    assert len(runs) == 1


def test_the_script_cache_is_keyed_by_esbuild_version_and_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = write_graph(tmp_path / "site")
    cache = tmp_path / "cache"
    first = bundle_modules(entry, tmp_path / "site", NODE_MODULES, cache)
    monkeypatch.setattr(minify_module, "esbuild_version", lambda node_modules: "0.0.0")
    kept = len(list(cache.iterdir()))
    assert bundle_modules(entry, tmp_path / "site", NODE_MODULES, cache) == first
    assert len(list(cache.iterdir())) == kept + 2  # another graph and result, not the old ones
    monkeypatch.setitem(minify_module.SCRIPT_OPTIONS, "minify", False)
    loose = bundle_modules(entry, tmp_path / "site", NODE_MODULES, cache)
    assert len(loose.code) > len(first.code)


def test_the_script_cache_only_saves_time(tmp_path: Path) -> None:
    entry = write_graph(tmp_path / "site")
    blocked = tmp_path / "fichier"  # a file where the cache folder should be
    blocked.write_text("", encoding="utf-8")
    plain = bundle_modules(entry, tmp_path / "site", NODE_MODULES)
    assert bundle_modules(entry, tmp_path / "site", NODE_MODULES, blocked / "c") == plain
    cache = tmp_path / "cache"
    bundle_modules(entry, tmp_path / "site", NODE_MODULES, cache)
    for kept in cache.iterdir():
        kept.write_bytes(b"\xff\xfe")  # damaged: not UTF-8, not JSON
    assert bundle_modules(entry, tmp_path / "site", NODE_MODULES, cache) == plain


def test_esbuild_refusing_a_module_names_its_file_and_line(tmp_path: Path) -> None:
    entry = write_graph(tmp_path)
    (tmp_path / "assets" / "js" / "b.js").write_text(
        'import { marker } from "./shared.js";\nconst = marker;\n', "utf-8"
    )
    cache = tmp_path / "cache"
    with pytest.raises(MinifyError) as refused:
        bundle_modules(entry, tmp_path, NODE_MODULES, cache)
    message = str(refused.value)
    assert message.startswith("esbuild refuse les scripts :")
    assert "assets/js/b.js, ligne 2, colonne 7 : " in message, message
    assert not cache.exists() or list(cache.iterdir()) == []  # nothing cached
    (tmp_path / "assets" / "js" / "b.js").write_text('import "./absent.js";\n', "utf-8")
    with pytest.raises(
        MinifyError, match=r'assets/js/b\.js, ligne 1, colonne 8 : .*"\./absent\.js"'
    ):
        bundle_modules(entry, tmp_path, NODE_MODULES, cache)
    with pytest.raises(MinifyError, match="npm ci"):
        bundle_modules(entry, tmp_path, tmp_path / "node_modules")


def test_a_script_the_site_adds_is_bundled_after_ours(tmp_path: Path) -> None:
    # A game master adds a script of their own (in their theme overrides, `custom_dir`): the
    # pages still get one script, ours first, then theirs; neither is published apart.
    theme = tmp_path / "surcharges"
    (theme / "assets" / "js").mkdir(parents=True)
    (theme / "assets" / "js" / "table.js").write_text(
        'document.documentElement.dataset.table = "ma table";\n', "utf-8"
    )
    config = variant_of_test_site(
        tmp_path,
        lambda text: (
            text.replace("  name: material\n", f"  name: material\n  custom_dir: {theme}\n")
            + "\nextra_javascript:\n  - assets/js/table.js\n"
        ),
    )
    site = tmp_path / "site"
    result = build_site(site, config)
    assert result.returncode == 0, result.stdout + result.stderr
    page = BeautifulSoup((site / "jeu" / "combat" / "index.html").read_text("utf-8"), "html.parser")
    ours = [s["src"] for s in page.find_all("script", src=True) if "assets/js/" in s["src"]]
    assert len(ours) == 1, ours
    script = (site / "jeu" / "combat" / ours[0]).resolve().read_text("utf-8")
    assert "ma table" in script and script.index("rules:unfold") < script.index("ma table")
    assert not (site / "assets" / "js" / "table.js").exists()
    assert not (site / "assets" / "js" / "page.js").exists()


def test_a_script_from_another_site_is_refused_with_its_reason(tmp_path: Path) -> None:
    config = variant_of_test_site(
        tmp_path,
        lambda text: text + "\nextra_javascript:\n  - https://exemple.org/x.js\n",
    )
    result = build_site(tmp_path / "site", config)
    assert result.returncode != 0
    assert (
        "« https://exemple.org/x.js » n’est ni un fichier du thème" in result.stdout + result.stderr
    )
