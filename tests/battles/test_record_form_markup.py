"""``{% record_form %}`` (battles/templatetags/record.py) writes the recording panel's forms in Python: the
markup must be byte for byte what the panel's form and field templates gave, kept here as the reference."""
from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from battles import engine
from battles.table import recording
from battles.table.choices import Table
from battles.table.forms import EventForm
from tests.battles.test_recording import FORCES, SIDES, START, fold

FIELD = ('{% if field.widget_type == "checkbox" %}<label class="check">{{ field }} {{ field.label }}</label>{% elif '
         'field.widget_type == "checkboxselectmultiple" %}<fieldset><legend>{{ field.label }}</legend>{{ field }}'
         '</fieldset>{% else %}<label>{{ field.label }} {{ field }}</label>{% endif %}{% if field.help_text %}<small '
         'class="muted">{{ field.help_text }}</small>{% endif %}{% if field.errors %}{{ field.errors }}{% endif %}\n')
REFERENCE = Template(
    '{% load i18n %}<form method="post" action="{{ panel.action }}#rec-{{ item.id }}">{% csrf_token %}\n'
    '<input type="hidden" name="form" value="{{ item.id }}"><input type="hidden" name="expected_seq" value="{{ '
    'panel.expected_seq }}"><input type="hidden" name="token" value="{{ panel.token }}">\n'
    '{% if item.error %}<p class="refusal" role="alert">{% if item.error.rule_id %}<strong>{{ item.error.rule_id }}'
    '</strong> {% endif %}{{ item.error.message }}</p>{% endif %}\n'
    '{% if item.form.non_field_errors %}{{ item.form.non_field_errors }}{% endif %}\n'
    '{% for hidden in item.form.hidden_fields %}{{ hidden }}{% endfor %}\n'
    '{% if item.form.groups %}{% for legend, fields in item.form.groups %}{% if legend %}<fieldset><legend>{{ legend '
    '}}</legend>{% endif %}<div class="row">\n'
    '{% for field in fields %}' + FIELD + '{% endfor %}\n'
    '</div>{% if legend %}</fieldset>{% endif %}{% endfor %}\n'
    '{% else %}<div class="row">{% for field in item.form.visible_fields %}' + FIELD + '{% endfor %}</div>{% endif %}\n'
    '<div class="row"><button type="submit">{% if item.id == "quick_turn" %}{% translate "Yes, end the turn («Ход»)" '
    'context "battle record" %}{% else %}{% translate "Record" context "battle record" %}{% endif %}</button></div>\n'
    '</form>\n')
NEW = Template("{% load record %}{% record_form item panel %}")
PANEL = {"action": "/battles/1/record/?a=1&b=<2>", "expected_seq": 1234, "token": 'tok"en'}


def _both(item, panel=PANEL, csrf="c&s<r>f"):
    context = {"item": item, "panel": panel, "csrf_token": csrf}
    return NEW.render(Context(context)), REFERENCE.render(Context(context))


def _table(side="defender"):
    return Table(fold([*FORCES, START]), side, {"def-sq": "Взвод <Орлова>", "d-r1": "Рядовой Козлов"}, SIDES)


@pytest.mark.parametrize("type_name", sorted(engine.REGISTRY))
@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_event_types_form_as_the_templates_wrote_it(type_name, language):
    with translation.override(language):
        form = EventForm(event_type=type_name, table=_table(), side_choices=[("defender", "РККА")], prefix=type_name)
        new, old = _both({"id": type_name, "form": form})
    assert new == old


def test_a_refused_form_with_its_rule_its_errors_and_what_was_typed():
    table = _table()
    form = recording.QuickFireForm({"quick_fire-shooter": "d-r1", "quick_fire-target": "nobody<>",
                                    "quick_fire-distance": "-3"}, table=table)
    assert not form.is_valid() and form.errors
    new, old = _both({"id": "quick_fire", "form": form,
                      "error": {"rule_id": "V-TURN-10", "message": "Стрелять <после> движения нельзя"}})
    assert new == old
    assert "V-TURN-10" in new and "&lt;после&gt;" in new and "errorlist" in new


def test_a_form_errors_of_its_own_and_the_turns_button():
    form = EventForm({"quick_turn-side": "nowhere"}, event_type="turn_ended", table=_table(),
                     side_choices=[("defender", "РККА")], prefix="quick_turn")
    form.is_valid()
    form.add_error(None, "Ход <уже> окончен")
    new, old = _both({"id": "quick_turn", "form": form, "error": {"message": "без правила"}})
    assert new == old
    assert "Ход &lt;уже&gt; окончен" in new


@pytest.mark.parametrize("csrf", ["", "NOTPROVIDED", "tok"])
def test_the_quick_forms_and_the_token_as_before(csrf):
    table = _table()
    for form_id, form in (("quick_move", recording.QuickMoveForm(table=table)),
                          ("quick_fire", recording.QuickFireForm(table=table)),
                          ("postures", EventForm(event_type="postures_declared", table=table, prefix="postures",
                                                 side_choices=[("defender", "РККА")]))):
        new, old = _both({"id": form_id, "form": form}, csrf=csrf)
        assert new == old
        assert ('name="csrfmiddlewaretoken"' in new) == (csrf == "tok")


def test_a_panel_without_an_action_or_seq_renders_them_empty_as_before():
    form = EventForm(event_type="turn_ended", table=_table(), side_choices=[("defender", "РККА")])
    new, old = _both({"id": "turn_ended", "form": form}, panel={})
    assert new == old
