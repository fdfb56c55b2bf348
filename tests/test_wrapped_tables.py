"""regles/features/assets/wrapped_tables.py: which tables are written in Material's container, and
how."""

from __future__ import annotations

from regles.features.assets.wrapped_tables import TABLE_CLASS, wrap_tables

WRAPPER = '<div class="md-typeset__scrollwrap"><div class="md-typeset__table">'


def test_a_table_without_a_class_is_wrapped_and_keeps_its_attributes() -> None:
    html = '<p>a</p><table id="entry-table" data-x="1">\n<tr><td>1</td></tr></table><p>b</p>'
    assert wrap_tables(html) == (
        f'<p>a</p>{WRAPPER}<table class="{TABLE_CLASS}" id="entry-table" data-x="1">\n'
        "<tr><td>1</td></tr></table></div></div><p>b</p>"
    )


def test_tables_with_a_class_and_text_that_looks_like_one_are_left_alone() -> None:
    html = (
        '<table class="calculateur-table" data-sortie="x"><tr><td>1</td></tr></table>'
        "<pre><code>&lt;table&gt;&lt;/table&gt;</code></pre><tablette></tablette>"
    )
    assert wrap_tables(html) == html


def test_each_table_is_wrapped_up_to_its_own_end() -> None:
    html = "<table><tr><td>1</td></tr></table><p>x</p><table><tr><td>2</td></tr></table>"
    wrapped = wrap_tables(html)
    assert wrapped.count(WRAPPER) == 2
    assert f"</table></div></div><p>x</p>{WRAPPER}" in wrapped


def test_a_table_that_holds_another_is_left_to_material() -> None:
    html = "<table><tr><td><table><tr><td>1</td></tr></table></td></tr></table>"
    assert wrap_tables(html) == html
