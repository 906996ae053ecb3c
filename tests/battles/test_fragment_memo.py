"""``{% memo %}`` (battles.templatetags.memo): a fragment is rendered once per
content, language and escaping, in a context holding only the names it is
given, and the battle page's state region shows a change the moment the
state has it, however warm the kept fragments are."""
from __future__ import annotations

import itertools
import json
import re

import pytest
from django.template import Context, Template
from django.utils import translation
from django.utils.safestring import mark_safe

from battles.templatetags import memo
from tests.battles import test_recording
from tests.battles.test_recording import _replayed, client_for, declare

table_battle = test_recording.table_battle  # a mustered battle, the defender to move, a player on each side


class Counter:
    """Not plain data: prints how many times it was printed."""

    def __init__(self) -> None:
        self.n = itertools.count(1)

    def __str__(self) -> str:
        return str(next(self.n))


def render(source: str, **values) -> str:
    return Template("{% load i18n memo %}" + source).render(Context(values))


@pytest.fixture(autouse=True)
def _empty_store(monkeypatch):
    memo._kept.clear()
    monkeypatch.setattr(memo, "_size", 0)
    yield
    memo._kept.clear()


def test_the_same_values_render_once_and_other_values_anew():
    tpl = Template("{% load memo %}{% memo x=x %}{{ x }}:{{ c }}{% endmemo %}")
    c = Counter()
    first = tpl.render(Context({"x": [1, "a"], "c": c}))
    # (c is not given to the block: the block cannot show it, so it cannot be shown stale)
    assert first == "[1, &#x27;a&#x27;]:"
    assert tpl.render(Context({"x": [1, "a"]})) == first
    assert len(memo._kept) == 1
    assert tpl.render(Context({"x": [1, "b"]})) == "[1, &#x27;b&#x27;]:"
    assert len(memo._kept) == 2


def test_a_kept_fragment_is_reused_not_rendered_again():
    tpl = Template("{% load memo %}{% memo x=x c=c %}{{ x }}{% endmemo %}{% memo x=x %}{{ x }}{% endmemo %}")
    assert tpl.render(Context({"x": "a", "c": 1})) == "aa"
    kept = dict(memo._kept)
    assert len(kept) == 2  # each block keeps its own, though both print the same
    memo._kept.update({k: mark_safe("kept") for k in kept})
    assert tpl.render(Context({"x": "a", "c": 1})) == "keptkept"
    assert tpl.render(Context({"x": "a", "c": 2})) == "akept"  # one value of the first block differs


def test_a_value_that_is_not_plain_data_is_rendered_every_time_and_not_kept():
    tpl = Template("{% load memo %}{% memo c=c %}{{ c }}{% endmemo %}")
    c = Counter()
    assert [tpl.render(Context({"c": c})) for _ in range(3)] == ["1", "2", "3"]
    assert memo._kept == {}


@pytest.mark.parametrize(("a", "b"), [
    ("<b>", mark_safe("<b>")),  # text to escape and markup print differently
    ([1, 2], (1, 2)),  # a list and a tuple
    ({1: "a"}, {"1": "a"}),  # an int key and a str key
    (1, 1.0), (1, True), (0, None), ("", None),
])
def test_values_that_print_differently_are_kept_apart(a, b):
    tpl = Template("{% load memo %}{% memo x=x %}{{ x }}{% endmemo %}")
    assert tpl.render(Context({"x": a})) == Template("{{ x }}").render(Context({"x": a}))
    assert tpl.render(Context({"x": b})) == Template("{{ x }}").render(Context({"x": b}))
    assert len(memo._kept) == 2


def test_each_language_and_escaping_keeps_its_own():
    source = '{% memo x=x %}{% translate "wounded" %} {{ x }}{% endmemo %}'
    with translation.override("ru"):
        ru = render(source, x="<i>")
    with translation.override("en"):
        en = render(source, x="<i>")
        raw = Template("{% load i18n memo %}" + source).render(Context({"x": "<i>"}, autoescape=False))
    assert (ru, en, raw) == ("ранены &lt;i&gt;", "wounded &lt;i&gt;", "wounded <i>")


def test_the_store_is_bounded_by_the_bytes_it_holds(monkeypatch):
    """Keys and outputs count by their bytes: past the budget the store starts afresh, and a fragment
    bigger than the whole budget is rendered every time and never kept."""
    tpl = Template("{% load memo %}{% memo x=x %}{{ x }}{% endmemo %}")
    tpl.render(Context({"x": 0}))
    one = len(next(iter(memo._kept))[-1]) + 1  # a key's bytes and its one-character output
    monkeypatch.setattr(memo, "BUDGET", 3 * one)
    memo._kept.clear()
    memo._size = 0
    for i in range(10):
        assert tpl.render(Context({"x": i})) == str(i)
        assert len(memo._kept) == i % 3 + 1 and memo._size == len(memo._kept) * one
    before = (dict(memo._kept), memo._size)
    big = Template("{% load memo %}{% memo x=x %}{{ x }}{{ x }}{{ x }}{{ x }}{% endmemo %}")
    assert big.render(Context({"x": "y" * (3 * one)})) == "y" * (12 * one)
    assert (memo._kept, memo._size) == before


def test_the_tag_takes_named_values_only():
    from django.template import TemplateSyntaxError

    for source in ("{% memo %}x{% endmemo %}", "{% memo x %}x{% endmemo %}"):
        with pytest.raises(TemplateSyntaxError):
            Template("{% load memo %}" + source)


def _unit_badge(state_html: str, unit: str) -> str:
    block = state_html.split(f"<strong>{unit}</strong>", 1)[1].split("</summary>", 1)[0]
    badge = re.search(r'<span class="badge">([^<]*)</span>', block)
    return badge.group(1) if badge else ""


@pytest.mark.django_db(transaction=True)
def test_the_state_region_shows_a_new_posture_although_the_unit_was_kept(table_battle):
    battle, users = table_battle
    c = client_for(users["defender"])
    onlooker = client_for(users["attacker"])
    with translation.override("ru"):
        page = onlooker.get(f"/battles/{battle.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        kept = len(memo._kept)
        assert kept >= 3  # the units, the sides, the battlefield
        unit = re.search(r'<details class="unit"[^>]*>\s*<summary><strong>([^<]+)</strong>', page).group(1)
        before = _unit_badge(page, unit)
        declare(c, battle)  # the defender's unit goes to recon
        _replayed(battle)
        live = json.loads(onlooker.get(f"/battles/{battle.id}/live/?since=0&state=0",
                                       HTTP_ACCEPT_LANGUAGE="ru").content)
    assert _unit_badge(live["state_html"], unit) == "разведка" != before
    assert len(memo._kept) > kept  # the changed unit and its side rendered anew beside the kept ones
