"""Every documented operation (docs/openapi.yaml) given hostile values, deterministically (issue 27 §3):
each path and query parameter in turn, and every property of a JSON or form body at once, takes a number
of 400 digits, ``1e400``, ``²`` and ``١`` (digits ``int`` refuses or takes), a NUL, an empty string, a
negative number, 5,000 characters and the wrong JSON type, as an anonymous visitor, a player at the
battle's table and the game master. No answer is a server error, and every error has the documented
shape. (Schemathesis, tests/test_schemathesis.py, explores at random; this pins the known hostile values.)"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SPEC = yaml.safe_load((ROOT / "docs" / "openapi.yaml").read_text())
OPERATIONS = [(method, path, op) for path, ops in SPEC["paths"].items() for method, op in ops.items()
              if method in ("get", "post", "put", "patch", "delete")]
IN_TEXT = ["9" * 400, "1e400", "²", "١", "\x00", "", "-1", "x" * 5000, "[]"]
IN_JSON = [10**400, "__1e400__", "²", "١", "", -1, 2**63, "x" * 5000, [], {}, None, True]
# Findings to be fixed where they live, each as (operation, text in its failure): while one lasts it makes the
# run an expected failure and nothing else does. None now (the last, a username longer than django-axes'
# 255 characters at POST /api/auth/token/, is a 400 since TokenView refuses it).
KNOWN: list[tuple[str, str]] = []
ERROR_KEYS = {"code", "field", "rule_id", "message", "message_ru", "message_en"}


def properties(op) -> list[str]:
    schema = (op.get("requestBody", {}).get("content", {}).get("application/json") or {}).get("schema") or {}
    if "$ref" in schema:
        schema = SPEC["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return list(schema.get("properties", {}))


@pytest.fixture(params=["anonymous", "player", "game_master"])
def world(request, game_master, player, campaign, battle):
    from rest_framework.test import APIClient

    from campaign.models import Character, Nationality
    from rosters import services
    from rosters.models import InfantryClass
    from tests.conftest import enlist_at

    character = Character.objects.create(owner=game_master, name="Мастер", nationality=Nationality.objects.get(code="su"))
    enlist_at(battle, player, "defender")
    roster = services.roster_create(user=game_master, character=character, name="Отряд")
    unit = services.unit_add(user=game_master, roster=roster, kind="squad", name="1-е")
    fighter = services.fighter_add(user=game_master, roster=roster, unit=unit,
                                   infantry_class=InfantryClass.objects.get(code="rifleman"))
    vehicle = services.vehicle_add(user=game_master, roster=roster, kind="tank", name="Т-34")
    client = APIClient(raise_request_exception=False)  # a server error is a finding, collected with the rest
    if request.param != "anonymous":
        client.force_authenticate(game_master if request.param == "game_master" else player)
    ids = {"campaign_id": campaign.pk, "battle_id": battle.pk, "character_id": character.pk, "roster_id": roster.pk,
           "unit_id": unit.pk, "fighter_id": fighter.pk, "vehicle_id": vehicle.pk, "team_id": 1,
           "participant_id": battle.participants.first().pk, "proposal_id": 1}
    return client, ids


def problem(response) -> str | None:
    if response.status_code >= 500:
        return f"{response.status_code}"
    if response.status_code >= 400:
        if not response.get("Content-Type", "").startswith("application/json"):
            return f"{response.status_code} not JSON"
        body = response.json()
        if set(body) != {"error"} or not ERROR_KEYS <= set(body["error"]):
            return f"{response.status_code} lacks the error shape: {str(body)[:200]}"
    return None


@pytest.mark.django_db
def test_every_operation_given_hostile_values_answers_without_a_server_error(world):
    client, ids = world
    failures: list[str] = []
    statuses: dict[int, int] = {}

    def call(method, path, op, *, path_values=None, query=None, body=None, form=None):
        url = path.format(**{k: quote(str(v), safe="") for k, v in {**ids, **(path_values or {})}.items()})
        if query:
            url += "?" + "&".join(f"{quote(k)}={quote(v, safe='')}" for k, v in query.items())
        if body is not None:
            text = json.dumps(body).replace('"__1e400__"', "1e400")
            r = client.generic(method.upper(), url, text, content_type="application/json")
        elif form is not None:
            r = getattr(client, method)(url, form)
        else:
            r = getattr(client, method)(url)
        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
        found = problem(r)
        if found:
            failures.append(f"{method.upper()} {url[:120]} {str(body or form or '')[:80]!r}: {found}")

    for method, path, op in OPERATIONS:
        params = op.get("parameters", [])
        for p in params:
            for value in IN_TEXT:
                if p["in"] == "path":
                    call(method, path, op, path_values={p["name"]: value})
                elif p["in"] == "query":
                    call(method, path, op, query={p["name"]: value})
        names = properties(op)
        if method in ("post", "put", "patch"):
            for value in IN_JSON:
                call(method, path, op, body={n: value for n in names} if names else value)
            for value in IN_TEXT:
                call(method, path, op, form={n: value for n in names or ["x"]})
    assert sum(statuses.values()) > 1000, statuses
    known = [f for f in failures if any(f.startswith(op) and text in f for op, text in KNOWN)]
    others = [f for f in failures if f not in known]
    assert not others, f"{len(others)} finding(s):\n" + "\n".join(others[:40])
    if known:
        pytest.xfail(f"{len(known)} known finding(s), e.g. {known[0][:200]}")
