"""The installed app: its names and colours, from the site's settings (`app:` of the plugin),
else from the site's name and its theme's palette. The manifest and the page head use them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DEFAULT_THEME_COLOR", "SHORT_NAME_LENGTH", "App", "palette_color", "short_name_of"]

SHORT_NAME_LENGTH = 12  # under a phone's icon: a longer name is cut
# Material's own default primary colour ("indigo"), for a palette it does not name.
DEFAULT_THEME_COLOR = "#4051b5"
BACKGROUND_COLOR = "#ffffff"  # the light scheme's page, shown while the app starts


@dataclass(frozen=True)
class App:
    name: str
    short_name: str
    description: str
    theme_color: str
    background_color: str = BACKGROUND_COLOR


def short_name_of(name: str) -> str:
    """The name's first words that fit under an icon, « Chroniques des Brumes » →
    « Chroniques »; a first word too long is cut."""
    words = name.split()
    short = ""
    for word in words:
        candidate = f"{short} {word}".strip()
        if len(candidate) > SHORT_NAME_LENGTH:
            break
        short = candidate
    return short or name.strip()[:SHORT_NAME_LENGTH]


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
