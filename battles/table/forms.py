"""Django forms for recording battle events, built from the event types' own
JSON Schema (``battles.engine.REGISTRY[type].describe()["schema"]``).

Strings that name a fighter, unit, vehicle or battlefield object become
selects filled from the battle's state with display names (your side's pieces
for actors, the enemy's living pieces for targets: ``battles.table.choices``);
enums become selects with translated labels (every word: ``battles.table.labels``);
numbers keep their bounds (distances in inches); booleans
are checkboxes; lists of objects are a few repeated rows. Each d20 is either
rolled by the service (``{"source": "rolled"}``, filled at append) or entered
from the table with its value. ``EventForm.payload()`` turns the cleaned form
back into the event's JSON payload; the engine validates it on append.
``FAST_RENDERER`` renders the selects in Python (every form of the panel uses it).
"""
from __future__ import annotations

import dataclasses
import html
import typing
from collections.abc import Callable
from typing import Any

import msgspec
from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils.safestring import mark_safe
from django.utils.translation import pgettext, pgettext_lazy

from battles import engine
from battles.engine.rules.movement import MORALE_HELD_POSTURE
from battles.engine.schema import hints, is_payload, payload_fields

from .choices import Choices, Table, choices_for
from .labels import BLANK, CTX, NO_DIE, enum_label, field_label

MAX_ROWS = {"dice": 6, "struck": 4, "victims": 4, "rolls": 3, "talk_distances": 2, "units": 3, "fighters": 6, "vehicles": 2,
            "vehicles_struck": 2}
MAX_ROWS["hits"] = 4  # --- aircraft (F-AIR) ---: an air attack's hits, one row each


# --- slots: how cleaned form data goes back into the payload --------------------------------
EMPTY = object()


@dataclasses.dataclass
class Slot:
    kind: str  # scalar | die | object | rows | map | multi | text_list
    name: str = ""  # the form field (scalar, multi, text_list) or field prefix
    required: bool = False
    children: dict[str, Slot] = dataclasses.field(default_factory=dict)
    rows: list[Slot] = dataclasses.field(default_factory=list)
    optional_die: bool = False


def _unwrap(schema: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    if "anyOf" in schema:
        inner = next(s for s in schema["anyOf"] if s.get("type") != "null")
        return True, inner
    return False, schema


def _is_die(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "object" and set(schema.get("properties", {})) == {"value", "source", "rng"}


def _defaults(cls: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if not is_payload(cls):
        return out
    for f in payload_fields(cls):
        if f.default is not msgspec.NODEFAULT:
            out[f.name] = f.default
        elif f.default_factory is not msgspec.NODEFAULT:
            out[f.name] = f.default_factory()
    return out


def _nested(cls: Any, name: str) -> Any:
    """The payload class inside a field's annotation (``list[X]``, ``X | None``), if any."""
    if not is_payload(cls):
        return None
    tp = hints(cls).get(name)
    stack = [tp]
    while stack:
        t = stack.pop()
        if is_payload(t):
            return t
        stack.extend(typing.get_args(t))
    return None


def _distance(name: str) -> bool:
    return "distance" in name or name in ("obstacle_height", "mg_spacing", "nearest_enemy", "nearest_fit_enemy",
                                          "nearest_friendly", "infantry")


def _escape(value: Any) -> str:
    """Django's ``conditional_escape``, the same text, without its check of every call for a lazy argument:
    the selects escape each option's value and label, a few hundred times a live answer."""
    as_html = getattr(value, "__html__", None)
    return as_html() if as_html is not None else html.escape(str(value))


def _attrs(attrs: dict[str, Any]) -> str:
    """Django's widgets/attrs.html, in Python."""
    out = []
    for name, value in attrs.items():
        if value is False or value is None:
            continue
        out.append(f" {name}" if value is True else f' {name}="{_escape(str(value))}"')
    return "".join(out)


class FastSelectRenderer(DjangoTemplates):
    """Renders ``<select>`` and ``<input>`` widgets in Python, the same markup
    as Django's templates. The battle's selects list every piece on the table;
    rendered through one template include per option they were most of the
    battle page's time, and the recording panel's two dozen inputs (hidden,
    numbers) half of a live answer's. Every other widget goes through the
    templates as usual."""

    SELECT = "django/forms/widgets/select.html"
    # the widgets whose template is Django's input.html and nothing more
    INPUTS = frozenset(f"django/forms/widgets/{name}.html" for name in ("hidden", "number", "text", "checkbox"))

    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        if template_name in self.INPUTS:
            w = context["widget"]
            value = "" if w["value"] is None else f' value="{_escape(str(w["value"]))}"'
            return mark_safe(  # noqa: S308 - every value is escaped
                f'<input type="{_escape(w["type"])}" name="{_escape(w["name"])}"{value}'
                f'{_attrs(w["attrs"])}>')
        if template_name != self.SELECT:
            return super().render(template_name, context, request)
        w = context["widget"]
        parts = [f'<select name="{_escape(w["name"])}"{_attrs(w["attrs"])}>']
        for group_name, options, _index in w["optgroups"]:
            if group_name:
                parts.append(f'<optgroup label="{_escape(group_name)}">')
            for o in options:
                parts.append(f'<option value="{_escape(str(o["value"]))}"{_attrs(o["attrs"])}>'
                             f'{_escape(o["label"])}</option>')
            if group_name:
                parts.append("</optgroup>")
        parts.append("</select>")
        return mark_safe("\n".join(parts))  # noqa: S308 - every value above is escaped


FAST_RENDERER = FastSelectRenderer()


class EventForm(forms.Form):
    """One event type's form. ``layout`` groups field names under legends
    (rows of a list, dice) for the template; ``payload()`` rebuilds the JSON."""

    default_renderer = FAST_RENDERER

    def __init__(self, data: Any = None, *, event_type: str, table: Table, side_choices: Choices,
                 prefill: dict[str, Any] | None = None, prefix: str | None = None, ruleset: str | None = None,
                 **kw: Any) -> None:
        super().__init__(data, prefix=prefix or event_type, **kw)
        self.event_type = event_type
        self.entry = engine.ruleset_of(ruleset).registry[event_type]  # the battle's ruleset (v11.2 by default)
        self.table, self.side_choices = table, side_choices
        self.prefill = prefill or {}
        self.layout: list[tuple[Any, list[str]]] = []
        schema = self.entry.describe()["schema"]
        self.root = self._object((), schema, self.entry.payload, group=None)

    # building -----------------------------------------------------------------------------
    def _object(self, path: tuple[str, ...], schema: dict[str, Any], cls: Any, group: Any,
                in_row: bool = False) -> Slot:
        required = set(schema.get("required", []))
        defaults = _defaults(cls)
        slot = Slot("object")
        own: list[str] = []
        self.layout.append((group, own))
        for key, sub in schema.get("properties", {}).items():
            if key == "rng":
                continue
            child = self._property((*path, key), sub, key in required, defaults.get(key, EMPTY), cls, own, in_row)
            if child is not None:
                slot.children[key] = child
        slot.required = bool(required)
        return slot

    def _fname(self, path: tuple[str, ...]) -> str:
        return "__".join(path)

    def _property(self, path: tuple[str, ...], schema: dict[str, Any], required: bool, default: Any, cls: Any,
                  own: list[str], in_row: bool) -> Slot | None:
        key = path[-1]
        optional, inner = _unwrap(schema)
        label = field_label(self.event_type, tuple(p for p in path if not p.isdigit()))
        name = self._fname(path)
        must = required and not optional
        ref = choices_for(self.event_type, path)
        if _is_die(inner):
            slot = self._die(path, label, optional or in_row, own, inner["properties"]["value"].get("maximum", 20))
            slot.required = required and not optional
            return slot
        if inner.get("type") == "array":
            items = inner["items"]
            if _is_die(items):  # a list of dice (FoW to-hit dice): a few die rows, the first ones rolled
                slot = Slot("rows", required=must)
                for i in range(MAX_ROWS.get(key, 2)):
                    die = self._die((*path, str(i)), f"{label} {i + 1}", True, own,
                                    items["properties"]["value"].get("maximum", 20))
                    if i >= 1:
                        self.fields[f"{die.name}__source"].initial = "none"
                    slot.rows.append(die)
                return slot
            if items.get("type") == "object":
                return self._rows(path, label, items, _nested(cls, key))
            if ref is not None or "enum" in items:
                choices = ref(self.table) if ref is not None else [(v, enum_label(v)) for v in items["enum"]]
                self.fields[name] = forms.MultipleChoiceField(label=label, choices=choices, required=False,
                                                              widget=forms.CheckboxSelectMultiple)
                own.append(name)
                return Slot("multi", name, required=must)
            if items.get("type") == "number":
                slot = Slot("rows")
                for i in range(MAX_ROWS.get(key, 2)):
                    fname = f"{name}__{i}"
                    self.fields[fname] = forms.FloatField(label=f"{label} ({i + 1})", required=False,
                                                          min_value=items.get("minimum", 0))
                    own.append(fname)
                    slot.rows.append(Slot("scalar", fname))
                return slot
            self.fields[name] = forms.CharField(label=label, required=False, max_length=2000,
                                                help_text=pgettext_lazy(CTX, "Comma separated"))
            own.append(name)
            return Slot("text_list", name, required=must)
        if inner.get("type") == "object" and "additionalProperties" in inner:
            return self._map(path, label, inner["additionalProperties"], ref)
        field = self._scalar(path, label, inner, must and not in_row, default, ref)
        self.fields[name] = field
        own.append(name)
        return Slot("scalar", name, required=must)

    def _scalar(self, path: tuple[str, ...], label: Any, schema: dict[str, Any], must: bool, default: Any,
                ref: Callable[[Table], Choices] | None) -> forms.Field:
        key = path[-1]
        initial = self.prefill.get(".".join(path), None if default is EMPTY else default)
        if key == "side" or (key == "winner"):
            choices = list(self.side_choices) if key == "side" else [
                *self.side_choices_all(), ("draw", enum_label("draw"))]
            return forms.ChoiceField(label=label, choices=choices, initial=initial or choices[0][0])
        if "enum" in schema:
            choices = [(v, enum_label(v)) for v in schema["enum"]]
            if not must and initial in (None, EMPTY):
                choices = [("", BLANK), *choices]
            return forms.TypedChoiceField(label=label, choices=choices, required=must, initial=initial,
                                          empty_value=None)
        if ref is not None:
            choices = ref(self.table)
            return forms.ChoiceField(label=label, choices=[("", BLANK), *choices], required=must, initial=initial)
        t = schema.get("type")
        if t == "boolean":
            return forms.BooleanField(label=label, required=False, initial=bool(initial))
        if t == "integer":
            return forms.IntegerField(label=label, required=must, initial=initial, min_value=schema.get("minimum"),
                                      max_value=schema.get("maximum"))
        if t == "number":
            attrs = {"step": "any", "inputmode": "decimal"}
            if _distance(key):
                attrs["class"] = "inches"
            return forms.FloatField(label=label, required=must, initial=initial, min_value=schema.get("minimum"),
                                    max_value=schema.get("maximum"), widget=forms.NumberInput(attrs=attrs))
        max_length = schema.get("maxLength")
        widget = forms.Textarea(attrs={"rows": 2}) if (max_length or 0) > 200 else None
        return forms.CharField(label=label, required=must, initial=initial, max_length=max_length, widget=widget)

    def side_choices_all(self) -> Choices:
        return [(s, self.table.side_names[s]) for s in ("attacker", "defender")]

    def _die(self, path: tuple[str, ...], label: Any, optional: bool, own: list[str], sides: int = 20) -> Slot:
        name = self._fname(path)
        default = self.prefill.get(".".join(path), "rolled")
        choices = [("rolled", enum_label("rolled")), ("entered", enum_label("entered"))]
        if optional:
            choices = [("none", NO_DIE), *choices]
        self.fields[f"{name}__source"] = forms.ChoiceField(label=label, choices=choices, initial=default,
                                                           required=not optional,
                                                           widget=forms.Select(attrs={"class": "die-source"}))
        face = (pgettext_lazy(CTX, "Face entered, 1–20") if sides == engine.dice.SIDES
                else pgettext_lazy(CTX, "Face entered, 1–6"))
        self.fields[f"{name}__value"] = forms.IntegerField(
            label=face, required=False, min_value=1, max_value=sides,
            widget=forms.NumberInput(attrs={"class": "die-value", "inputmode": "numeric"}))
        own += [f"{name}__source", f"{name}__value"]
        return Slot("die", name, optional_die=optional)

    def _rows(self, path: tuple[str, ...], label: Any, items: dict[str, Any], cls: Any) -> Slot:
        slot = Slot("rows")
        for i in range(MAX_ROWS.get(path[-1], 2)):
            before = set(self.fields)
            row = self._object((*path, str(i)), items, cls, group=f"{label} · {i + 1}", in_row=True)
            if i > 0:  # later rows' dice start as "not rolled"
                for fname in set(self.fields) - before:
                    if fname.endswith("__source"):
                        self.fields[fname].initial = "none"
            slot.rows.append(row)
        return slot

    def _map(self, path: tuple[str, ...], label: Any, values: dict[str, Any],
             ref: Callable[[Table], Choices] | None) -> Slot:
        slot = Slot("map")
        keys = ref(self.table) if ref is not None else []
        own: list[str] = []
        self.layout.append((label, own))
        required = path[-1] == "units" and self.event_type == "postures_declared"  # V-TURN-9: every unit
        for i, (k, key_label) in enumerate(keys):
            fname = f"{self._fname(path)}__{i}"
            if "enum" in values:
                current = self._current_posture(k) if required else None
                choices = [(v, enum_label(v)) for v in values["enum"]]
                held = MORALE_HELD_POSTURE.get(self.table.units_all.get(k, {}).get("morale", "")) if required else None
                why = ""
                if held is not None:  # V-MORALE-2: the morale result holds it, the one posture offered, and why
                    choices = [(held, enum_label(held))]
                    why = pgettext(CTX, "Held by the morale test's result (V-MORALE-2).")
                if not required:
                    choices = [("", BLANK), *choices]
                self.fields[fname] = forms.ChoiceField(label=key_label, choices=choices, required=required,
                                                       initial=current, help_text=why)
            else:
                self.fields[fname] = forms.FloatField(label=key_label, required=False, min_value=values.get("minimum", 0),
                                                      widget=forms.NumberInput(attrs={"step": "any", "class": "inches"}))
            own.append(fname)
            slot.children[k] = Slot("scalar", fname)
        return slot

    def _current_posture(self, uid: str) -> str:
        u = self.table.units_all.get(uid, {})
        return MORALE_HELD_POSTURE.get(u.get("morale", ""), u.get("posture", "dug_in"))

    def groups(self) -> list[tuple[Any, list[Any]]]:
        """(legend, bound visible fields) in the schema's order, for the template."""
        out = []
        for legend, names in self.layout:
            fields = [self[n] for n in names if not self.fields[n].widget.is_hidden]
            if fields:
                out.append((legend, fields))
        return out

    # reading back ----------------------------------------------------------------------------
    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        self._payload = self._read(self.root, cleaned, top=True)
        return cleaned

    def payload(self) -> dict[str, Any]:
        """The event's payload (call after ``is_valid()``)."""
        return self._payload

    def _read(self, slot: Slot, cd: dict[str, Any], top: bool = False) -> Any:
        if slot.kind == "scalar":
            v = cd.get(slot.name)
            return EMPTY if v in (None, "") else v
        if slot.kind == "die":
            src = cd.get(f"{slot.name}__source")
            if src in (None, "", "none"):
                return EMPTY
            if src == "rolled":
                return {"source": "rolled"}
            v = cd.get(f"{slot.name}__value")
            if v is None:
                self.add_error(f"{slot.name}__value", pgettext_lazy(CTX, "Enter the face rolled at the table (1–20)."))
                return EMPTY
            return {"value": v, "source": "entered"}
        if slot.kind == "multi":
            return list(cd.get(slot.name) or []) or EMPTY
        if slot.kind == "text_list":
            parts = [p.strip() for p in (cd.get(slot.name) or "").split(",") if p.strip()]
            return parts or EMPTY
        if slot.kind == "map":
            out = {k: v for k, s in slot.children.items() if (v := self._read(s, cd)) is not EMPTY}
            return out or EMPTY
        if slot.kind == "rows":
            items = [v for r in slot.rows if (v := self._read(r, cd)) is not EMPTY]
            return items or EMPTY
        # an object: a row counts when one of its required parts (a name, a die) is given
        values = {k: self._read(s, cd) for k, s in slot.children.items()}
        keys = [k for k, s in slot.children.items() if s.required] or list(slot.children)
        if not top and all(values[k] is EMPTY or isinstance(values[k], bool) for k in keys):
            return EMPTY
        for k, s in slot.children.items():
            if s.required and values[k] is EMPTY and s.kind in ("scalar", "multi", "text_list"):
                msg = (pgettext_lazy(CTX, "Fill this in, or clear the whole row.") if not top
                       else pgettext_lazy(CTX, "This field is required."))
                if s.name not in self.errors:
                    self.add_error(s.name, msg)
        return {k: v for k, v in values.items() if v is not EMPTY}


def schema_required(type_name: str, ruleset: str | None = None) -> set[str]:
    return set(engine.ruleset_of(ruleset).registry[type_name].describe()["schema"].get("required", []))
