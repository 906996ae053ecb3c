"""The generated event reference (``battles.engine.docs``: docs/events.md, docs/events-fow.md) as content:
each event type of the ruleset with its titles, recorder, schema version and rules, one row per field with
its type name, whether it is required and its note; the nested objects; the rules data. And ``_type``, the
type name of a JSON Schema, on every kind of schema (alternatives, choices, lists, objects, maps, bounds)."""
from __future__ import annotations

import json

import pytest

from battles.engine.docs import EXAMPLES, FOW_EXAMPLES, FOW_HEADER, HEADER, _nested, _type, render
from battles.engine.rules_data import PLACEHOLDERS, READINGS
from battles.engine.rulesets import get
from battles.engine.schema import payload_schema


def test_type_names_a_plain_schema_with_its_bounds():
    assert _type({"type": "integer"}) == "integer"
    assert _type({"type": "integer", "minimum": 1}) == "integer (≥ 1)"
    assert _type({"type": "number", "maximum": 2.5}) == "number (≤ 2.5)"
    assert _type({"type": "integer", "minimum": 0, "maximum": 20}) == "integer (≥ 0, ≤ 20)"
    assert _type({"type": "string", "maxLength": 40}) == "string"
    assert _type({}) == "any"
    assert _type({"minimum": 3}) == "any (≥ 3)"


def test_type_names_choices_alternatives_lists_objects_and_maps():
    assert _type({"enum": ["a", "b"]}) == "`a` \\| `b`"
    assert _type({"enum": ["", "x"]}) == '`""` \\| `x`'
    assert _type({"enum": [1]}) == "`1`"
    assert _type({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]}) == "integer (≥ 1) \\| null"
    assert _type({"type": "array", "items": {"type": "string"}}) == "list of string"
    assert _type({"type": "array", "items": {"type": "array", "items": {"enum": ["q"]}}}) == "list of list of `q`"
    assert _type({"type": "object", "properties": {"a": {}, "b": {}}}) == "object (a, b)"
    assert _type({"type": "object", "additionalProperties": {"type": "number"}}) == "map of number"
    assert _type({"type": "object"}) == "map of any"


def rows(doc: str, heading: str) -> list[str]:
    """The table rows under one heading (up to the next heading)."""
    start = doc.index(heading)
    end = doc.find("\n#", start + len(heading))
    return [line for line in doc[start:end if end != -1 else None].splitlines() if line.startswith("| `")]


@pytest.mark.parametrize("ruleset", ["v11.2", "fow"])
def test_each_event_type_has_its_section_with_recorder_version_rules_and_a_row_per_field(ruleset):
    rs = get(ruleset)
    doc = render(ruleset)
    assert doc.startswith(HEADER if ruleset == "v11.2" else FOW_HEADER) and doc.endswith("|\n")
    headings = [line for line in doc.splitlines() if line.startswith("## `")]
    assert headings == [f"## `{name}` — {rs.registry[name].title_en} / {rs.registry[name].title_ru}"
                        for name in sorted(rs.registry)]
    for name in sorted(rs.registry):
        entry = rs.registry[name]
        d = entry.describe()
        schema, who = d["schema"], d["recorded_by"]
        heading = f"\n## `{name}` — {entry.title_en} / {entry.title_ru}\n"
        section = doc[doc.index(heading):doc.find("\n## ", doc.index(heading) + 1)]
        if schema.get("description"):
            assert f"\n{schema['description']}\n" in section
        assert (f"- Recorded by: **{who['kind'].replace('_', ' ')}**: {who['text_en']} / {who['text_ru']}; "
                f"schema version {entry.version}\n") in section
        assert f"- Rules: {', '.join(entry.rules) if entry.rules else '—'}\n" in section
        assert "| field | type | required | notes |\n|---|---|---|---|\n" in section
        required = set(schema.get("required", []))
        assert rows(doc, heading) == [
            f"| `{f}` | {_type(fs)} | {'yes' if f in required else 'no'} | {fs.get('description', '')} |"
            for f, fs in schema["properties"].items()]


def test_the_reference_names_game_master_recorders_with_a_space_and_events_without_rules_with_a_dash():
    doc = render()
    assert "- Recorded by: **game master**: " in doc and "game_master**" not in doc
    assert "- Rules: —\n" in doc
    assert "| yes |" in doc and "| no |" in doc


@pytest.mark.parametrize("ruleset", ["v11.2", "fow"])
def test_the_examples_are_rendered_as_json_of_type_and_data(ruleset):
    doc = render(ruleset)
    examples = EXAMPLES if ruleset == "v11.2" else FOW_EXAMPLES
    assert "\n## Examples\n" in doc
    for title, type_, data in examples:
        body = json.dumps({"type": type_, "data": data}, ensure_ascii=False)
        assert f"- {title}:\n\n  ```json\n  {body}\n  ```" in doc
    other = FOW_EXAMPLES if ruleset == "v11.2" else EXAMPLES
    assert all(title not in doc for title, _, _ in other)


@pytest.mark.parametrize("ruleset", ["v11.2", "fow"])
def test_every_nested_object_has_its_table(ruleset):
    rs = get(ruleset)
    doc = render(ruleset)
    nested = doc[doc.index("\n## Nested objects\n"):]
    names = [line[4:] for line in nested.splitlines() if line.startswith("### ")]
    classes = sorted(_nested(rs.registry), key=lambda c: c.__name__)
    assert names == [c.__name__ for c in classes] and len(names) >= 3
    for cls in classes:
        schema = payload_schema(cls)
        required = set(schema.get("required", []))
        heading = f"\n### {cls.__name__}\n"
        if schema.get("description"):
            assert f"{heading}\n{schema['description']}\n" in doc
        assert rows(nested, heading) == [
            f"| `{f}` | {_type(fs)} | {'yes' if f in required else 'no'} | {fs.get('description', '')} |"
            for f, fs in schema["properties"].items()]
    assert "### Die\n" in doc if ruleset == "v11.2" else "### D6\n" in doc


def test_the_v11_reference_ends_with_the_placeholders_and_the_readings():
    doc = render()
    assert "\n## Rules data\n" not in doc
    ph = doc.index("\n## Rules data placeholders (catalog gaps)\n")
    rd = doc.index("\n## Readings adopted (catalog `reading:`)\n")
    assert ph < rd
    assert rows(doc, "## Rules data placeholders") == [f"| `{k}` | {PLACEHOLDERS[k]} |" for k in sorted(PLACEHOLDERS)]
    assert rows(doc, "## Readings adopted") == [f"| `{k}` | {READINGS[k]} |" for k in sorted(READINGS)]
    assert "| key | gap |\n|---|---|" in doc and "| key | reading |\n|---|---|" in doc
    assert "rank-specific key `class:rank` (e.g. `officer:lieutenant`)" in doc


def test_the_fow_reference_ends_with_its_rules_data_and_the_gap_or_reading_of_each_key():
    rs = get("fow")
    doc = render("fow")
    assert "placeholders (catalog gaps)" not in doc and "Readings adopted" not in doc
    assert "\n## Rules data\n" in doc and "| key | default | gap or reading |\n|---|---|---|" in doc
    assert "`battles.engine.fow.rules_data.DEFAULT_RULES`; distances in both units as the seed gives them.\n" in doc
    assert rows(doc, "## Rules data") == [
        f"| `{k}` | `{json.dumps(rs.default_rules[k], sort_keys=True)}` | "
        f"{rs.placeholders.get(k, '') or rs.readings.get(k, '')} |" for k in sorted(rs.default_rules)]
    assert any(rs.placeholders.get(k) for k in rs.default_rules)
