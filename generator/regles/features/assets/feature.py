"""The theme's own files in the site, as a feature of the build: one minified stylesheet and
one deferred script in place of the files they are made of (bundle.py, minify.py),
Material's script opened by the same compile hint, the content's tables in Material's
scrolling container (wrapped_tables.py), and the pages' security policy (csp.py)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from regles.core.site import BuildError, SiteContext
from regles.core.stages import DocumentJob, FileChanges, HtmlJob, SiteFile, Stages
from regles.features.assets.bundle import (
    BundleError,
    ScriptEntry,
    page_script,
    style_bundle,
    with_eager_hint,
)
from regles.features.assets.csp import ScriptPolicy, inline_scripts, template_scripts
from regles.features.assets.minify import MinifyError
from regles.features.assets.nav import PRUNE_FROM, nav_links
from regles.features.assets.theme import THEME_DIR
from regles.features.assets.wrapped_tables import wrap_tables
from regles.features.databases.phrases import scripts_prelude

__all__ = ["THEME_BUNDLE_PREFIX", "AssetsFeature"]

# Material's own script, "assets/javascripts/bundle.<hash>.min.js", and its source map.
THEME_BUNDLE_PREFIX = "assets/javascripts/bundle."


class AssetsFeature:
    def __init__(self, site: SiteContext) -> None:
        self.site = site
        self.stages: Stages | None = None
        self._policy: ScriptPolicy | None = None

    def register(self, stages: Stages) -> None:
        self.stages = stages
        stages.start.append(self.forget_policy)
        stages.converted.append(self.prune_nav)
        stages.files.register(self.bundle, "page_assets", 50)
        stages.html.register(self.tables, "wrapped_tables", 80)
        # Last: the policy covers the document as it is written.
        stages.documents.register(self.security_policy, "security_policy", 10)

    def bundle(self, files: Mapping[str, SiteFile]) -> FileChanges:
        """The pages' stylesheets and scripts (the settings', the generator's first), each
        bundled into one file in place of those it is made of; Material's script hinted."""
        settings = self.site.settings
        changes = FileChanges()
        texts = {
            source: files[source].read() if source in files else None
            for source in settings.stylesheets
        }
        try:
            css = style_bundle(
                settings.stylesheets, texts, settings.node_modules, settings.cache_dir
            )
        except (BundleError, MinifyError) as error:
            raise BuildError(f"extra_css : {error}") from error
        changes.removed |= {source for source in settings.stylesheets if source in files}
        changes.added[css.path] = css.content
        changes.stylesheets = [css.path]
        entries = []
        for source in settings.scripts:
            script = files.get(source)
            if script is None or script.source is None:
                raise BuildError(
                    f"extra_javascript : « {source} » n’est ni un fichier du thème ni une page "
                    "du contenu (un script d’un autre site ne serait pas servi hors ligne et "
                    "la politique de sécurité des pages le refuserait)"
                )
            folder = THEME_DIR if script.source.is_relative_to(THEME_DIR) else settings.project
            entries.append(ScriptEntry(script.source, folder))
        # The databases' files and sentences for the scripts, and the systems' folders and the
        # databases they link to (the search ranks the reader's game first), once in the page
        # script.
        folders = settings.system_folders.by_folder()
        systems = json.dumps(folders, ensure_ascii=False, sort_keys=True)
        served = json.dumps(settings.system_folders.served_by(), ensure_ascii=False, sort_keys=True)
        prelude = f"(window.rules = window.rules || {{}}).systems = {systems};"
        prelude += f"window.rules.servedBy = {served};"
        prelude += scripts_prelude(settings.databases)
        try:
            js, graph = page_script(entries, settings.node_modules, settings.cache_dir, prelude)
        except MinifyError as error:
            raise BuildError(f"extra_javascript : {error}") from error
        changes.removed |= {
            path
            for path, file in files.items()
            if file.source is not None and Path(os.path.normpath(file.source)) in graph
        }
        changes.added[js.path] = js.content
        changes.scripts = [js.path]
        self._hint_theme_bundle(files, changes)
        return changes

    def _hint_theme_bundle(self, files: Mapping[str, SiteFile], changes: FileChanges) -> None:
        """Material's bundle opened by V8's compile hint, as ours is (bundle.py), its source
        map shifted by the line added."""
        for path, file in files.items():
            if not (path.startswith(THEME_BUNDLE_PREFIX) and path.endswith(".min.js")):
                continue
            map_file = files.get(path + ".map")
            source_map = map_file.read() if map_file is not None else None
            script, shifted = with_eager_hint(file.read(), source_map)
            changes.removed.add(path)
            changes.added[path] = script
            if map_file is not None and shifted is not None:
                changes.removed.add(map_file.path)
                changes.added[map_file.path] = shifted

    def tables(self, html: str, job: HtmlJob) -> str:
        """The content's tables in Material's scrolling container: its script would move
        them at load."""
        return wrap_tables(html)

    def prune_nav(self, site_dir: Path) -> None:
        """Whether the theme's nav is pruned (nav.py): for a nav of more than PRUNE_FROM
        pages, read once MkDocs has read it."""
        if self.stages is not None:
            pruned = nav_links(self.site.nav) > PRUNE_FROM
            self.stages.template_globals["regles_nav_pruned"] = pruned

    def forget_policy(self) -> None:
        self._policy = None

    def policy(self) -> ScriptPolicy:
        """The pages' policy, made once every page is read: the scripts of the theme's
        templates, those the features write, and those of the pages the site declares."""
        if self._policy is None:
            settings = self.site.settings
            scripts = template_scripts(settings.theme_dirs)
            scripts |= self.stages.inline_scripts if self.stages else set()
            for uri, page in self.site.pages:
                if uri in settings.pages_with_scripts:
                    scripts.update(inline_scripts(page.text))
            self._policy = ScriptPolicy(scripts)
        return self._policy

    def security_policy(self, document: str, job: DocumentJob) -> str:
        """Every page gets the same Content-Security-Policy, and a page whose document holds
        a script that no source wrote stops the build: it would not run, and it came from
        somewhere it should not (a template that writes a value into a script, an export's
        text let through as markup). Not under `mkdocs serve`, whose injected live-reload
        script is inline."""
        policy = self.policy()
        unknown = policy.unknown(document)
        if unknown:
            start = " ".join(unknown[0].split())[:80]
            raise BuildError(
                f"{job.uri} : script en ligne que nulle source ne déclare (« {start} ») ; un "
                "script de gabarit doit être le même sur chaque page (passez une valeur par un "
                "attribut data-…), un script de page se déclare sous « pages_with_scripts »"
            )
        return document if self.site.settings.serving else policy.add(document)
