"""Issue 27 §3: an integer from a query string, a form field or a JSON object's key is read only from
ASCII digits (``config.inputs.ascii_int``). ``"²"`` passes ``str.isdigit`` but not ``int``, ``"١"`` (an
Arabic-Indic digit) passes both, and 30 nines fit no database column: none of them is a server error
anywhere; the API answers 400 naming the parameter, a page its own form error or what it shows without it."""
from __future__ import annotations

import pytest
from django.test import Client

from config.inputs import MAX_INT, ascii_int

HOSTILE = ["²", "١", "9" * 30]
IDS = ["superscript two", "arabic-indic one", "thirty nines"]


@pytest.mark.parametrize(("text", "value"), [
    ("0", 0), ("17", 17), ("-3", None), (str(MAX_INT), MAX_INT), (str(MAX_INT + 1), None), ("²", None), ("١", None),
    (" 1", None), ("1 ", None), ("1_0", None), ("+1", None), ("", None), ("1.0", None), ("9" * 5000, None),
    (None, None), (7, None)])
def test_ascii_int_reads_only_ascii_digits_a_column_holds(text, value):
    assert ascii_int(text) == value


@pytest.fixture
def table(battle, game_master, defender):
    """A battle with ivan at the defender's side, the game master, a roster of ivan's character."""
    from campaign.models import Character
    from rosters import services

    character = Character.objects.get(owner=defender)
    roster = services.roster_create(user=defender, character=character, name="Отряд")
    return {"battle": battle, "campaign": battle.campaign, "gm": game_master, "player": defender, "roster": roster}


def page(user):
    client = Client()
    client.force_login(user)
    return client


PAGES = [
    ("player", "get", "/battles/{battle}/?before={x}", None),
    ("player", "get", "/campaigns/{campaign}/?as_of={x}", None),
    ("player", "get", "/campaigns/{campaign}/standings/?as_of={x}", None),
    ("player", "get", "/campaigns/{campaign}/standings/?page={x}", None),
    ("player", "get", "/rosters/?campaign={x}", None),
    ("player", "get", "/rosters/new/?campaign={x}", None),
    ("player", "post", "/rosters/new/", {"name": "x", "campaign": "{x}"}),
    ("player", "post", "/campaigns/{campaign}/join/", {"character": "{x}"}),
    ("player", "post", "/battles/{battle}/take-back/", {"seq": "{x}"}),
    ("player", "post", "/battles/{battle}/record/", {"form": "turn_ended", "expected_seq": "{x}"}),
    ("player", "post", "/battles/{battle}/command/", {"side": "defender", "roll-{x}-source": "entered",
                                                      "roll-{x}-value": "3"}),
    ("player", "post", "/battles/{battle}/command/", {"side": "defender", "roll-1-source": "entered",
                                                      "roll-1-value": "{x}"}),
    ("player", "post", "/battles/{battle}/command/posts/", {"side": "defender", "post-{x}-rank": "sergeant",
                                                            "post-{x}-post": "x"}),
    ("gm", "post", "/battles/{battle}/void/", {"seq": "{x}", "reason": "r"}),
    ("gm", "post", "/battles/{battle}/void/", {"seq": "{x}", "reason": "r", "confirm": "1"}),
    ("gm", "post", "/battles/{battle}/setup/", {"action": "add", "roster": "{x}"}),
    ("gm", "post", "/battles/{battle}/setup/", {"action": "remove", "participant": "{x}"}),
]


def fill(template, table, x):
    return template.format(x=x, battle=table["battle"].pk, campaign=table["campaign"].pk)


@pytest.mark.django_db
@pytest.mark.parametrize("x", HOSTILE, ids=IDS)
@pytest.mark.parametrize(("who", "method", "url", "data"), PAGES, ids=[f"{m} {u} {d or ''}" for _, m, u, d in PAGES])
def test_a_page_given_a_number_not_in_ascii_digits_answers_without_a_server_error(table, x, who, method, url, data):
    client = page(table[who])
    form = {fill(k, table, x): fill(v, table, x) for k, v in (data or {}).items()}
    r = client.get(fill(url, table, x)) if method == "get" else client.post(fill(url, table, x), form)
    assert r.status_code < 500, (r.status_code, r.content[:500])


@pytest.mark.django_db
@pytest.mark.parametrize("x", HOSTILE, ids=IDS)
def test_the_join_form_names_a_character_not_given_by_its_number(table, x):
    r = page(table["player"]).post(f"/campaigns/{table['campaign'].pk}/join/", {"character": x})
    assert r.status_code == 400, r.status_code
    assert "Выберите своего персонажа" in r.content.decode()


API = [
    ("get", "/api/rosters/?campaign={x}", None, "campaign"),
    ("get", "/api/battles/?campaign={x}", None, "campaign"),
    ("get", "/api/campaigns/{campaign}/?as_of={x}", None, "as_of"),
    ("get", "/api/campaigns/{campaign}/standings/?as_of={x}", None, "as_of"),
    ("get", "/api/campaigns/{campaign}/standings/?limit={x}", None, "limit"),
    ("get", "/api/campaigns/{campaign}/standings/?offset={x}", None, "offset"),
    ("get", "/api/battles/{battle}/events/?after={x}", None, "after"),
    ("get", "/api/events/?after_position={x}", None, "after_position"),
    ("post", "/api/battles/{battle}/command/roll/", {"side": "defender", "rolls": {"{x}": {"source": "rolled"}}},
     "rolls"),
    ("post", "/api/battles/{battle}/command/assign/",
     {"side": "defender", "posts": {"{x}": {"post": "x", "rank": "sergeant"}}}, "posts"),
]


def fill_json(value, table, x):
    if isinstance(value, dict):
        return {fill(k, table, x): fill_json(v, table, x) for k, v in value.items()}
    return fill(value, table, x) if isinstance(value, str) else value


@pytest.mark.django_db
@pytest.mark.parametrize("x", HOSTILE, ids=IDS)
@pytest.mark.parametrize(("method", "url", "body", "field"), API, ids=[f"{m} {u}" for m, u, _, _ in API])
def test_the_api_given_a_number_not_in_ascii_digits_is_a_400_naming_it(table, x, method, url, body, field):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(table["player"])
    if method == "get":
        r = client.get(fill(url, table, x))
    else:
        r = client.post(fill(url, table, x), fill_json(body, table, x), format="json")
    assert r.status_code == 400, (r.status_code, r.content[:500])
    error = r.json()["error"]
    assert error["field"] == field and error["message_ru"] and error["message_en"]
