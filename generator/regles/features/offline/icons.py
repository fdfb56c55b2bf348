"""The installed app's icons, made at build time from the site's logo on the site's colour.

The files are those the manifest and the page head name (offline.py, partials/pwa-head.html),
in the generator's theme under the same names: a site without a logo keeps those. Each is the
logo, its transparent margins cut, fitted into a box on the app's colour:

- the icons « any » and the favicon: a rounded square of the colour on a transparent ground;
- the maskable icons: the colour to the edges, the logo inside the centred circle of 80 % of
  the side that every launcher's mask keeps (the « safe zone » of the manifest's spec);
- apple-touch-icon: the colour to the edges too (iOS rounds the corners and shows no
  transparency).

Pillow (the reference imaging library of Python) reads a raster logo and draws every icon;
an SVG logo is first drawn by resvg (resvg_py: the Rust SVG renderer, with no system library
to install), large, then treated as a raster one. A glyph (a Material icon) is its shape
alone, drawn in the title bar's text colour. What is made is kept in the build cache, by the
logo's bytes, the colours and the generator's code: a warm build reads it back.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING

from regles.core.cache import code_digest, keep_object, kept_object
from regles.features.offline.app import App, Logo

# Pillow is imported where an icon is drawn: most builds take the icons from the cache.
if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "ICONS",
    "ICONS_FOLDER",
    "IconError",
    "IconShape",
    "draw_icons",
    "is_generators",
    "logo_file",
    "make_icons",
    "read_logo",
    "site_icons",
]

ICONS_FOLDER = "assets/icons"


@dataclass(frozen=True)
class IconShape:
    name: str  # its file in ICONS_FOLDER
    size: int  # pixels of each side
    full_bleed: bool  # the colour to the edges: the launcher cuts its own shape
    box: float  # the side of the logo's box, as a share of the icon's side


ICONS = (
    IconShape("icone-192.png", 192, False, 0.70),
    IconShape("icone-512.png", 512, False, 0.70),
    # 0.56: the box's corners stay inside the safe zone's circle (0.56 × √2 < 0.8).
    IconShape("icone-masquable-192.png", 192, True, 0.56),
    IconShape("icone-masquable-512.png", 512, True, 0.56),
    IconShape("apple-touch-icon.png", 180, True, 0.64),
    IconShape("favicon.png", 48, False, 0.76),
)
INSET = 1 / 32  # the rounded square's margin, as a share of the side
RADIUS = 0.2  # its corners' radius, as a share of its side
SUPERSAMPLING = 4  # the rounded square is drawn this much larger, then reduced: smooth edges
# A raster logo whose drawing is smaller than this (its longer side, margins cut) would be
# blown up more than 1.4 times in the largest icon's box (358 pixels): blurred.
MIN_LOGO_PIXELS = 256
MAX_LOGO_PIXELS = 40_000_000  # width × height: past that, a photo, not a logo
MAX_ELONGATION = 3  # a logo longer than this on one side is a thin line on a square icon
SVG_PIXELS = 1024  # an SVG logo is drawn to fit this square, then reduced for each icon
SVG_SUFFIXES = (".svg", ".svgz")
CACHE_FOLDER = "icones"


class IconError(Exception):
    """The logo cannot make the icons; the message names the setting, in French."""


def logo_file(logo: Logo) -> Path:
    """The file of `logo`: the first of its candidates that exists."""
    if "://" in logo.written or logo.written.startswith("//"):
        raise IconError(
            f"{logo.setting} : « {logo.written} » est une adresse hors du site ; l’icône de "
            "l’application est faite d’un fichier du site (mettez l’image dans content/)"
        )
    for path in logo.candidates:
        if path.is_file():
            return path
    where = {
        "app.icon": "fichier introuvable (chemin pris du dossier de mkdocs.yml)",
        "theme.logo": "fichier introuvable dans le dossier des pages ni dans ceux du thème",
    }
    what = where.get(logo.setting, "fichier introuvable")
    if logo.glyph:
        what = "icône de Material introuvable (une icône s’écrit « material/dice-d20 »)"
    raise IconError(f"{logo.setting} : « {logo.written} » : {what}")


def read_logo(logo: Logo, data: bytes, svg: bool) -> Image.Image:
    """The logo's drawing (RGBA), its transparent margins cut, from its file's bytes (`svg`:
    an SVG image); IconError when it cannot make an icon (unreadable, too small, too
    elongated, empty)."""
    named = f"{logo.setting} : « {logo.written} »"
    image = _svg_image(named, data) if svg else _raster_image(named, data)
    bounds = image.getchannel("A").getbbox()
    if bounds is None:
        raise IconError(f"{named} : l’image est entièrement transparente, elle ne dessine rien")
    image = image.crop(bounds)
    width, height = image.size
    if max(width, height) > MAX_ELONGATION * min(width, height):
        raise IconError(
            f"{named} : le dessin fait {width} × {height} pixels, trop allongé pour une icône "
            "carrée ; donnez une image à peu près carrée (réglage « icon » sous « app: » du "
            "greffon regles)"
        )
    if not svg and max(width, height) < MIN_LOGO_PIXELS:
        raise IconError(
            f"{named} : le dessin fait {width} × {height} pixels (marges transparentes "
            f"ôtées) ; il en faut {MIN_LOGO_PIXELS} au moins sur son plus grand côté pour "
            "une icône nette, ou une image SVG"
        )
    return image


def _raster_image(named: str, data: bytes) -> Image.Image:
    from PIL import Image, ImageOps

    try:
        with Image.open(io.BytesIO(data)) as opened:
            if opened.width * opened.height > MAX_LOGO_PIXELS:
                raise IconError(
                    f"{named} : image de {opened.width} × {opened.height} pixels, bien trop "
                    "grande pour un logo"
                )
            # A phone's photo says its orientation apart from its pixels.
            image = ImageOps.exif_transpose(opened).convert("RGBA")
    except IconError:
        raise
    except Exception as error:  # whatever Pillow cannot decode: not an image it can read
        raise IconError(
            f"{named} : ce n’est pas une image lisible (PNG, JPEG, WebP, GIF ou SVG attendu)"
        ) from error
    return image


def _svg_image(named: str, data: bytes) -> Image.Image:
    import resvg_py  # only for an SVG logo
    from PIL import Image

    try:
        text = (gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data).decode("utf-8")
        png = resvg_py.svg_to_bytes(svg_string=text, width=SVG_PIXELS, height=SVG_PIXELS)
        with Image.open(io.BytesIO(png)) as drawn:
            return drawn.convert("RGBA")
    except BaseException as error:
        # resvg's own failures are ValueError; an unforeseen one comes as pyo3's
        # PanicException, which is no Exception.
        if isinstance(error, KeyboardInterrupt | SystemExit | GeneratorExit):
            raise
        reason = str(error).strip().splitlines()[0][:200] if str(error).strip() else ""
        raise IconError(
            f"{named} : image SVG illisible{f' ({reason})' if reason else ''}"
        ) from error


def _rgba(color: str, under: tuple[int, int, int] | None = None) -> tuple[int, int, int, int]:
    """« #rrvvbb » or « #rrvvbbaa » as RGBA; over `under`, the colour it makes there, opaque."""
    text = color.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    red, green, blue = (int(text[i : i + 2], 16) for i in (0, 2, 4))
    alpha = int(text[6:8], 16) if len(text) == 8 else 255
    if under is None:
        return red, green, blue, alpha
    red, green, blue = (
        round(c * alpha / 255 + u * (255 - alpha) / 255)
        for c, u in zip((red, green, blue), under, strict=True)
    )
    return red, green, blue, 255


def _background(shape: IconShape, color: tuple[int, int, int, int]) -> Image.Image:
    from PIL import Image, ImageDraw

    if shape.full_bleed:
        return Image.new("RGBA", (shape.size, shape.size), color)
    large = shape.size * SUPERSAMPLING
    canvas = Image.new("RGBA", (large, large), (*color[:3], 0))
    inset = round(large * INSET)
    radius = round((large - 2 * inset) * RADIUS)
    box = (inset, inset, large - inset - 1, large - inset - 1)
    ImageDraw.Draw(canvas).rounded_rectangle(box, radius=radius, fill=color)
    return canvas.resize((shape.size, shape.size), Image.Resampling.LANCZOS)


def _fitted(logo: Image.Image, side: int) -> Image.Image:
    from PIL import Image

    scale = side / max(logo.size)
    size = (max(1, round(logo.width * scale)), max(1, round(logo.height * scale)))
    return logo.resize(size, Image.Resampling.LANCZOS)


def draw_icons(logo: Image.Image, app: App, glyph: bool = False) -> dict[str, bytes]:
    """Every icon (its file name → PNG), `logo` (RGBA, margins cut) on `app`'s colour; a
    `glyph` is its shape alone, in the app's text colour."""
    from PIL import Image

    color = _rgba(app.theme_color)
    if glyph:
        ink = _rgba(app.text_color, under=color[:3])
        shape_only = Image.new("RGBA", logo.size, ink)
        shape_only.putalpha(logo.getchannel("A"))
        logo = shape_only
    icons = {}
    for shape in ICONS:
        icon = _background(shape, color)
        drawing = _fitted(logo, round(shape.size * shape.box))
        layer = Image.new("RGBA", icon.size, (0, 0, 0, 0))
        where = ((shape.size - drawing.width) // 2, (shape.size - drawing.height) // 2)
        layer.paste(drawing, where)
        icon = Image.alpha_composite(icon, layer)
        if shape.full_bleed:
            icon = icon.convert("RGB")  # opaque everywhere: no alpha channel to carry
        out = io.BytesIO()
        icon.save(out, "PNG", optimize=True)
        icons[shape.name] = out.getvalue()
    return icons


@cache
def _libraries() -> str:
    """The versions of what draws the icons: another version may draw them otherwise."""
    found = []
    for name in ("pillow", "resvg-py"):
        try:
            found.append(f"{name}=={version(name)}")
        except PackageNotFoundError:
            found.append(f"{name}==?")
    return ";".join(found)


def make_icons(app: App, cache_dir: Path | None = None) -> dict[str, bytes]:
    """The icons of `app`'s logo (its file name → PNG), from the build cache when a build
    already made them from the same logo, colours and generator."""
    if app.logo is None:
        raise IconError("aucun logo : les icônes du générateur restent")
    path = logo_file(app.logo)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise IconError(
            f"{app.logo.setting} : « {app.logo.written} » : fichier illisible "
            f"({error.strerror or error})"
        ) from error
    key = hashlib.sha256()
    for part in (code_digest(), _libraries(), app.theme_color, app.text_color, path.suffix):
        key.update(part.lower().encode() + b"\0")
    key.update(b"glyph\0" if app.logo.glyph else b"logo\0")
    key.update(data)
    entry = cache_dir / CACHE_FOLDER / f"{key.hexdigest()[:32]}.pickle" if cache_dir else None
    kept = kept_object(entry) if entry is not None else None
    if isinstance(kept, dict) and set(kept) == {shape.name for shape in ICONS}:
        return kept
    svg = path.suffix.lower() in SVG_SUFFIXES
    icons = draw_icons(read_logo(app.logo, data, svg), app, app.logo.glyph)
    if entry is not None:
        keep_object(entry, icons, stale="*.pickle")
    return icons


def site_icons(
    app: App, own: Mapping[str, bool], cache_dir: Path | None = None
) -> dict[str, bytes]:
    """The icons to write into the site (their path in it → PNG): none without a logo, and
    none of those the site has of its own (`own`: path → whether the site's own file, in its
    docs or its theme overrides, is there)."""
    wanted = [s for s in ICONS if not own.get(f"{ICONS_FOLDER}/{s.name}", False)]
    if app.logo is None or not wanted:
        return {}
    icons = make_icons(app, cache_dir)
    return {f"{ICONS_FOLDER}/{s.name}": icons[s.name] for s in wanted}


def is_generators(source: Path | None, theme_dir: Path) -> bool:
    """Whether a file of the site is the generator's theme's (not the site's own)."""
    if source is None:
        return False
    return Path(os.path.realpath(source)).is_relative_to(os.path.realpath(theme_dir))
