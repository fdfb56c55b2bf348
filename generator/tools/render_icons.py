"""Draw the app icons (a d20 on Material's brown) and render them to PNG with headless Chromium.

One-off: the PNGs are committed. Run again after changing the drawing:

    .venv/bin/python generator/tools/render_icons.py

It writes into the generator's theme (regles/theme/assets/icons/); it is no part of the
installed package.
"""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent.parent / "regles" / "theme" / "assets" / "icons"
BROWN = "#795548"  # Material "brown" 500: the site's primary colour
BROWN_DARK = "#4e342e"  # brown 800
BROWN_LIGHT = "#d7ccc8"  # brown 100
BROWN_PALE = "#efebe9"  # brown 50


def point(radius: float, degrees: float, scale: float) -> str:
    angle = math.radians(degrees)
    x = 256 + scale * radius * math.cos(angle)
    y = 256 + scale * radius * math.sin(angle)
    return f"{x:.1f},{y:.1f}"


def d20(scale: float) -> str:
    """A d20 seen face-on: hexagonal outline, the front face with « 20 », its neighbours."""
    outer, inner = 190.0, 108.0
    hexagon = [point(outer, -90 + 60 * k, scale) for k in range(6)]
    face = [point(inner, a, scale) for a in (-90, 30, 150)]
    h, t = hexagon, face
    # The three faces that share an edge with the front face, shaded a little.
    neighbours = [(t[0], t[1], h[1]), (t[1], t[2], h[3]), (t[2], t[0], h[5])]
    edges = [
        (t[0], h[5]), (t[0], h[0]), (t[0], h[1]),
        (t[1], h[1]), (t[1], h[2]), (t[1], h[3]),
        (t[2], h[3]), (t[2], h[4]), (t[2], h[5]),
    ]  # fmt: skip
    stroke = 11 * scale
    parts = [
        f'<polygon points="{" ".join(hexagon)}" fill="#ffffff"/>',
        *(f'<polygon points="{" ".join(n)}" fill="{BROWN_PALE}"/>' for n in neighbours),
        f'<polygon points="{" ".join(face)}" fill="{BROWN_LIGHT}"/>',
        f'<g stroke="{BROWN_DARK}" stroke-width="{stroke:.1f}" stroke-linecap="round">',
        *(
            f'<line x1="{a.split(",")[0]}" y1="{a.split(",")[1]}" '
            f'x2="{b.split(",")[0]}" y2="{b.split(",")[1]}"/>'
            for a, b in edges
        ),
        "</g>",
        f'<polygon points="{" ".join(face)}" fill="none" stroke="{BROWN_DARK}" '
        f'stroke-width="{stroke:.1f}" stroke-linejoin="round"/>',
        f'<polygon points="{" ".join(hexagon)}" fill="none" stroke="{BROWN_DARK}" '
        f'stroke-width="{stroke * 1.3:.1f}" stroke-linejoin="round"/>',
        f'<text x="256" y="{256 + 20 * scale:.1f}" text-anchor="middle" '
        f'font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-weight="bold" '
        f'font-size="{62 * scale:.1f}" fill="{BROWN_DARK}">20</text>',
    ]
    return "\n  ".join(parts)


def svg(maskable: bool) -> str:
    if maskable:
        # Full bleed; the die stays inside the safe zone (a centred circle of radius 40 %).
        background = f'<rect width="512" height="512" fill="{BROWN}"/>'
        glyph = d20(0.88)
    else:
        background = f'<rect x="16" y="16" width="480" height="480" rx="104" fill="{BROWN}"/>'
        glyph = d20(1.0)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">\n  '
        f"{background}\n  {glyph}\n</svg>\n"
    )


# file name, size in px, maskable (full bleed) or not
ICONS = [
    ("icone-192.png", 192, False),
    ("icone-512.png", 512, False),
    ("icone-masquable-192.png", 192, True),
    ("icone-masquable-512.png", 512, True),
    ("apple-touch-icon.png", 180, True),  # iOS rounds the corners and shows no transparency
    ("favicon.png", 48, False),
]


def main() -> None:
    executable = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, args=["--no-sandbox", "--disable-gpu"]
        )
        for name, size, maskable in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                "<!doctype html><style>html,body{margin:0;background:transparent}"
                f"svg{{display:block;width:{size}px;height:{size}px}}</style>{svg(maskable)}"
            )
            page.screenshot(path=str(HERE / name), omit_background=True)
            page.close()
            print(f"{name}: {size} px")
        browser.close()


if __name__ == "__main__":
    main()
