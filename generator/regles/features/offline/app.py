"""The installed app: its names, colours and logo, from the site's settings (`app:` of the
plugin), else from the site's name and its theme (palette, logo). The manifest, the page head
and the icons (icons.py) use them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "DEFAULT_THEME_COLOR",
    "SHORT_NAME_LENGTH",
    "App",
    "Logo",
    "palette_color",
    "readable_on",
    "short_name_of",
    "site_logo",
]

SHORT_NAME_LENGTH = 12  # under a phone's icon: a longer name is cut
# Material's own default primary colour ("indigo"), for a palette it does not name.
DEFAULT_THEME_COLOR = "#4051b5"
BACKGROUND_COLOR = "#ffffff"  # the light scheme's page, shown while the app starts
# Above this relative luminance, a colour takes dark text: so does Material on its light
# primaries (orange 0.49, amber, lime, yellow), and white on the others (light green 0.45).
LIGHT_LUMINANCE = 0.47


@dataclass(frozen=True)
class Logo:
    """What the app's icons are drawn from: the setting that names it (an error names it
    too), its value as written, the files it may be (the first that exists), and whether it
    is a glyph (a Material icon: its shape alone, drawn in the title bar's text colour)."""

    setting: str
    written: str
    candidates: tuple[Path, ...]
    glyph: bool = False


@dataclass(frozen=True)
class App:
    name: str
    short_name: str
    description: str
    theme_color: str
    background_color: str = BACKGROUND_COLOR
    # What the title bar writes on `theme_color`; a glyph logo is drawn in it.
    text_color: str = "#ffffff"
    logo: Logo | None = None  # None: the generator's own icons


# Words a short name does not end on: « Ombres de Lutèce » is « Ombres », not « Ombres de ».
LINKING_WORDS = frozenset(
    {"à", "au", "aux", "de", "des", "du", "en", "et", "la", "le", "les", "ou", "par", "pour",
     "sur", "un", "une"}
)  # fmt: skip


def short_name_of(name: str) -> str:
    """The name's first words that fit under an icon, « Chroniques des Brumes » →
    « Chroniques », never ending on a linking word (« de », « et »…); a first word too long
    is cut."""
    words: list[str] = []
    for word in name.split():
        if len(" ".join([*words, word])) > SHORT_NAME_LENGTH:
            break
        words.append(word)
    while len(words) > 1 and words[-1].casefold() in LINKING_WORDS:
        words.pop()
    return " ".join(words) or name.strip()[:SHORT_NAME_LENGTH]


def _primary(palette: object) -> str:
    """The primary colour's name of the theme's `palette` (its first scheme, if a list)."""
    first = palette[0] if isinstance(palette, list) and palette else palette
    primary = first.get("primary") if isinstance(first, dict) else None
    return str(primary or "indigo").strip().lower().replace(" ", "-")


def palette_color(palette: object, theme_dirs: Sequence[Path | str]) -> str:
    """The colour Material gives the title bar for `palette`, read from its own palette
    stylesheet (`--md-primary-fg-color`); Material's default colour when it names none."""
    name = _primary(palette)
    selector = r"\[data-md-color-primary=" + re.escape(name) + r"\]"
    pattern = re.compile(selector + r"\{--md-primary-fg-color:(#[0-9a-fA-F]{6})")
    for sheet in _palette_sheets(theme_dirs):
        found = pattern.search(sheet.read_text(encoding="utf-8", errors="replace"))
        if found:
            return found.group(1).lower()
    return DEFAULT_THEME_COLOR


def _palette_sheets(theme_dirs: Iterable[Path | str]) -> list[Path]:
    return [
        sheet
        for folder in theme_dirs
        for sheet in sorted((Path(folder) / "assets" / "stylesheets").glob("palette.*.css"))
    ]


def readable_on(color: str) -> str:
    """The colour that reads on `color` (« #rrvvbb »), as Material writes on its primary
    colours: white, or black at 87 % on a light colour (yellow, lime, amber)."""
    channels = [int(color.strip()[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return "#000000de" if luminance > LIGHT_LUMINANCE else "#ffffff"


def site_logo(
    app_icon: str | None,
    theme_logo: str | None,
    theme_icon: str | None,
    *,
    project: Path,
    docs_dir: Path,
    theme_dirs: Sequence[Path | str],
) -> Logo | None:
    """The logo the app's icons are drawn from: `app.icon` (a file, from the folder of
    mkdocs.yml), else the theme's `logo` (a file of the docs or of the theme, as Material
    looks for it), else its `icon.logo` (a Material icon, « material/dice-d20 »); None when
    the site names none."""
    if app_icon and app_icon.strip():
        written = app_icon.strip()
        return Logo("app.icon", written, (project / written,))
    if theme_logo and theme_logo.strip():
        written = theme_logo.strip()
        folders = [docs_dir, *(Path(folder) for folder in theme_dirs)]
        return Logo("theme.logo", written, tuple(folder / written for folder in folders))
    if theme_icon and theme_icon.strip():
        written = theme_icon.strip()
        icons = (Path(folder) / ".icons" / f"{written}.svg" for folder in theme_dirs)
        return Logo("theme.icon.logo", written, tuple(icons), glyph=True)
    return None
