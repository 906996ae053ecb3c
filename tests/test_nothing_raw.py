"""Nothing raw reaches a reader (issue 13): no enum value (``ended``,
``running``, ``spotter``, ``kills``, ``survived_wounded``, ``defender``) shows
on the main pages, as a player, the game master or a stranger, in Russian and
English; every choice label a person reads has its Russian translation; the
engine's refusals name sides in words; a refusal names its field once.
"""
from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.test import Client
from django.utils import translation

from tests.pages import demo_pages, visible_text

# Words that are both an enum value and ordinary English a page may use in
# prose ("Result: draw", "a tank", "the crew"); in English they are checked only
# where their label differs from the value. Snake_case values are never prose.
ENGLISH_PROSE = {"draw", "tank", "car", "crew", "officer", "medic", "sapper", "scout", "sniper", "rifleman",
                 "personnel", "infantry", "gun", "train", "recon", "cavalry", "vehicle", "other", "free", "any",
                 "none", "fire", "move", "posture", "mortar", "bomber", "howitzer", "rifle", "grenade",
                 "flamethrower", "aircraft", "artillery", "tractor", "spotter", "rider", "passenger", "squad",
                 "platoon", "independent", "assault", "march", "retreat", "captain", "lieutenant", "sergeant",
                 "corporal", "kills", "wounds", "saves", "attacker", "defender", "running", "finished", "draft",
                 "submitted", "locked", "pending", "approved", "rejected", "requested", "active", "planned",
                 "ended", "motorised", "wheeled", "tracked", "towed", "small", "medium", "large", "mine",
                 "surrendered", "hq", "house", "road", "bunker", "fighters", "ap", "at", "charge", "light", "heavy", "correction", "company", "medical", "pillbox",
                 "character", "award", "unit", "upgrade", "nationality", "background", "base", "border", "text",
                 "radio", "north", "south", "east", "west", "enemy",  # FoW's table edges and "the enemy's"
                 "movement", "shooting"}  # FoW's Steps (terms.fow_step), read in prose: "each turn: movement, shooting"


def enum_values() -> set[str]:
    """Every stored or engine value a page could print by mistake: the
    models' choices, the engine's terms (battles.engine.terms), the award metrics and
    the event type codes of both rulesets."""
    from battles.engine import rulesets
    from battles.engine.terms import TERMS

    values: set[str] = set()
    for model in apps.get_models():
        if model._meta.app_label not in {"campaign", "battles", "rosters"}:
            continue
        for field in model._meta.get_fields():
            for value, _label in getattr(field, "flatchoices", None) or ():
                values.add(str(value))
    for group in TERMS.values():
        values.update(group["ru"])
    for code in ("v11.2", "fow"):
        values.update(rulesets.get(code).registry)
    return {v for v in values if len(v) >= 3 and re.fullmatch(r"[a-z][a-z0-9_.]*", v)}


def raw_in(text: str, values: set[str], language: str) -> list[str]:
    words = set(re.findall(r"(?<![\w.-])[a-z][a-z0-9_]*(?![\w-])", text))
    found = sorted(words & values)
    if language == "en":
        found = [w for w in found if "_" in w or w not in ENGLISH_PROSE]
    return found


@pytest.fixture
def demo(db):
    from django.core.management import call_command

    call_command("loaddemo")


def _client(role: str, language: str) -> Client:
    from django.contrib.auth.models import User

    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    if role != "anon":
        client.force_login(User.objects.get(username={"player": "ivan", "gm": "master"}[role]))
    return client


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("role", ["anon", "player", "gm"])
def test_no_page_shows_a_raw_enum_value(demo, role, language):
    values = enum_values()
    assert {"ended", "running", "spotter", "kills", "survived_wounded", "defender"} <= values
    client = _client(role, language)
    problems = {}
    for url in demo_pages(role):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        text = visible_text(response.content.decode())
        if language == "ru":  # the demo's own texts are bilingual: «Станция у обороняющихся. / The defender…»
            text = "\n".join(line.split(" / ")[0] for line in text.splitlines())
        found = raw_in(text, values, language)
        if found:
            problems[url] = found
    assert not problems, f"raw values a person reads ({role}, {language}): {problems}"


def test_every_choice_label_people_read_is_translated_into_russian():
    """A label with no Russian msgid reads in English on a Russian page
    («взвод FoW · armoured train»)."""
    missing = []
    with translation.override("ru"):
        for model in apps.get_models():
            if model._meta.app_label not in {"campaign", "battles", "rosters"}:
                continue
            for field in model._meta.get_fields():
                for value, label in getattr(field, "flatchoices", None) or ():
                    text = str(label)
                    if value and re.search(r"[a-z]{3,}", text) and not re.search(r"[а-яё]", text, re.I) \
                            and text not in {"Flames of War"} and not re.fullmatch(r"[A-Z0-9-]+", text):
                        missing.append(f"{model.__name__}.{field.name}={value!r}: {text!r}")
    assert not missing, missing


@pytest.mark.parametrize("language,expected,raw", [("ru", "обороняющиеся", "defender"),
                                                   ("en", "the defender", "the the")])
def test_s_turn_a_fow_refusal_names_the_side_to_move_in_words(language, expected, raw):
    """S-TURN: «Сейчас ход 2 стороны defender» read raw."""
    from battles.engine.errors import RuleViolation
    from battles.engine.fow.rules import core
    from battles.engine.fow.state import FowState

    state = FowState()
    state.status, state.turn, state.side_to_move = "running", 2, "defender"
    with pytest.raises(RuleViolation) as caught:
        core._check_turn_ended(state, core.FowTurnEnded(side="attacker", turn=2), None)
    message = caught.value.message_ru if language == "ru" else caught.value.message_en
    assert expected in message and raw not in message


def test_the_readable_refusal_translates_side_keys_in_russian():
    from battles.engine.terms import readable

    text = readable("Сейчас ходит defender, а не attacker.", names={}, language="ru")
    assert "defender" not in text and "attacker" not in text
    assert "обороняющиеся" in text and "атакующие" in text


def test_a_refusal_names_its_field_once(demo):
    """The roster form showed «campaign: персонаж не участвует в этой кампании.»:
    the API's field key leads the message, and the page repeats it raw."""
    from campaign.models import Campaign, Character

    other = Campaign.objects.create(name="Чужая кампания")
    ivan = Character.objects.get(owner__username="ivan")
    for language, words in (("ru", "не участвует"), ("en", "not a member")):
        response = _client("player", language).post("/rosters/new/", {
            "name": "Р", "character": ivan.pk, "campaign": other.pk, "side": ""}, follow=True)
        text = visible_text(response.content.decode())
        assert words in text
        assert "campaign:" not in text, text


@pytest.mark.parametrize("language,words", [("ru", ["Корректировщик", "Танк"]), ("en", ["Spotter", "Tank"])])
def test_a_vehicle_reads_its_options_and_kind_in_words(demo, language, words):
    """The roster page showed a vehicle's option as its code (badge ``spotter``)
    and an unnamed vehicle as its raw kind."""
    from django.contrib.auth.models import User
    from django.utils import translation

    from campaign.models import Character
    from rosters import services
    from rosters.models import VehicleOption

    ivan = User.objects.get(username="ivan")
    roster = services.roster_create(user=ivan, character=Character.objects.get(owner=ivan), name="Танкисты")
    with translation.override(language):
        services.vehicle_add(user=ivan, roster=roster, kind="tank", armour_class=3,
                             options=[VehicleOption.objects.get(code="spotter")])
    text = visible_text(_client("player", language).get(f"/rosters/{roster.pk}/").content.decode())
    for word in words:
        assert word in text
    assert "spotter" not in text
    assert not raw_in(text, enum_values() - {"tank"} if language == "en" else enum_values(), language)
