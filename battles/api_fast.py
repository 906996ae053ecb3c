"""The append endpoint's lean path: ``POST /api/battles/{id}/events/`` with a
token, without DRF's layers.

The same request, the same response and error bodies, the same order of
decisions as ``api.BattleEventsView.post`` (whose OpenAPI description stays
the contract): who the user is at the table (403 before the body is read),
then the body (400 naming the field), then the append service. What it
leaves out is DRF's per-request machinery (request wrapping, content
negotiation, authentication and permission classes, serializers), about 5 ms
of CPU a request, on two cores the ceiling of single-event appends.

It takes only the plain case, and hands everything else to the DRF view,
which answers exactly as before: no ``Authorization: Token`` header (session
users keep DRF's CSRF check), an unknown or inactive token, an unknown
battle, a body that is not ``application/json`` in UTF-8 or does not parse,
and any other method. The token, the user, his game-master role and his participants
in this battle are read in one query and kept per process for
``SHTAB["TOKEN_CACHE_SECONDS"]`` (5): a change saved through the ORM in this
process (a token deleted, a user saved, his groups, a battle's participants,
a character's owner) empties the cache at once; one made in another process
(another server process, the admin's, a shell, a bulk ``update()``) counts
within the TTL. ``battles.wsgi_fast`` answers these requests before Django's
middleware; ``battle_events`` below is the same path inside Django (the
test client, and servers not started from ``config.wsgi``).
"""
from __future__ import annotations

import json
import threading
import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.settings import ISO_8601, api_settings

from campaign.roles import GAME_MASTER
from config import errors, inputs
from config.errors import ApplicationError, Forbidden, RuleRefused

from . import selectors, services
from .access import ONLOOKER, BattleRole
from .api import BattleEventsView, parse_append

_RENDERER = JSONRenderer()
_AT = serializers.DateTimeField()
_drf_view = BattleEventsView.as_view()


def _at(value: Any) -> str:
    """``_AT.to_representation(value)`` for the aware datetime an append
    stores, without DRF's field machinery (a twentieth of the request's CPU):
    in the current time zone, ISO 8601, ``Z`` for UTC. Any other setting
    (a DATETIME_FORMAT of the project's, USE_TZ off) is DRF's answer."""
    if not settings.USE_TZ or api_settings.DATETIME_FORMAT != ISO_8601 or value.tzinfo is None:
        return _AT.to_representation(value)
    text = value.astimezone(timezone.get_current_timezone()).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def _role_sql() -> str:
    from django.contrib.auth.models import Group
    from rest_framework.authtoken.models import Token

    from campaign.models import Character

    from .models import Battle, BattleParticipant

    user = get_user_model()
    users, groups = user._meta.db_table, Group._meta.db_table
    user_groups = user._meta.get_field("groups").remote_field.through._meta.db_table
    return (
        f"SELECT u.id, u.username, u.is_active, u.is_superuser, "
        f"EXISTS (SELECT 1 FROM {user_groups} ug JOIN {groups} g ON g.id = ug.group_id "
        f"WHERE ug.user_id = u.id AND g.name = %s), "
        f"EXISTS (SELECT 1 FROM {Battle._meta.db_table} b WHERE b.id = %s), "
        f"(SELECT string_agg(p.side || ':' || p.character_id, ',' ORDER BY p.id) "
        f"FROM {BattleParticipant._meta.db_table} p JOIN {Character._meta.db_table} c ON c.id = p.character_id "
        f"WHERE p.battle_id = %s AND c.owner_id = u.id) "
        f"FROM {Token._meta.db_table} t JOIN {users} u ON u.id = t.user_id WHERE t.key = %s"
    )


_SQL: list[str] = []


_clock = time.monotonic
_CACHE: dict[tuple[str, int], tuple[float, tuple[Any, BattleRole]]] = {}
_CACHE_LOCK = threading.Lock()
_CACHE_MAX = 10_000
_GENERATION = [0]  # bumped by every forget: a read that began before it is not kept


def forget_roles(**_: Any) -> None:
    """Empty this process's token and role cache (a signal receiver: tokens,
    users, groups, participants, characters, battles)."""
    with _CACHE_LOCK:
        _GENERATION[0] += 1
        _CACHE.clear()


def _connect_forget() -> None:
    from django.contrib.auth.models import Group
    from rest_framework.authtoken.models import Token

    from campaign.models import Character

    from .models import Battle, BattleParticipant

    user = get_user_model()
    for model in (Token, user, Group, BattleParticipant, Character, Battle):
        for signal in (post_save, post_delete):
            signal.connect(forget_roles, sender=model, dispatch_uid=f"shtab-lean-roles-{signal is post_save}-"
                                                                    f"{model._meta.label}")
    m2m_changed.connect(forget_roles, sender=user.groups.through, dispatch_uid="shtab-lean-roles-groups")


_connect_forget()


def _who(key: str, battle_id: int) -> tuple[Any, BattleRole] | None:
    """The token's user and his role at the battle (``access.battle_role``'s
    answer), from this process's cache when read less than
    ``SHTAB["TOKEN_CACHE_SECONDS"]`` ago, else in one query; ``None`` when DRF
    should answer (no such token, an inactive user, no such battle), which is
    never kept."""
    ttl = settings.SHTAB.get("TOKEN_CACHE_SECONDS", 0)
    if ttl <= 0:
        return _read_who(key, battle_id)
    now = _clock()
    hit = _CACHE.get((key, battle_id))
    if hit is not None and hit[0] > now:
        return hit[1]
    generation = _GENERATION[0]
    who = _read_who(key, battle_id)
    if who is not None:
        with _CACHE_LOCK:
            if generation != _GENERATION[0]:
                return who
            if len(_CACHE) >= _CACHE_MAX:
                _CACHE.clear()
            _CACHE[(key, battle_id)] = (now + ttl, who)
    return who


def _read_who(key: str, battle_id: int) -> tuple[Any, BattleRole] | None:
    if not _SQL:
        _SQL.append(_role_sql() if connection.vendor == "postgresql" else _role_sql().replace(
            "string_agg(p.side || ':' || p.character_id, ',' ORDER BY p.id)", "group_concat(p.side || ':' || p.character_id)"))
    with connection.cursor() as cur:
        cur.execute(_SQL[0], [GAME_MASTER, battle_id, battle_id, key])
        row = cur.fetchone()
    if row is None or not row[2] or not row[5]:
        return None
    uid, username, _active, superuser, game_master, _exists, parts = row
    user = get_user_model()(id=uid, username=username, is_active=True, is_superuser=superuser)
    if superuser or game_master:
        return user, BattleRole(is_game_master=True)
    if not parts:
        return user, ONLOOKER
    pairs = [p.rsplit(":", 1) for p in parts.split(",")]
    return user, BattleRole(side=pairs[0][0], characters=tuple(int(c) for _, c in pairs))


def _allow() -> str:
    view = BattleEventsView()
    if hasattr(view, "get") and not hasattr(view, "head"):  # as View.setup() does for each request
        view.head = view.get
    return ", ".join(view.allowed_methods)


_ALLOW = _allow()


def _json(data: Any, status: int) -> HttpResponse:
    """The answer with the headers DRF's ``finalize_response`` adds (``Allow``, ``Vary: Accept``)."""
    response = HttpResponse(_RENDERER.render(data), status=status, content_type="application/json")
    response.headers["Vary"] = "Accept"
    response.headers["Allow"] = _ALLOW
    return response


def _refuse_constant(name: str) -> Any:
    raise ValueError(name)


def lean_append(request: HttpRequest, battle_id: int) -> HttpResponse | None:
    """The append, or ``None`` for the DRF view to answer. A database or broker
    outage is DRF's answer (``config.errors.api_exception_handler``): logged,
    503 with ``Retry-After``; any other exception propagates as from the DRF
    view (Django's 500, in the API's JSON shape)."""
    try:
        return _lean_append(request, battle_id)
    except Exception as exc:
        if not errors.outage(exc):
            raise
        errors.log.error("API answered 503: %s", exc, exc_info=exc)
        response = _json(errors.error_body("service_unavailable"), 503)
        response.headers["Retry-After"] = str(errors.RETRY_AFTER)
        return response


def _lean_append(request: HttpRequest, battle_id: int) -> HttpResponse | None:
    header = request.META.get("HTTP_AUTHORIZATION", "").split()
    if len(header) != 2 or header[0].lower() != "token" or request.content_type != "application/json":
        return None
    if request.content_params.get("charset", "utf-8").lower() not in ("utf-8", "utf8"):
        return None  # DRF decodes other charsets
    who = _who(header[1], battle_id)
    if who is None:
        return None
    user, role = who
    try:
        if not role.may_record:  # authorization first: strangers learn nothing of the body
            raise Forbidden("Журнал боя записывают только его участники и мастер.",
                            "Only the battle's participants and the game master record its log.",
                            code="not_a_participant")
        try:
            raw = request.body
            body = json.loads(raw, parse_constant=_refuse_constant)
            if not inputs.json_surely_fine(raw, inputs.MAX_BODY_DEPTH):
                inputs.refuse_bad(body, max_depth=inputs.MAX_BODY_DEPTH)
        except Exception:  # the parser's own answers (400, 413, depth, NUL): DRF gives them
            return None
        expected, events = parse_append(body)
        try:
            result = services.battle_event_append(battle_id=battle_id, events=events, expected_seq=expected,
                                                  recorded_by=user, role=role)
        except RuleRefused as exc:  # the engine names ids; the answer names the pieces
            raise selectors.error_with_names(exc, battle_id=battle_id) from exc.__cause__
    except ApplicationError as exc:
        return _json({"error": exc.as_dict()}, exc.status_code)
    at = _at(result.events[0].recorded_at) if result.events else None
    same_at = all(e.recorded_at == result.events[0].recorded_at for e in result.events)
    out = [{"seq": e.seq, "position": e.position, "type": e.type, "data": e.data, "schema_version": e.schema_version,
            "key": e.key, "recorded_by": e.recorded_by.username if e.recorded_by_id is not None else None,
            "recorded_at": at if same_at else _at(e.recorded_at)}
           for e in result.events]
    return _json(out, 201 if result.created else 200)


@csrf_exempt
def battle_events(request: HttpRequest, battle_id: int) -> HttpResponse:
    """``/api/battles/{id}/events/``: the lean append for a token's POST, the
    DRF view for everything else (and for what the lean path hands back)."""
    if request.method == "POST":
        response = lean_append(request, battle_id)
        if response is not None:
            return response
    return _drf_view(request, battle_id=battle_id)


# drf-spectacular and DRF's tooling find the view class here: the schema is the DRF view's.
battle_events.cls = BattleEventsView  # type: ignore[attr-defined]
battle_events.initkwargs = _drf_view.initkwargs  # type: ignore[attr-defined]
