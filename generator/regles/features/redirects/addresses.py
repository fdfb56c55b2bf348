"""The addresses the generated pages have had, as the site keeps them in a file beside
mkdocs.yml, and the small page that leads a reader from an old address to the new one.

A generated page's address follows the site's words and folders: `words: list:` moves the
readers' lists page from `bestiaire/grimoire/` to `bestiaire/carnet-de-chasse/`. Each such
page has a key (`GeneratedPage.key`) that stays when its address changes. The file keeps,
for each key, every address it has had (the first one first); an old address that no page
or file of the site holds now gets a page that leads to the current one, with the query
string and the fragment of the address it was opened at (a shared list's `?nom=…&sorts=…`).

The file is the site's memory: a build on GitHub's runners starts from a clean clone, so
the owner commits it with the site. Without it (a site made before it existed), the build
starts one from the addresses the pages had with the default words and titles.
"""

from __future__ import annotations

import html
import json
import posixpath
from collections.abc import Callable, Mapping

from regles.features.printing.printing import relative_url

__all__ = [
    "REDIRECT_SCRIPT",
    "AddressesError",
    "addresses_text",
    "moves",
    "page_file",
    "read_addresses",
    "redirect_page",
    "remembered",
    "url_of",
]

# What the owner reads at the top of the file.
ABOUT = (
    "Tenu à jour par chaque construction du site (générateur regles) : gardez ce fichier "
    "dans le dépôt, avec mkdocs.yml. Chaque page que le générateur écrit (les pages d’une "
    "base, la page d’impression d’un système) y a toutes les adresses qu’elle a eues ; une "
    "ancienne adresse mène à la nouvelle, liens de partage compris."
)
ABOUT_KEY = "à savoir"
PAGES_KEY = "pages"

# The redirect page's one script, the same in every such page (the pages' security policy
# allows it by its hash, features/assets/csp.py): the new address is the page's canonical
# link, which the browser has made absolute; the reader's query and fragment go with it.
REDIRECT_SCRIPT = (
    "var a=new URL(document.querySelector('link[rel=canonical]').href);"
    "a.search=location.search;a.hash=location.hash;location.replace(a.href)"
)


class AddressesError(ValueError):
    """The file cannot be read as the build wrote it: a French message, and its line."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def is_address(url: object) -> bool:
    """A page's address in the site as MkDocs writes it (`bestiaire/grimoire/`,
    `bestiaire/grimoire.html`): relative to the site's root, nothing above it."""
    if not isinstance(url, str) or not url.strip("/") or url != url.strip():
        return False
    if url.startswith("/") or any(c in url for c in "\\?#\0") or "//" in url:
        return False
    path = url.rstrip("/")
    return posixpath.normpath(path) == path and not path.startswith("..")


def read_addresses(text: str) -> dict[str, list[str]]:
    """The addresses of each key, as the file keeps them; AddressesError when the file is
    not one the build wrote (a merge conflict left in it, a hand edit gone wrong)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        conflict = "<<<<<<<" in text
        hint = " : un conflit de fusion de git y est resté" if conflict else ""
        raise AddressesError(f"JSON illisible ({error.msg}){hint}", error.lineno) from error
    pages = data.get(PAGES_KEY) if isinstance(data, dict) else None
    if not isinstance(pages, dict):
        raise AddressesError(f"« {PAGES_KEY} » attendu : les adresses de chaque page")
    addresses: dict[str, list[str]] = {}
    for key, urls in pages.items():
        if not isinstance(urls, list) or not urls or not all(is_address(u) for u in urls):
            raise AddressesError(
                f"« {key} » : une liste d’adresses du site est attendue, comme "
                f'["bestiaire/grimoire/"] ; reçu : {json.dumps(urls, ensure_ascii=False)}'
            )
        addresses[key] = list(dict.fromkeys(urls))
    return addresses


def addresses_text(addresses: Mapping[str, list[str]]) -> str:
    """The file's text: the same addresses always give the same text (keys in order)."""
    data = {ABOUT_KEY: ABOUT, PAGES_KEY: dict(sorted(addresses.items()))}
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def remembered(
    recorded: Mapping[str, list[str]], current: Mapping[str, str]
) -> dict[str, list[str]]:
    """`recorded` with each key's current address added after those it had, if new; keys
    no page has now are kept (their database may come back)."""
    addresses = {key: list(urls) for key, urls in recorded.items()}
    for key, url in current.items():
        urls = addresses.setdefault(key, [])
        if url not in urls:
            urls.append(url)
    return dict(sorted(addresses.items()))


def moves(
    addresses: Mapping[str, list[str]], current: Mapping[str, str], taken: Callable[[str], bool]
) -> tuple[dict[str, str], dict[str, str]]:
    """The old addresses that lead to a new one (old → current address of its page), and
    those that another page or file of the site holds now (old → the key that had it),
    which stay that page's. An address two keys have had leads to the first one's page."""
    redirects: dict[str, str] = {}
    held: dict[str, str] = {}
    for key, urls in sorted(addresses.items()):
        new = current.get(key)
        if new is None:
            continue
        for old in urls:
            if old == new or old in redirects or old in held:
                continue
            if taken(old):
                held[old] = key
            else:
                redirects[old] = new
    return redirects, held


def url_of(uri: str, directory_urls: bool) -> str:
    """A page's address from its path in the docs, as MkDocs makes it (`use_directory_urls`):
    `bestiaire/grimoire.md` → `bestiaire/grimoire/` or `bestiaire/grimoire.html`."""
    stem = uri.removesuffix(".md")
    return f"{stem}/" if directory_urls else f"{stem}.html"


def page_file(url: str) -> str:
    """The file that serves an address: `x/` → `x/index.html`."""
    return f"{url}index.html" if url.endswith("/") else url


def redirect_page(old: str, new: str, title: str) -> str:
    """The page at `old` that leads to `new` (addresses in the site), whose title is
    `title` (text): at once with the reader's query and fragment, by its script; without
    JavaScript, by a refresh to the new address; and by a link the reader can follow. Its
    addresses are relative: the site may be published under a sub-path."""
    href = html.escape(relative_url(new, old))
    text = html.escape(title)
    return (
        "<!doctype html>\n"
        '<html lang="fr">\n'
        "<head>\n"
        '<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="robots" content="noindex">\n'
        f"<title>{text}</title>\n"
        f'<link rel="canonical" href="{href}">\n'
        f"<script>{REDIRECT_SCRIPT}</script>\n"
        f'<noscript><meta http-equiv="refresh" content="0; url={href}"></noscript>\n'
        "</head>\n"
        "<body>\n"
        f'<p>Cette page a changé d’adresse : <a href="{href}">{text}</a>.</p>\n'
        "</body>\n"
        "</html>\n"
    )
