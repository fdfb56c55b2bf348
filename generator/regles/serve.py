"""Rebuilds under `mkdocs serve`: what a save touches is converted and written again, by
MkDocs' own code and the last build's objects; anything else is a full build.

The plugin keeps, under `mkdocs serve`, what MkDocs made in its last build (`ServedBuild`:
the config, files, nav and templates, and the build's own state) and gives the server a
`Rebuilder` as its builder (`on_serve`). At each change of a watched file, the rebuilder
compares the sources with those the last build read, by content (core/incremental.py):

- nothing changed (a file touched, an editor's swap file): nothing is done;
- only pages of the owner changed, and what the other pages read of each (its face: its
  headings, anchors, calculators; its title and front matter) is the same: those pages are
  read, converted and written again (`rebuild_pages`), with the print page of their system
  and the glossary's data, and served;
- only the sections of some pages changed (a heading below the title renamed, an anchor):
  the same, after every page's Markdown passes are run again with the new link targets,
  with the pages that now read otherwise or link to those sections;
- anything else (a page's title, a page added or removed, the export, mkdocs.yml, the
  rules, the theme): MkDocs' full build, as without this module.

The search index and the offline copy (`sw.js` and its packs) are updated right after, in
the background (`Rebuilder._update`): for a few seconds (a page's save on a site of 800
pages, some ten) the search finds the page's old text. Either way, the files are then those
a full build of the same sources writes (tests/test_incremental.py). A rebuild that fails
(an error in a page, a warning under `--strict`) writes nothing more than a full build
would; the next one starts again from the last build that succeeded, with the pages the
failed one read.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from mkdocs.commands.build import _build_page, _populate_page
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort
from mkdocs.exceptions import BuildError as MkDocsBuildError
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils import CountHandler
from mkdocs.utils.meta import get_data

from regles.core.build import BuildError, SiteBuild, as_written
from regles.core.incremental import Change, Stamp, changed_paths, scan_sources
from regles.core.words import duration
from regles.features.glossary.glossary import DATA_FILE
from regles.features.search.update import Cancelled, RecordCache

__all__ = ["Rebuilder", "ServedBuild", "rebuild_pages", "source_roots"]

log = logging.getLogger("mkdocs.plugins.regles.serve")

# The plugins whose state a page's rebuild alone keeps right: a site with any other is
# always built in full.
KNOWN_PLUGINS = frozenset({"regles"})


def source_roots(config: MkDocsConfig, watched: Iterable[str] = ()) -> tuple[Path, ...]:
    """What the server watches: the pages' folder, mkdocs.yml, the folders of `watch`
    (the rules package, the theme's overrides) and `watched` (what the server itself was
    told to watch)."""
    roots = [config.docs_dir, config.config_file_path, *config.watch, *watched]
    return tuple(sorted({Path(root).resolve() for root in roots if root}))


@dataclass
class ServedBuild:
    """The last build under `mkdocs serve` that succeeded: MkDocs' objects, the build's
    state, and the sources as it read them (`sources`, under `roots`)."""

    config: MkDocsConfig
    files: Files
    nav: Navigation
    env: Any  # jinja2.Environment
    build: SiteBuild
    roots: tuple[Path, ...]
    sources: dict[Path, Stamp]
    # Files of the site written or removed since the offline copy last listed them.
    touched: set[str] = field(default_factory=set)
    # Pages a rebuild that failed read or converted again without writing them: the next
    # rebuild does them again, changed or not (their state is no longer their files').
    pending: set[str] = field(default_factory=set)

    @property
    def site_dir(self) -> Path:
        return Path(self.config.site_dir)


class FullBuildNeeded(Exception):
    """What makes a change need a full build, in French, for the log."""


@dataclass(frozen=True)
class Rebuilt:
    pages: tuple[str, ...]  # the owner's pages saved (and those a failed rebuild left)
    others: tuple[str, ...]  # the pages that read their sections, converted again with them
    written: frozenset[str]  # files of the site written (paths in it)
    seconds: float


def changed_pages(served: ServedBuild, changed: Iterable[Path]) -> list[File]:
    """The owner's pages whose files are the changed ones, if they all are such pages
    (still there, built), with the pages a failed rebuild left pending; else
    FullBuildNeeded."""
    others = sorted(set(served.config.plugins) - KNOWN_PLUGINS)
    if others:
        raise FullBuildNeeded(f"le site a d’autres greffons que regles ({', '.join(others)})")
    by_path = {
        Path(f.abs_src_path).resolve(): f
        for f in served.files.documentation_pages(inclusion=InclusionLevel.is_in_serve)
        if f.abs_src_path and f.page is not None
    }
    project = Path(served.config.config_file_path).parent
    pages = {}
    for path in sorted(changed):
        file = by_path.get(path)
        if file is None or not path.is_file():
            shown = as_written(path, project)
            what = "n’est plus là" if not path.exists() else "n’est pas une page déjà construite"
            raise FullBuildNeeded(f"{shown} a changé et {what}")
        pages[file.src_uri] = file
    for uri in served.pending:
        pending = served.files.get_file_from_path(uri)
        if pending is None or pending.page is None:
            raise FullBuildNeeded(f"{uri} n’est plus une page")
        pages.setdefault(uri, pending)
    return [pages[uri] for uri in sorted(pages)]


def rebuild_pages(served: ServedBuild, files: list[File]) -> Rebuilt:
    """Those pages read, converted and written again, with what is made of them (their
    system's print page, the glossary's data), as the last build made them. When the
    sections of one changed (core/incremental.py `Change`), every page's Markdown passes
    are run again with the new link targets, and the pages they now make otherwise, or
    that link to a section of a changed page, are converted and written again too.
    FullBuildNeeded, before any file is written, when what every page reads of one
    changed (its title, its calculators, its front matter). An error in a page, or a
    warning under `--strict`, raises Abort as MkDocs' build does."""
    start = time.monotonic()
    config, build = served.config, served.build
    counter = CountHandler()
    counter.setLevel(logging.WARNING)
    logger = logging.getLogger("mkdocs")
    if config.strict:
        logger.addHandler(counter)
    try:
        changes: dict[str, Change] = {}
        served.pending |= {file.src_uri for file in files}
        build.forget_pages(file.src_uri for file in files)
        for file in files:
            uri = file.src_uri
            if build.check_source_file(uri, file.content_bytes) is not None:
                raise FullBuildNeeded(f"{uri} n’est pas lisible en UTF-8")
            changes[uri] = build.reread_page(uri, file.content_string)
            if changes[uri] == "page":
                raise FullBuildNeeded(f"{uri} : son titre ou ses calculateurs ont changé")
        others: set[str] = set()
        if "sections" in changes.values():
            build.reindex()
            others = _reading_the_sections(served, set(changes))
            served.pending |= others
        pages = []
        documentation = served.files.documentation_pages(inclusion=InclusionLevel.is_in_serve)
        for file in documentation:
            uri = file.src_uri
            page = file.page
            if page is None or (uri not in changes and uri not in others):
                continue
            seen = (page.title, dict(page.meta), page.present_anchor_ids)
            _populate_page(page, config, served.files)
            now = (page.title, dict(page.meta), page.present_anchor_ids)
            if now[:2] != seen[:2] or (now[2] != seen[2] and changes.get(uri) != "sections"):
                what = "son titre, son en-tête YAML ou ses ancres"
                raise FullBuildNeeded(f"{uri} : {what} ont changé")
            pages.append(page)
        build.write_report()
        printed = {p for page in pages if (p := build.printing.print_page_of(page.file.src_uri))}
        written = []
        for page in pages + _pages_of(served.files, printed):
            excluded = page.file.inclusion.is_excluded()  # type: ignore[no-untyped-call]
            _build_page(page, config, documentation, served.nav, served.env, excluded=excluded)
            written.append(page.file.dest_uri)
        level = config.validation.links.anchors
        for page in pages:
            page.validate_anchor_links(files=served.files, log_level=level)
        if any(page.file.src_uri in build.glossary.pages for page in pages):
            build.glossary.write_data(served.site_dir)
            written.append(DATA_FILE)
        build.calculators.close()  # a new table's call started the rules' process again
        if counts := counter.get_counts():
            shown = ", ".join(f"{v} {k.lower()}s" for k, v in counts)
            raise Abort(f"Aborted with {shown} in strict mode!")
        served.pending.clear()
    except (BuildError, MkDocsBuildError) as error:
        log.error(str(error))
        raise Abort("Aborted with a BuildError!") from error
    finally:
        logger.removeHandler(counter)
    return Rebuilt(
        tuple(changes), tuple(sorted(others)), frozenset(written), time.monotonic() - start
    )


def _reading_the_sections(served: ServedBuild, changed: set[str]) -> set[str]:
    """The pages other than `changed` that their new sections change: those whose Markdown
    passes (references, links, their checks: run again, their problems with them) now give
    another text, and those that link to a section of one of them (the print annotations
    name it)."""
    build = served.build
    found = set()
    files = [
        file
        for file in served.files.documentation_pages(inclusion=InclusionLevel.is_in_serve)
        if file.src_uri not in changed and file.page is not None
    ]
    build.forget_pages((file.src_uri for file in files), ("passes",))
    for file in files:
        uri, page = file.src_uri, file.page
        assert page is not None
        source = file.content_string
        markdown, _ = get_data(source)
        before = build.rendered.get(uri)
        again = build.render_markdown(uri, markdown, source)
        linked = {target.src_uri for target in page.links_to_anchors or ()}
        if again != before or linked & changed:
            found.add(uri)
    return found


def _readers(rebuilt: Rebuilt) -> str:
    """« et les 2 pages qui renvoient à ses sections », for the log."""
    count = len(rebuilt.others)
    if not count:
        return ""
    whose = "ses" if len(rebuilt.pages) == 1 else "leurs"
    if count == 1:
        return f", et la page qui renvoie à {whose} sections ({rebuilt.others[0]})"
    return f", et les {count} pages qui renvoient à {whose} sections"


def _pages_of(files: Files, uris: Iterable[str]) -> list[Page]:
    found = [files.get_file_from_path(uri) for uri in sorted(uris)]
    return [file.page for file in found if file is not None and file.page is not None]


class Serving(Protocol):
    """What keeps the last build that succeeded (the plugin): None when there is none, or
    when it can no longer be rebuilt from."""

    served: ServedBuild | None


class Rebuilder:
    """The server's builder: each call rebuilds what the sources' changes touch, from the
    last build that succeeded (`serving.served`), or calls `full`, MkDocs' own builder.
    `last` says what the last call did: "rien", "pages", "complète", or "échec"."""

    def __init__(self, serving: Serving, full: Callable[[], None]) -> None:
        self.serving = serving
        self.full = full
        self.records = RecordCache()  # each page's search records, across builds
        self.last = ""
        self.rebuilt: Rebuilt | None = None
        self._after: tuple[threading.Thread, threading.Event, ServedBuild] | None = None

    def __call__(self) -> None:
        served = self.serving.served
        if served is None:
            self.settle(cancel=True)
            return self._full()
        sources = scan_sources(served.roots, served.sources)
        changed = changed_paths(served.sources, sources)
        if not changed and not served.pending:
            # A file written beside the sources (Python's __pycache__, an editor's backup):
            # the search index and the offline copy under way go on.
            log.info("Aucune source n’a changé : rien à reconstruire")
            self.last, self.rebuilt = "rien", None
            return None
        self.settle(cancel=True)
        self.last, self.rebuilt = "échec", None
        try:
            rebuilt = rebuild_pages(served, changed_pages(served, changed))
        except FullBuildNeeded as reason:
            log.info("Reconstruction de tout le site : %s", reason)
            return self._full()
        served.sources = sources
        served.touched |= rebuilt.written
        self.last, self.rebuilt = "pages", rebuilt
        one = len(rebuilt.pages) == 1
        log.info(
            "%s en %s : %s (la recherche et la copie hors ligne suivent)",
            ("Page reconstruite" if one else "Pages reconstruites")
            + ("" if rebuilt.others else " seule" if one else " seules"),
            duration(rebuilt.seconds, 2),
            ", ".join(rebuilt.pages) + _readers(rebuilt),
        )
        cancel = threading.Event()
        thread = threading.Thread(target=self._update, args=(served, cancel), name="regles-apres")
        self._after = (thread, cancel, served)
        thread.start()
        return None

    def _full(self) -> None:
        self.last, self.rebuilt = "échec", None
        self.full()
        self.last = "complète"

    def _update(self, served: ServedBuild, cancel: threading.Event) -> None:
        """The search index and the offline copy, as a full build would write them."""
        start = time.monotonic()
        build = served.build
        try:
            changes = build.search.update_index(self.records, cancel)
            searched = time.monotonic() - start
            served.touched |= changes.written | changes.removed
            build.offline.update(served.site_dir, served.touched)
            served.touched.clear()
        except Exception as error:
            # Stopped for a newer change (Cancelled, or its child's pipes closed under it by
            # `settle`): the next update does it all.
            if isinstance(error, Cancelled) or cancel.is_set():
                log.debug("Recherche et copie hors ligne : arrêtées pour une modification récente")
                return
            # Whatever else it is, the next save's full build starts anew.
            log.error("%s ; la prochaine modification reconstruira tout le site", error)
            self.serving.served = None
            return
        log.info(
            "Recherche et copie hors ligne à jour en %s (l’index de recherche : %s)",
            duration(time.monotonic() - start),
            duration(searched),
        )

    def settle(self, cancel: bool = False) -> None:
        """Wait for the search index and the offline copy (stopped first with `cancel`)."""
        if self._after is None:
            return
        thread, stop, served = self._after
        if cancel:
            stop.set()
            if served.build.search.update is not None:
                served.build.search.update.stop()
        thread.join()
        self._after = None
