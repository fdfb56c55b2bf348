"""The installed app's icons made from the site's logo on its colour (features/offline/
icons.py), on small images: their sizes, the rounded square of « any » and the full bleed of
the maskable ones, the logo inside the safe zone, an SVG logo and a Material icon, the logo
the settings name, a bad logo as a French error naming its setting, the site's own icon
files kept, and the build cache. A whole strict build with a logo: tests/test_another_game.py."""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

import material
import pytest
from PIL import Image, ImageDraw

from regles.core.build import Settings, SiteBuild
from regles.core.site import BuildError
from regles.core.stages import SiteFile
from regles.features.assets.theme import THEME_DIR
from regles.features.offline import icons
from regles.features.offline.app import App, Logo, readable_on, site_logo

TEAL = (0, 148, 133)  # Material's teal: #009485
RED = (200, 30, 30)
APP = App("Chroniques des Brumes", "Chroniques", "", "#009485")
SHAPES = {shape.name: shape for shape in icons.ICONS}


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def disc(side: int = 400, margin: int = 40, color: tuple[int, int, int] = RED) -> Image.Image:
    """A red disc on a transparent square, with transparent margins."""
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    ImageDraw.Draw(image).ellipse((margin, margin, side - margin, side - margin), fill=color)
    return image


def logo(tmp_path: Path, name: str, data: bytes, setting: str = "theme.logo") -> App:
    path = tmp_path / name
    path.write_bytes(data)
    return App(APP.name, APP.short_name, "", APP.theme_color, logo=Logo(setting, name, (path,)))


def opened(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGBA")


def close(pixel: tuple[int, ...], color: tuple[int, ...], tolerance: int = 6) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, color, strict=False))


# Drawing --------------------------------------------------------------------------------------


def test_every_icon_has_its_size_the_site_s_colour_and_the_logo_in_the_middle(
    tmp_path: Path,
) -> None:
    made = icons.make_icons(logo(tmp_path, "logo.png", png(disc())))
    assert set(made) == set(SHAPES)
    for name, data in made.items():
        image = opened(data)
        size = SHAPES[name].size
        assert image.size == (size, size), name
        middle = size // 2
        assert close(image.getpixel((middle, middle)), (*RED, 255)), name  # the logo
        edge = image.getpixel((middle, max(1, round(size * 0.06))))  # above the logo
        assert close(edge, (*TEAL, 255)), (name, edge)  # on the site's colour
        corner = image.getpixel((0, 0))
        if SHAPES[name].full_bleed:
            assert close(corner, (*TEAL, 255)), name  # the launcher cuts its own shape
        else:
            assert corner[3] == 0, name  # « any »: a rounded square on a transparent ground
    # The logo's margins are cut: the disc fills its box (70 % of « any »).
    row = [opened(made["icone-512.png"]).getpixel((x, 256)) for x in range(512)]
    red = [x for x, pixel in enumerate(row) if close(pixel, (*RED, 255), 40)]
    assert 0.66 * 512 < red[-1] - red[0] < 0.72 * 512, (red[0], red[-1])


def test_a_maskable_icon_keeps_the_logo_inside_the_safe_zone(tmp_path: Path) -> None:
    # A logo that fills its square: its corners are the furthest from the centre.
    square = Image.new("RGBA", (400, 400), (*RED, 255))
    made = icons.make_icons(logo(tmp_path, "carre.png", png(square)))
    for name in ("icone-masquable-192.png", "icone-masquable-512.png"):
        image = opened(made[name])
        size = image.width
        outside = [
            (x, y)
            for x in range(size)
            for y in range(size)
            if math.dist((x + 0.5, y + 0.5), (size / 2, size / 2)) > 0.4 * size
            and not close(image.getpixel((x, y)), (*TEAL, 255))
        ]
        assert outside == [], (name, outside[:5])
        # …and takes most of it: its corners near the circle.
        far = max(
            math.dist((x + 0.5, y + 0.5), (size / 2, size / 2))
            for x in range(0, size, 2)
            for y in range(0, size, 2)
            if close(image.getpixel((x, y)), (*RED, 255), 40)
        )
        assert far > 0.37 * size, (name, far / size)


def test_an_svg_logo_is_drawn_as_is(tmp_path: Path) -> None:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 20">'
        '<rect width="10" height="20" fill="#1e3cc8"/></svg>'
    )
    made = icons.make_icons(logo(tmp_path, "logo.svg", svg.encode()))
    image = opened(made["icone-512.png"])
    assert close(image.getpixel((256, 256)), (30, 60, 200, 255))
    # Its proportions kept: half as wide as tall, 70 % of the side tall.
    row = [x for x in range(512) if close(image.getpixel((x, 256)), (30, 60, 200, 255), 30)]
    column = [y for y in range(512) if close(image.getpixel((256, y)), (30, 60, 200, 255), 30)]
    assert abs((row[-1] - row[0]) * 2 - (column[-1] - column[0])) < 6
    assert 0.68 * 512 < column[-1] - column[0] < 0.72 * 512


def test_a_material_icon_is_its_shape_in_the_title_bar_s_text_colour(tmp_path: Path) -> None:
    # As Material's icons are written: a path with no colour (black), on a 24 × 24 box.
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M4 4h16v16H4z"/>'
        "</svg>"
    )
    path = tmp_path / ".icons" / "material" / "carre.svg"
    path.parent.mkdir(parents=True)
    path.write_text(svg, "utf-8")
    found = site_logo(None, None, "material/carre", project=tmp_path, docs_dir=tmp_path,
                      theme_dirs=[tmp_path])  # fmt: skip
    assert found == Logo("theme.icon.logo", "material/carre", (path,), glyph=True)
    teal = App(APP.name, APP.short_name, "", "#009485", text_color="#ffffff", logo=found)
    assert close(opened(icons.make_icons(teal)["icone-512.png"]).getpixel((256, 256)),
                 (255, 255, 255, 255))  # fmt: skip
    # On a light colour, Material writes black at 87 %: so is the glyph, over the colour.
    yellow = App(APP.name, APP.short_name, "", "#ffeb3b", text_color="#000000de", logo=found)
    middle = opened(icons.make_icons(yellow)["icone-512.png"]).getpixel((256, 256))
    assert close(middle, (33, 31, 7, 255)), middle


def test_the_text_colour_is_material_s_on_each_of_its_primaries() -> None:
    # Material's palette: each primary's colour, and the colour of what is written on it.
    (sheet,) = (Path(material.__file__).parent / "templates/assets/stylesheets").glob(
        "palette.*.min.css"
    )
    colours: dict[str, str] = {}
    texts: dict[str, str] = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", sheet.read_text("utf-8")):
        for name in re.findall(r"\[data-md-color-primary=([\w-]+)\](?![^,]*slate)", selectors):
            if found := re.search(r"--md-primary-fg-color:(#[0-9a-f]{6})", body):
                colours[name] = found[1]
            if found := re.search(r"--md-primary-bg-color:(#[0-9a-f]+)", body):
                texts.setdefault(name, found[1])
    assert len(colours) >= 18 and {"teal", "brown", "yellow", "light-green"} <= set(colours)
    for name, colour in colours.items():
        white = texts[name] in ("#fff", "#ffffff")
        assert readable_on(colour) == ("#ffffff" if white else "#000000de"), name


def test_the_logo_is_app_icon_else_the_theme_s_logo_else_its_icon(tmp_path: Path) -> None:
    docs, theme = tmp_path / "content", tmp_path / "theme"
    where = {"project": tmp_path, "docs_dir": docs, "theme_dirs": [theme]}
    assert site_logo(None, None, None, **where) is None  # the generator's icons stay
    assert site_logo("img/app.png", "assets/logo.svg", "material/sword", **where) == Logo(
        "app.icon", "img/app.png", (tmp_path / "img/app.png",)
    )
    assert site_logo(None, "assets/logo.svg", "material/sword", **where) == Logo(
        "theme.logo", "assets/logo.svg", (docs / "assets/logo.svg", theme / "assets/logo.svg")
    )


# Bad logos ------------------------------------------------------------------------------------


def tiny() -> bytes:
    return png(disc(side=120, margin=10))


def long() -> bytes:
    return png(Image.new("RGBA", (900, 200), (*RED, 255)))


def empty() -> bytes:
    return png(Image.new("RGBA", (400, 400), (0, 0, 0, 0)))


@pytest.mark.parametrize(
    ("name", "data", "said"),
    [
        ("logo.png", b"not an image at all", "n’est pas une image lisible"),
        ("logo.svg", b"<svg xmlns='http://www.w3.org/2000/svg'><rect", "image SVG illisible"),
        ("logo.png", tiny(), "il en faut 256 au moins sur son plus grand côté"),
        ("logo.png", long(), "trop allongé pour une icône carrée"),
        ("logo.png", empty(), "entièrement transparente"),
    ],
    ids=["pas-une-image", "svg-casse", "trop-petit", "trop-allonge", "vide"],
)
def test_a_bad_logo_is_a_french_error_naming_its_setting(
    tmp_path: Path, name: str, data: bytes, said: str
) -> None:
    with pytest.raises(icons.IconError) as raised:
        icons.make_icons(logo(tmp_path, name, data, setting="app.icon"))
    assert str(raised.value).startswith(f"app.icon : « {name} »"), raised.value
    assert said in str(raised.value), raised.value


def test_a_missing_logo_and_an_address_are_errors_naming_their_setting(tmp_path: Path) -> None:
    missing = Logo("theme.logo", "assets/logo.png", (tmp_path / "assets/logo.png",))
    said = "theme.logo : « assets/logo.png » : fichier introuvable"
    with pytest.raises(icons.IconError, match=f"^{re.escape(said)}"):
        icons.logo_file(missing)
    address = Logo("theme.logo", "https://exemple.org/logo.png", ())
    with pytest.raises(icons.IconError, match="adresse hors du site"):
        icons.logo_file(address)


# In the build ---------------------------------------------------------------------------------


def theme_file(name: str) -> SiteFile:
    path = THEME_DIR / icons.ICONS_FOLDER / name
    return SiteFile(f"{icons.ICONS_FOLDER}/{name}", path, lambda: "")


def test_the_build_replaces_the_generator_s_icons_but_not_the_site_s_own(tmp_path: Path) -> None:
    app = logo(tmp_path, "logo.png", png(disc()))
    build = SiteBuild(Settings(tmp_path, "mkdocs.yml", app, calculators=tmp_path / "sans-paquet"))
    files = {f.path: f for f in (theme_file(s.name) for s in icons.ICONS)}
    # The site's own favicon (content/assets/icons/favicon.png): MkDocs took it over the theme's.
    own = tmp_path / "content" / "assets" / "icons" / "favicon.png"
    files["assets/icons/favicon.png"] = SiteFile("assets/icons/favicon.png", own, lambda: "")
    changes = build.change_files(files)
    made = {f"{icons.ICONS_FOLDER}/{s.name}" for s in icons.ICONS} - {"assets/icons/favicon.png"}
    assert changes.removed == made
    site = tmp_path / "site"
    build.offline.write_icons(site)
    written = {p.relative_to(site).as_posix() for p in site.rglob("*.png")}
    assert written == made
    assert opened((site / "assets/icons/icone-192.png").read_bytes()).size == (192, 192)


def test_a_site_without_a_logo_keeps_the_generator_s_icons(tmp_path: Path) -> None:
    build = SiteBuild(Settings(tmp_path, "mkdocs.yml", APP, calculators=tmp_path / "sans-paquet"))
    changes = build.change_files({f.path: f for f in (theme_file(s.name) for s in icons.ICONS)})
    assert not changes.removed and not build.offline.icons


def test_a_bad_logo_stops_the_build_naming_its_setting(tmp_path: Path) -> None:
    app = logo(tmp_path, "logo.png", b"GIF89a, mais non", setting="app.icon")
    build = SiteBuild(Settings(tmp_path, "mkdocs.yml", app, calculators=tmp_path / "sans-paquet"))
    with pytest.raises(BuildError, match=r"^icône de l’application : app\.icon : « logo\.png »"):
        build.change_files({f.path: f for f in (theme_file(s.name) for s in icons.ICONS)})


def test_a_warm_build_takes_the_icons_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = logo(tmp_path, "logo.png", png(disc()))
    cache = tmp_path / "cache"
    first = icons.make_icons(app, cache)
    assert len(list((cache / icons.CACHE_FOLDER).iterdir())) == 1

    def no_drawing(*args: object, **kwargs: object) -> None:
        raise AssertionError("icônes redessinées malgré le cache")

    monkeypatch.setattr(icons, "draw_icons", no_drawing)
    assert icons.make_icons(app, cache) == first
    # Another colour is another entry: drawn again.
    other = App(app.name, app.short_name, "", "#795548", logo=app.logo)
    with pytest.raises(AssertionError, match="redessinées"):
        icons.make_icons(other, cache)
