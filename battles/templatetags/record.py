"""``{% record_form item panel %}``: one form of the recording panel, written in Python.

The markup is what the panel's form and field templates wrote (the test
``tests/battles/test_record_form_markup.py`` keeps their text and compares):
a form posting to the panel's action with its form id, the seq it was built
at and its idempotency token, the refusal it was sent back with, its hidden
fields, then its visible fields row by row (in the schema's groups where the
form has them), each in its label with its help and its errors. Through the
template engine the panel's forms were half of the side to move's live answer
(a node and an include for every field of five forms), though every value in
them was worked out before (bench/HISTORY.md, "Game night, twelfth session").
"""
from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext

register = template.Library()


def _csrf(context: template.Context) -> str:
    """``{% csrf_token %}``: the hidden input of the request's token (masked anew each time it is read)."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return ""
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)


def field_html(field: Any) -> str:
    """A visible field: the widget in its label (a checkbox before its words, a set of checkboxes in a
    fieldset), its help, its errors; a line of its own."""
    label = conditional_escape(field.label)
    kind = field.widget_type
    if kind == "checkbox":
        out = f'<label class="check">{field} {label}</label>'
    elif kind == "checkboxselectmultiple":
        out = f"<fieldset><legend>{label}</legend>{field}</fieldset>"
    else:
        out = f"<label>{label} {field}</label>"
    if field.help_text:
        out += f'<small class="muted">{conditional_escape(field.help_text)}</small>'
    if field.errors:
        out += str(field.errors)
    return out + "\n"


def _rows(form: Any) -> str:
    groups = form.groups() if callable(getattr(form, "groups", None)) else None
    if not groups:
        return f'<div class="row">{"".join(field_html(f) for f in form.visible_fields())}</div>'
    out = []
    for legend, fields in groups:
        opened = f"<fieldset><legend>{conditional_escape(legend)}</legend>" if legend else ""
        out.append(f'{opened}<div class="row">\n{"".join(field_html(f) for f in fields)}\n</div>'
                   f'{"</fieldset>" if legend else ""}')
    return "".join(out) + "\n"


@register.simple_tag(takes_context=True)
def record_form(context: template.Context, item: dict[str, Any], panel: dict[str, Any]) -> SafeString:
    form, error, e = item.get("form"), item.get("error"), conditional_escape
    out = [f'<form method="post" action="{e(panel.get("action", ""))}#rec-{e(item["id"])}">{_csrf(context)}\n'
           f'<input type="hidden" name="form" value="{e(item["id"])}"><input type="hidden" name="expected_seq" '
           f'value="{e(panel.get("expected_seq", ""))}"><input type="hidden" name="token" value="{e(panel.get("token", ""))}">\n']
    if error:
        rule = f"<strong>{e(error['rule_id'])}</strong> " if error.get("rule_id") else ""
        out.append(f'<p class="refusal" role="alert">{rule}{e(error.get("message", ""))}</p>')
    out.append("\n")
    if form.non_field_errors():
        out.append(str(form.non_field_errors()))
    out.append("\n")
    out.extend(str(hidden) for hidden in form.hidden_fields())
    out.append("\n")
    out.append(_rows(form))
    words = (pgettext("battle record", "Yes, end the turn («Ход»)") if item["id"] == "quick_turn"
             else pgettext("battle record", "Record"))
    out.append(f'\n<div class="row"><button type="submit">{e(words)}</button></div>\n</form>\n')
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped or a form's own safe markup
