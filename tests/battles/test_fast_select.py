"""The battle forms render their selects and inputs in Python (``FastSelectRenderer``):
the markup must be the one Django's own templates give, escaping included."""
from __future__ import annotations

from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from battles.table.forms import FastSelectRenderer


class _Form(forms.Form):
    # (a lazy label is rendered as its text, a safe one as it is)
    piece = forms.ChoiceField(choices=[("", "—"), ("a<1>", "Стрелок №1 <b>"), ("b&2", 'Пулемётчик "№2"'),
                                       ("c", gettext_lazy("Yes")), ("d", mark_safe("<i>№4</i>"))],  # noqa: S308
                              required=False)
    group = forms.ChoiceField(choices=[("Свои", [("x", "Иван")]), ("Чужие", [("y", "Hans")])])
    pick = forms.ChoiceField(choices=[("1", "one")], widget=forms.Select(attrs={"class": "die-source", "disabled": True}))
    count = forms.IntegerField()
    distance = forms.IntegerField(min_value=0, max_value=99, widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    expected = forms.CharField(widget=forms.HiddenInput, initial='7" onclick="x')
    note = forms.CharField(required=False, max_length=20)
    smoke = forms.BooleanField(required=False)


NAMES = ("piece", "group", "pick", "count", "distance", "expected", "note", "smoke")


def _render(renderer, data=None):
    form = _Form(data, renderer=renderer)
    return [str(form[name]) for name in NAMES]


def test_fast_select_markup_equals_djangos_for_selects_optgroups_and_escaping():
    for data in (None, {"piece": "b&2", "group": "y", "pick": "1", "count": "3", "distance": "12",
                        "expected": "<5>", "note": "«Ура» & <b>", "smoke": "on"}):
        fast, slow = _render(FastSelectRenderer(), data), _render(DjangoTemplates(), data)
        norm = lambda html: "".join(html.split())  # noqa: E731 - whitespace between tags differs only
        assert [norm(h) for h in fast] == [norm(h) for h in slow]
    assert "&lt;b&gt;" in fast[0] and 'selected' in fast[0] and "<optgroup" in fast[1]
    assert f">{gettext_lazy('Yes')}</option>" in fast[0] and "><i>№4</i></option>" in fast[0]


def test_fast_inputs_are_rendered_in_python_the_others_by_djangos_templates(monkeypatch):
    """Hidden, number, text and checkbox inputs never reach a template (so they cost no include);
    a widget it does not know, a textarea, still does."""
    asked = []
    real = DjangoTemplates.render
    monkeypatch.setattr(DjangoTemplates, "render", lambda self, name, ctx, request=None: (
        asked.append(name), real(self, name, ctx, request))[1])

    class Other(forms.Form):
        text = forms.CharField(widget=forms.Textarea)

    rendered = _render(FastSelectRenderer(), {"smoke": "on", "expected": "1"})
    assert asked == [] and 'type="checkbox"' in rendered[-1] and "checked" in rendered[-1]
    str(Other(renderer=FastSelectRenderer())["text"])
    assert asked == ["django/forms/widgets/textarea.html"]
