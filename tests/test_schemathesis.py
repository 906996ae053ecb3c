"""A bounded Schemathesis run over docs/openapi.yaml, in-process (WSGI).

Every operation of the documented API gets generated requests, valid and
invalid (NUL characters, lone surrogates, out-of-range numbers, wrong types),
as the game master (who passes most authorization, so bodies are parsed), as a
player at the battle's table and as an anonymous visitor (half as many each), and
half of them on objects that exist. The run asserts no server error (5xx), no
status the operation does not document, and no response that breaks the
documented schema or content type; every error body must also have the
documented error shape. ``SHTAB_FUZZ_EXAMPLES`` (per operation and mode)
bounds the run; the default keeps it well under a minute.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis.errors import Unsatisfiable  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = int(os.environ.get("SHTAB_FUZZ_EXAMPLES", "8"))
ERROR_KEYS = {"code", "field", "rule_id", "message", "message_ru", "message_en"}


@pytest.fixture(params=["game_master", "player", "anonymous"])
def world(request, game_master, player, campaign, battle):
    """Objects for the generated ids to hit: a campaign, a battle with a
    participant, a character, a roster with a unit, a fighter and a vehicle."""
    from rest_framework.authtoken.models import Token

    from campaign.models import Character, Nationality
    from rosters import services
    from rosters.models import InfantryClass
    from tests.conftest import enlist_at

    character = Character.objects.create(owner=game_master, name="Мастер", nationality=Nationality.objects.get(code="su"))
    enlist_at(battle, player, "defender")
    roster = services.roster_create(user=game_master, character=character, name="Отряд")
    unit = services.unit_add(user=game_master, roster=roster, kind="squad", name="1-е")
    fighter = services.fighter_add(user=game_master, roster=roster, infantry_class=InfantryClass.objects.get(code="rifleman"),
                                   unit=unit)
    vehicle = services.vehicle_add(user=game_master, roster=roster, kind="tank", name="Т-34")
    who = request.param
    headers = {"Accept-Encoding": "identity"}
    if who != "anonymous":
        headers["Authorization"] = f"Token {Token.objects.create(user=game_master if who == 'game_master' else player).key}"
    ids = {"campaign_id": campaign.pk, "battle_id": battle.pk, "character_id": character.pk, "roster_id": roster.pk,
           "unit_id": unit.pk, "fighter_id": fighter.pk, "vehicle_id": vehicle.pk,
           "participant_id": battle.participants.first().pk, "proposal_id": 1}
    # identity: schemathesis's WSGI transport asks for gzip (requests' default) but never decodes it; the
    # API answers gzip to a client that asks (GZipMiddleware, tests/test_standards.py).
    return {"headers": headers, "ids": ids, "examples": EXAMPLES if who == "game_master" else max(EXAMPLES // 2, 1)}


def _error_shape_problem(response) -> str | None:
    if response.status_code < 400:
        return None
    headers = {k.lower(): v for k, v in response.headers.items()}
    content_type = headers.get("content-type") or [""]
    content_type = content_type[0] if isinstance(content_type, list) else content_type
    if not content_type.startswith("application/json"):
        return f"error {response.status_code} is not JSON: {content_type}"
    body = response.json()
    if set(body) != {"error"} or not ERROR_KEYS <= set(body["error"]):
        return f"error {response.status_code} lacks the documented shape: {str(body)[:300]}"
    return None


@pytest.fixture
def keep_connection():
    """As Django's test client does: the request must not close the test's
    database connection (its transaction holds the fixtures)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.django_db
def test_generated_requests_get_no_server_error_and_match_the_schema(world, keep_connection):
    from django.core.handlers.wsgi import WSGIHandler

    schema = schemathesis.openapi.from_path(ROOT / "docs" / "openapi.yaml")
    app = WSGIHandler()  # as config.wsgi serves it
    appends_answered = [0]  # appends that reached the append view (not 404 for a made-up battle)
    failures: list[str] = []
    calls = [0]

    per_operation: dict[tuple[str, str], int] = {}

    def check(case, label: str) -> None:
        # Every other case of each operation on objects that exist (counted per operation: a count over all
        # calls could land every case of one operation on a generated id, which exists only by chance).
        seen = per_operation[(case.method, case.path)] = per_operation.get((case.method, case.path), -1) + 1
        if case.path_parameters and seen % 2 == 0:
            case.path_parameters = {k: world["ids"].get(k, v) for k, v in case.path_parameters.items()}
        calls[0] += 1
        response = case.call(app=app, headers=world["headers"])
        if case.method == "POST" and case.path.endswith("/events/") and response.status_code != 404:
            appends_answered[0] += 1
        where = f"{case.method} {case.formatted_path} ({label})"
        try:
            case.validate_response(response, checks=[not_a_server_error, status_code_conformance,
                                                     content_type_conformance, response_schema_conformance])
        except (Exception, BaseExceptionGroup) as exc:  # collected, not raised: no shrinking, all reported
            failures.append(f"{where}: {str(exc)[:500]}")
        problem = _error_shape_problem(response)
        if problem:
            failures.append(f"{where}: {problem}")

    def checker(label: str):
        def run(case) -> None:
            check(case, label)
        return run

    for result in schema.get_all_operations():
        operation = result.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            probe = settings(max_examples=world["examples"], deadline=None, database=None, derandomize=True,
                             phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))(
                given(case=operation.as_strategy(generation_mode=mode))(checker(mode.value)))
            try:
                probe()
            except Unsatisfiable:  # nothing to make invalid (an operation without inputs)
                continue

    assert calls[0] > 50, "the run made too few requests to mean anything"
    assert appends_answered[0] > 0, "no generated append reached the append view"
    assert not failures, f"{len(failures)} finding(s) in {calls[0]} requests:\n" + "\n".join(failures[:30])
