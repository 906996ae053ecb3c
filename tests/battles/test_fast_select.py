"""The battle forms render their selects in Python (``FastSelectRenderer``):
the markup must be the one Django's own templates give, escaping included."""
from __future__ import annotations

from django import forms
from django.forms.renderers import DjangoTemplates

from battles.table.forms import FastSelectRenderer


class _Form(forms.Form):
    piece = forms.ChoiceField(choices=[("", "—"), ("a<1>", "Стрелок №1 <b>"), ("b&2", 'Пулемётчик "№2"')],
                              required=False)
    group = forms.ChoiceField(choices=[("Свои", [("x", "Иван")]), ("Чужие", [("y", "Hans")])])
    pick = forms.ChoiceField(choices=[("1", "one")], widget=forms.Select(attrs={"class": "die-source", "disabled": True}))
    count = forms.IntegerField()


def _render(renderer, data=None):
    form = _Form(data, renderer=renderer)
    return [str(form[name]) for name in ("piece", "group", "pick", "count")]


def test_fast_select_markup_equals_djangos_for_selects_optgroups_and_escaping():
    for data in (None, {"piece": "b&2", "group": "y", "pick": "1", "count": "3"}):
        fast, slow = _render(FastSelectRenderer(), data), _render(DjangoTemplates(), data)
        norm = lambda html: "".join(html.split())  # noqa: E731 - whitespace between tags differs only
        assert [norm(h) for h in fast] == [norm(h) for h in slow]
    assert "&lt;b&gt;" in fast[0] and 'selected' in fast[0] and "<optgroup" in fast[1]
