"""The pages' security policy, on strings and small template folders: its hashes come from the
scripts the sources write, never from what a page happens to hold."""

from __future__ import annotations

from pathlib import Path

from regles.features.assets.csp import ScriptPolicy, inline_scripts, script_hash, template_scripts


def test_only_scripts_a_browser_runs_are_read() -> None:
    document = (
        "<script>a()</script>"
        '<script src="x.js"></script>'
        '<script id="__config" type="application/json">{"b": 1}</script>'
        "<SCRIPT type=module>c()</SCRIPT >"
    )
    assert list(inline_scripts(document)) == ["a()", "c()"]


def test_the_templates_used_give_their_scripts_unless_jinja_fills_them(tmp_path: Path) -> None:
    site, theme = tmp_path / "site", tmp_path / "theme"
    (site / "partials").mkdir(parents=True)
    (theme / "partials").mkdir(parents=True)
    # The site's own copy of a template is the one used: the theme's is not.
    (site / "partials" / "a.html").write_text("<script>mine()</script>", encoding="utf-8")
    (theme / "partials" / "a.html").write_text("<script>shadowed()</script>", encoding="utf-8")
    (theme / "main.html").write_text(
        "<script>const root = '{{ base_url }}';</script>\n<script>\n  same();\n</script>",
        encoding="utf-8",
    )
    assert template_scripts([site, theme]) == {"mine()", "\n  same();\n"}


def test_a_page_with_a_script_no_source_wrote_is_named() -> None:
    policy = ScriptPolicy({"known()"})
    page = '<html><head><meta charset="utf-8"><title>T</title></head><body>'
    page += "<script>known()</script><p>Feu</p><script>alert(1)</script></body></html>"
    assert policy.unknown(page) == ["alert(1)"]
    written = policy.add(page)
    assert written.index("Content-Security-Policy") < written.index("<title>")
    assert script_hash("known()") in written
    assert script_hash("alert(1)") not in written
    # Given again (mkdocs serve builds the same page twice), the page keeps one policy.
    assert policy.add(written).count("Content-Security-Policy") == 1
