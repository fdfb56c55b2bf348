"""The templates are compiled once and kept between builds (regles/features/assets/templates.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import material
from jinja2 import Environment, FileSystemLoader
from jinja2.bccache import bc_magic

from regles.features.assets.templates import TemplateCache
from regles.features.assets.theme import THEME_DIR
from tests.conftest import ROOT


class CountingEnvironment(Environment):
    """Counts the templates it compiles from their source."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.compiled: list[str | None] = []

    def compile(self, source: Any, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        self.compiled.append(name)
        return super().compile(source, name, *args, **kwargs)


def environment(templates: Path, cache: Path) -> CountingEnvironment:
    return CountingEnvironment(
        loader=FileSystemLoader(str(templates)), bytecode_cache=TemplateCache(cache)
    )


def templates(folder: Path, greeting: str = "Bonjour") -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "base.html").write_text("<p>{% block corps %}{% endblock %}</p>", "utf-8")
    (folder / "page.html").write_text(
        '{% extends "base.html" %}{% block corps %}' + greeting + ", {{ nom }}{% endblock %}",
        "utf-8",
    )
    return folder


def render(env: Environment) -> str:
    return env.get_template("page.html").render(nom="Élodie")


def test_a_second_build_does_not_compile_the_templates_again(tmp_path: Path) -> None:
    folder, cache = templates(tmp_path / "gabarits"), tmp_path / "cache"
    first = environment(folder, cache)
    assert render(first) == "<p>Bonjour, Élodie</p>"
    assert sorted(first.compiled) == ["base.html", "page.html"]
    assert len(list(cache.glob("gabarit-*.cache"))) == 2  # the folder is made when first written

    second = environment(folder, cache)
    assert render(second) == "<p>Bonjour, Élodie</p>"
    assert second.compiled == []


def test_a_changed_template_is_compiled_again(tmp_path: Path) -> None:
    folder, cache = templates(tmp_path / "gabarits"), tmp_path / "cache"
    render(environment(folder, cache))
    templates(folder, greeting="Salut")
    again = environment(folder, cache)
    assert render(again) == "<p>Salut, Élodie</p>"
    assert again.compiled == ["page.html"]


def test_a_folder_that_cannot_be_written_only_costs_time(tmp_path: Path) -> None:
    folder = templates(tmp_path / "gabarits")
    blocked = tmp_path / "fichier"
    blocked.write_text("un fichier à la place du dossier", "utf-8")
    for _ in range(2):
        env = environment(folder, blocked / "cache")
        assert render(env) == "<p>Bonjour, Élodie</p>"
        assert sorted(env.compiled) == ["base.html", "page.html"]


def test_a_damaged_entry_is_compiled_again_and_replaced(tmp_path: Path) -> None:
    folder, cache = templates(tmp_path / "gabarits"), tmp_path / "cache"
    render(environment(folder, cache))
    entries = sorted(cache.glob("gabarit-*.cache"))
    entries[0].write_bytes(bc_magic + b"\x80\x05 abime")  # Jinja's header, then no checksum
    entries[1].write_bytes(b"")
    env = environment(folder, cache)
    assert render(env) == "<p>Bonjour, Élodie</p>"
    assert sorted(env.compiled) == ["base.html", "page.html"]
    rebuilt = environment(folder, cache)
    render(rebuilt)
    assert rebuilt.compiled == []  # both were written again


def test_the_site_build_keeps_its_templates_in_the_build_cache(site_dir: Path) -> None:
    # The same search path as MkDocs gives the theme: our folder, then Material's.
    dirs = [str(THEME_DIR), str(Path(material.__file__).parent / "templates")]
    env = Environment(loader=FileSystemLoader(dirs))
    cache = TemplateCache(ROOT / "build" / "cache" / "gabarits")
    for name in ("main.html", "base.html", "partials/palette.html"):
        source, filename, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
        bucket = cache.get_bucket(env, name, filename, source)
        assert bucket.code is not None, name
