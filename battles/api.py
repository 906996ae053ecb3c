"""REST API of the battle log: append, read, state, and the event vocabulary.

No edit or delete verb exists for events: the log is append-only.
"""
from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from battles import engine
from campaign.models import Campaign
from campaign.roles import is_game_master
from config.conditional import last_modified
from config.errors import Forbidden
from config.inputs import int_param

from . import selectors, services
from .access import battle_role
from .engine import visibility
from .engine.terms import lang_of
from .log import http
from .log.http import EventOut, field_error
from .models import Battle
from .table import report


class EventReadOut(EventOut):
    """A stored event as a reader sees it, with what it did (issue 25: every description states the result)."""

    text = serializers.CharField(help_text="The event as a sentence with its outcome, in the request's language "
                                           "(Accept-Language: ru or en)")
    effects = serializers.ListField(child=serializers.DictField(), help_text=(
        "What it did (battles.engine.effects): rolls as {kind: roll, test, value, need, passed, id} and "
        "changed fates as {kind: wounded|killed|captured|freed|recovered|vehicle_damaged|vehicle_destroyed|"
        "running_gear|vehicle_captured|driven_off|morale|house_damaged|bunker_hit|mine_gone|mine_revealed|"
        "<FoW status>, id, ...}; empty until the replay has reached the event"))


class BattleOut(serializers.ModelSerializer):
    ruleset = serializers.CharField(source="campaign.ruleset", read_only=True,
                                    help_text="The campaign's ruleset, which replays this battle's log")
    dice_commitment = serializers.CharField(read_only=True, help_text=(
        "SHA-256 (hex) of the battle's dice secret, published before its first roll: every die the service "
        "rolls for the battle is derived from that secret (docs/verify.md, \"Committed dice\"). Keep it"))
    dice_secret = serializers.SerializerMethodField(help_text=(
        "The dice secret (64 hex digits), revealed once the battle has ended (or its campaign is finished); "
        "null before, to everyone"))

    class Meta:
        model = Battle
        fields = ["id", "campaign", "name", "number", "head_seq", "mission", "victory_conditions", "objectives",
                  "created_at", "ruleset", "dice_commitment", "dice_secret"]

    def get_dice_secret(self, battle: Battle) -> str | None:
        return (battle.dice_secret or None) if selectors.battle_dice_revealed(battle=battle) else None


class BattleIn(serializers.Serializer):
    campaign = serializers.IntegerField()
    name = serializers.CharField(max_length=200)
    number = serializers.IntegerField(required=False, min_value=1)
    mission = serializers.CharField(required=False, allow_blank=True, default="")
    victory_conditions = serializers.CharField(required=False, allow_blank=True, default="")
    objectives = serializers.ListField(child=serializers.IntegerField(), required=False, default=list,
                                       help_text="Campaign objectives at stake: the winner takes them")


def _told(rows: list[dict[str, Any]], battle_id: int, state: dict[str, Any], role: Any) -> None:
    """Each row's sentence and effects for this reader (the page's own words: ``battles.report``);
    nothing of an event whose content he may not see, nor of a mine he may not know of."""
    if not rows:
        return
    seen = visibility.state_for(state, role.side, game_master=role.is_game_master)
    lang = lang_of(get_language())
    names = selectors.battle_names(battle_id=battle_id)
    battle = Battle.objects.select_related("campaign").only(
        "id", "campaign__attacker_name", "campaign__defender_name").get(pk=battle_id)
    sides = {"attacker": battle.campaign.attacker_name, "defender": battle.campaign.defender_name}
    outcomes = selectors.battle_outcomes(battle_id=battle_id, first=rows[0]["seq"], last=rows[-1]["seq"])
    voided = set(state.get("voided") or ())
    namer = report.Namer(names, seen, lang, sides)
    for row in rows:
        hidden = isinstance(row["data"], dict) and bool(row["data"].get(visibility.REDACTED))
        effects = [] if hidden or row["seq"] in voided else [
            e for e in outcomes.get(row["seq"], []) if not str(e.get("kind", "")).startswith("mine_")
            or str(e.get("id")) in (seen.get("mines") or {})]
        told = report.sentence(row["type"], row["data"], lang, names=names, state=seen, sides=sides)
        row["text"] = f"{told} {report.outcome(effects, namer)}".strip()
        row["effects"] = effects


class BattleListView(APIView):
    @extend_schema(responses=BattleOut(many=True))
    def get(self, request: Request) -> Response:
        qs = Battle.objects.select_related("campaign").order_by("id")
        campaign = int_param(request, "campaign", None)
        if campaign is not None:
            qs = qs.filter(campaign_id=campaign)
        return Response(BattleOut(qs, many=True).data)

    @extend_schema(request=BattleIn, responses={201: BattleOut})
    def post(self, request: Request) -> Response:
        if not is_game_master(request.user):
            raise Forbidden("Создавать бои может только мастер.", "Only the game master may create battles.")
        data = BattleIn(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        campaign = get_object_or_404(Campaign, pk=v["campaign"])
        battle = services.battle_create(campaign=campaign, name=v["name"], number=v.get("number"),
                                        mission=v["mission"], victory_conditions=v["victory_conditions"],
                                        objectives=v["objectives"])
        return Response(BattleOut(battle).data, status=status.HTTP_201_CREATED)


class BattleDetailView(APIView):
    @extend_schema(responses=BattleOut)
    def get(self, request: Request, battle_id: int) -> Response:
        return Response(BattleOut(get_object_or_404(Battle.objects.select_related("campaign"), pk=battle_id)).data)


class BattleEventsView(http.AppendView):
    """The log read page by page (GET) and the append (POST, ``battles.log.http``)."""

    @extend_schema(
        parameters=[
            OpenApiParameter("after", int, description="Return events with seq > after (default 0)"),
            OpenApiParameter("limit", int, description="Page size, 1..1000 (default 100)"),
        ],
        responses=inline_serializer("EventPage", {
            "results": EventReadOut(many=True), "next": serializers.CharField(allow_null=True),
            "head_seq": serializers.IntegerField(),
        }),
    )
    def get(self, request: Request, battle_id: int) -> Response:
        # Read before the log, so the date is never later than what the answer shows (config.conditional).
        changed = selectors.battle_last_change(battle_id=battle_id)
        battle = get_object_or_404(Battle.objects.only("id", "head_seq"), pk=battle_id)
        after = int_param(request, "after", 0)
        limit = int_param(request, "limit", 100, lo=1, hi=1000)
        events = list(selectors.battle_events_list(battle_id=battle.id, after=after, limit=limit))
        nxt = None
        if events and events[-1].seq < battle.head_seq:
            nxt = request.build_absolute_uri(f"?after={events[-1].seq}&limit={limit}")
        results = EventOut(events, many=True).data
        role = battle_role(battle_id=battle.pk, user=request.user)
        view = selectors.battle_state_get(battle_id=battle.id)
        if not role.is_game_master:  # hidden information (mines, V-MINE-14) stays hidden
            for row in results:
                row["data"] = visibility.event_for(row["type"], row["data"], side=role.side, game_master=False,
                                                   state=view.state)
                # Who recorded and under which key is the table's business: an onlooker reads
                # neither, a participant no key of an event whose content is hidden from him.
                if not role.is_participant:
                    row["key"] = row["recorded_by"] = None
                elif isinstance(row["data"], dict) and row["data"].get(visibility.REDACTED):
                    row["key"] = None
        _told(results, battle.id, view.state, role)
        return last_modified(Response({"results": results, "next": nxt, "head_seq": battle.head_seq}), changed)


class BattleStateView(APIView):
    @extend_schema(responses=inline_serializer("BattleStateOut", {
        "battle": serializers.IntegerField(), "seq": serializers.IntegerField(),
        "head_seq": serializers.IntegerField(), "current": serializers.BooleanField(),
        "state": serializers.JSONField(), "updated_at": serializers.DateTimeField(allow_null=True),
    }))
    def get(self, request: Request, battle_id: int) -> Response:
        changed = selectors.battle_last_change(battle_id=battle_id)  # before the state (config.conditional)
        view = selectors.battle_state_get(battle_id=battle_id)
        if view is None:
            get_object_or_404(Battle, pk=battle_id)
        role = battle_role(battle_id=battle_id, user=request.user)
        state = visibility.state_for(view.state, role.side, game_master=role.is_game_master)
        return last_modified(Response({
            "battle": view.battle_id, "seq": view.seq, "head_seq": view.head_seq, "current": view.current,
            "state": state, "updated_at": view.updated_at,
        }), changed)


class BattleLogVerifyView(APIView):
    @extend_schema(
        responses=inline_serializer("LogVerdict", {
            "battle": serializers.IntegerField(),
            "head_seq": serializers.IntegerField(),
            "head_chain": serializers.CharField(allow_null=True, help_text=(
                "The hash chain at the head (64 hex digits, SHA-256; the battle's genesis before its first event): "
                "keep it, and a later rewrite of anything up to it is detected. Null for a reader from whom some "
                "event's content is hidden (an enemy's unrevealed mine)")),
            "ok": serializers.BooleanField(help_text="Every stored event's chain is the one its content and the "
                                                     "event before it give, and the dice hold (dice.ok)"),
            "first_broken_seq": serializers.IntegerField(allow_null=True, help_text=(
                "The first seq whose chain does not hold, or that is missing; null when the chain holds")),
            "dice": inline_serializer("DiceVerdict", {
                "commitment": serializers.CharField(help_text="SHA-256 (hex) of the dice secret, public from the "
                                                              "battle's creation"),
                "secret": serializers.CharField(allow_null=True, help_text=(
                    "The dice secret (hex), once revealed (the battle ended, or its campaign is finished); null "
                    "before, to everyone")),
                "revealed": serializers.BooleanField(),
                "ok": serializers.BooleanField(help_text="commitment_ok, and every derived die re-derives"),
                "commitment_ok": serializers.BooleanField(help_text="SHA-256 of the secret is the commitment "
                                                                    "(checked by the server before the reveal)"),
                "checked": serializers.IntegerField(help_text="Dice the service derived from the secret "
                                                              "(rng \"hmac-sha256\"), each re-derived"),
                "first_bad_seq": serializers.IntegerField(allow_null=True, help_text=(
                    "The first seq holding a derived die that is not its derivation; null when all are")),
                "uncommitted": serializers.IntegerField(help_text=(
                    "Dice the service drew without a commitment (rng \"secrets\": before committed dice, or after "
                    "the reveal), the command rolls' included: nothing can re-derive them")),
                "command_checked": serializers.IntegerField(help_text=(
                    "Dice of the pre-battle command rolls (V-RANK-9, V-RANK-10) the service derived from the secret "
                    "(at seq 0, path [\"command_roll\", side, round, character]), each re-derived")),
                "first_bad_command_roll": inline_serializer("BadCommandRoll", {
                    "side": serializers.CharField(), "round": serializers.IntegerField()}, allow_null=True,
                    help_text="The first command roll holding a derived die that is not its derivation; null when "
                              "all are"),
                "command_dice": inline_serializer("CommandDie", {
                    "side": serializers.CharField(), "round": serializers.IntegerField(),
                    "character": serializers.CharField(help_text="The character's id"),
                    "value": serializers.IntegerField(), "rng": serializers.CharField(allow_null=True),
                }, many=True, help_text="Every die the service rolled in the command rolls, to re-derive once the "
                                        "secret is revealed (docs/verify.md, \"Committed dice\")"),
            }, allow_null=True, help_text="The battle's committed dice; null for a battle without a secret"),
        }),
        description=("The battle's hash-chained log checked by the server from the first event, and its "
                     "committed dice (docs/verify.md, \"Verifying a log\"): anyone who may read the log may ask."),
    )
    def get(self, request: Request, battle_id: int) -> Response:
        verdict = selectors.battle_log_verify(battle_id=battle_id)
        if verdict is None:
            get_object_or_404(Battle.objects.only("id"), pk=battle_id)  # (the 404's own words)
        role = battle_role(battle_id=battle_id, user=request.user)
        hides = selectors.battle_log_hides(battle_id=battle_id, side=role.side, game_master=role.is_game_master)
        dice = verdict.dice
        return Response({"battle": verdict.battle_id, "head_seq": verdict.head_seq,
                         "head_chain": None if hides else verdict.head_chain, "ok": verdict.ok,
                         "first_broken_seq": verdict.first_broken_seq,
                         "dice": None if dice is None else {
                             "commitment": dice.commitment, "secret": dice.secret, "revealed": dice.revealed,
                             "ok": dice.ok, "commitment_ok": dice.commitment_ok, "checked": dice.checked,
                             "first_bad_seq": dice.first_bad_seq, "uncommitted": dice.uncommitted,
                             "command_checked": dice.command_checked, "first_bad_command_roll": dice.first_bad_command,
                             "command_dice": list(dice.command_dice)}})


class EventFeedView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("after_position", int), OpenApiParameter("limit", int)],
        responses=inline_serializer("EventFeed", {
            "results": inline_serializer("FeedEvent", {"battle": serializers.IntegerField(),
                                                       "position": serializers.IntegerField(),
                                                       "seq": serializers.IntegerField(),
                                                       "type": serializers.CharField(),
                                                       "data": serializers.JSONField()}, many=True),
        }),
        description="Every battle's events in global position order, for catch-up readers.",
    )
    def get(self, request: Request) -> Response:
        after = int_param(request, "after_position", 0)
        limit = int_param(request, "limit", 100, lo=1, hi=1000)
        rows = list(selectors.events_after_position(position=after, limit=limit))
        data = {e.position: e.data for e in rows}
        # A mine the reader may not know of (V-MINE-14) is left out of a sapper's
        # event, which then carries ``redacted: true`` (battles.engine.visibility).
        if not is_game_master(request.user):
            secret = {e.battle_id for e in rows if e.type in ("sapper_worked", "sapper_approached")}
            states = selectors.battle_states(battle_ids=secret)
            sides = selectors.user_sides(user=request.user, battle_ids=secret)
            for e in rows:
                if e.battle_id in secret:
                    data[e.position] = visibility.event_for(e.type, e.data, side=sides.get(e.battle_id),
                                                            game_master=False, state=states.get(e.battle_id, {}))
        return Response({"results": [
            {"battle": e.battle_id, "position": e.position, "seq": e.seq, "type": e.type, "data": data[e.position],
             "schema_version": e.schema_version}
            for e in rows
        ]})


class EventTypesView(APIView):
    @extend_schema(parameters=[OpenApiParameter("ruleset", str, enum=list(engine.RULESETS),
                                                description="v11.2 (default) or fow")],
                   responses=inline_serializer("EventTypes", {"results": serializers.JSONField()}))
    def get(self, request: Request) -> Response:
        code = request.query_params.get("ruleset") or "v11.2"
        if code not in engine.RULESETS:
            known = ", ".join(engine.RULESETS)
            raise field_error("ruleset", f"неизвестные правила (есть {known})", f"unknown ruleset (known: {known})")
        return Response({"ruleset": code, "results": engine.vocabulary(code)})


class BattleEventTypesView(APIView):
    @extend_schema(responses=inline_serializer("BattleEventTypes", {"ruleset": serializers.CharField(),
                                                                    "results": serializers.JSONField()}),
                   description="The event vocabulary of this battle's ruleset (its campaign's).")
    def get(self, request: Request, battle_id: int) -> Response:
        battle = get_object_or_404(Battle.objects.select_related("campaign").only("id", "campaign__ruleset"),
                                   pk=battle_id)
        code = selectors.battle_ruleset(battle=battle)
        return Response({"ruleset": code, "results": engine.vocabulary(code)})
