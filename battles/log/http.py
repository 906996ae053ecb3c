"""The append over HTTP: ``POST /api/battles/{id}/events/`` (docs/append.md,
"The HTTP append"). Who the user is at this table is decided before the body
is read; the body is checked field by field; the event store decides the rest.
"""
from __future__ import annotations

from typing import Any

import msgspec
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.views import APIView

from battles import selectors, services
from battles.access import battle_role
from battles.models import Battle
from config.errors import Forbidden, InvalidInput, RuleRefused
from config.inputs import MAX_INT


class EventOut(serializers.Serializer):
    seq = serializers.IntegerField()
    position = serializers.IntegerField()
    type = serializers.CharField()
    data = serializers.JSONField()
    schema_version = serializers.IntegerField()
    key = serializers.CharField(allow_null=True, help_text=(
        "Idempotency key; in reads null for anyone but the battle's participants and game master, and for a "
        "participant on an event whose content is hidden from him"))
    recorded_by = serializers.CharField(source="recorded_by.username", allow_null=True, default=None, help_text=(
        "The recorder's login; in reads null for anyone but the battle's participants and game master"))
    recorded_at = serializers.DateTimeField()


_AT = serializers.DateTimeField()


def events_out(events: list[Any]) -> list[dict[str, Any]]:
    """``EventOut(events, many=True).data``, cheaper (``test_append_answer_is_the_serializers``)."""
    return [{"seq": e.seq, "position": e.position, "type": e.type, "data": e.data,
             "schema_version": e.schema_version, "key": e.key,
             "recorded_by": e.recorded_by.username if e.recorded_by_id is not None else None,
             "recorded_at": _AT.to_representation(e.recorded_at)} for e in events]


class EventIn(serializers.Serializer):
    type = serializers.CharField(help_text="One of GET /api/event-types/")
    data = serializers.JSONField(help_text="Payload, per the type's JSON Schema")
    key = serializers.CharField(required=False, allow_null=True, max_length=128,
                                help_text="Idempotency key, unique per battle")
    schema_version = serializers.IntegerField(required=False, allow_null=True)


class AppendIn(serializers.Serializer):
    expected_seq = serializers.IntegerField(allow_null=True, help_text="The seq of the last event you have seen")
    events = EventIn(many=True)


def field_error(field: str, ru: str, en: str) -> InvalidInput:
    return InvalidInput(f"{field}: {ru}", f"{field}: {en}", field=field)


def parse_append(body: Any) -> tuple[int | None, list[services.NewEvent]]:
    """The request shape, checked field by field with bilingual messages."""
    if not isinstance(body, dict):
        raise field_error("body", "ожидается JSON-объект", "a JSON object is expected")
    unknown = sorted(set(body) - {"expected_seq", "events"})
    if unknown:
        raise field_error(unknown[0], "неизвестное поле", "unknown field")
    if "expected_seq" not in body:
        raise field_error("expected_seq", "поле обязательно (null — без проверки)",
                           "this field is required (null skips the check)")
    expected = body["expected_seq"]
    if expected is not None and (isinstance(expected, bool) or not isinstance(expected, int)
                                 or not 0 <= expected <= MAX_INT):
        raise field_error("expected_seq", f"ожидается целое число от 0 до {MAX_INT} или null",
                           f"expected an integer from 0 to {MAX_INT} or null")
    items = body.get("events")
    if not isinstance(items, list):
        raise field_error("events", "ожидается список событий", "expected a list of events")
    out = []
    for i, item in enumerate(items):
        path = f"events[{i}]"
        if not isinstance(item, dict):
            raise field_error(path, "ожидается объект", "expected an object")
        extra = sorted(set(item) - {"type", "data", "key", "schema_version"})
        if extra:
            raise field_error(f"{path}.{extra[0]}", "неизвестное поле", "unknown field")
        for req in ("type", "data"):
            if req not in item:
                raise field_error(f"{path}.{req}", "поле обязательно", "this field is required")
        version = item.get("schema_version")
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
            raise field_error(f"{path}.schema_version", "ожидается целое число", "expected an integer")
        out.append(services.NewEvent(type=item["type"], data=item["data"], key=item.get("key"),
                                     schema_version=version))
    return expected, out


class AppendView(APIView):
    # Reads are open (a later layer hides what a reader may not see); writing needs a login, and a seat
    # at this battle's table, decided from its participants before the body is read.
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        request=AppendIn,
        responses={201: EventOut(many=True), 200: EventOut(many=True)},
        description=(
            "Append a batch atomically. 201 with the stored events; 200 with the original events when every "
            "key was already stored (a retry); 400 names the malformed field; 403 for anyone not at this table (participants and the game master record; decided before the body is read) and for an event another side or the game master records (see recorded_by in GET /api/event-types/); "
            "409 when expected_seq is stale (with current_seq) or a key is misused; 422 names the rule ID the "
            "engine refused. Nothing is written on any error."
        ),
    )
    def post(self, request: Request, battle_id: int) -> HttpResponse:
        # Authorization first: who the user is at this table, before the body is parsed (strangers get
        # 403 whatever they sent); which events his side may record, the store decides event by event.
        role = battle_role(battle_id=battle_id, user=request.user)  # the GM's unknown battle: the store says 404
        if not role.may_record:
            get_object_or_404(Battle.objects.only("id"), pk=battle_id)  # (only on a refusal: no query otherwise)
            raise Forbidden("Журнал боя записывают только его участники и мастер.",
                            "Only the battle's participants and the game master record its log.",
                            code="not_a_participant")
        expected, events = parse_append(request.data)
        try:
            result = services.battle_event_append(
                battle_id=battle_id, events=events, expected_seq=expected, recorded_by=request.user, role=role,
            )
        except RuleRefused as exc:  # the engine names ids; the answer names the pieces
            raise selectors.error_with_names(exc, battle_id=battle_id) from exc.__cause__
        code = status.HTTP_201_CREATED if result.created else status.HTTP_200_OK  # JSON, whatever the client
        # accepts: the stored events are plain JSON (DRF's renderer took 7 % of an append's CPU)
        return HttpResponse(msgspec.json.encode(events_out(result.events)), status=code, content_type="application/json")
