"""REST API of a battle's setup: its participants (the characters who fight,
with their rosters) and mustering them onto the table. The game master
writes; anybody may read who fights. Every write checks the game master
before it looks at what was sent."""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from battles.models import Battle, BattleParticipant
from campaign.models import Character
from campaign.selectors import player_names
from config.errors import InvalidInput, NotFound
from rosters.models import Roster

from . import muster, selectors


class ParticipantOut(serializers.Serializer):
    id = serializers.IntegerField()
    battle = serializers.IntegerField()
    side = serializers.ChoiceField(choices=BattleParticipant.Side.choices)
    side_label = serializers.CharField(help_text="The campaign's name of the side")
    character = serializers.IntegerField()
    character_name = serializers.CharField()
    player = serializers.CharField(allow_null=True, help_text=(
        "Who plays the character (full name, else login name), for the player himself, the game master and the "
        "campaign's players; null for anyone else"))
    roster = serializers.IntegerField(allow_null=True)
    roster_name = serializers.CharField()
    mustered_seq = serializers.IntegerField(allow_null=True, help_text="The side's force_mustered event")
    mustered_total = serializers.IntegerField(allow_null=True, help_text="The roster's price when mustered, PP")
    mustered_version = serializers.IntegerField(allow_null=True, help_text="Its game-data version then")
    mustered_at = serializers.DateTimeField(allow_null=True)


class ParticipantIn(serializers.Serializer):
    character = serializers.IntegerField(help_text="An active campaign member's character (his side is used)")
    roster = serializers.IntegerField(help_text="One of the character's submitted rosters for this campaign")


@extend_schema_field({"type": "string", "enum": ["attacker", "defender"],
                      "description": "FoW battles only: who moves first (default attacker); the seeds do not say, "
                                     "the game master decides"})
class FirstMoverField(serializers.ChoiceField):
    """The sides' choice set under its own name: an enum here would collide with ``SideEnum``."""

    def __init__(self, **kwargs):
        super().__init__(choices=BattleParticipant.Side.choices, **kwargs)


class MusterIn(serializers.Serializer):
    units = serializers.ChoiceField(choices=[("in", "inches"), ("cm", "centimetres")], required=False,
                                    help_text="FoW battles only: the units the table measures in (default in)")
    first_mover = FirstMoverField(required=False)


def _battle(battle_id: int) -> Battle:
    return get_object_or_404(Battle.objects.select_related("campaign"), pk=battle_id)


def _participants(battle: Battle, viewer) -> list[dict]:
    participants = selectors.battle_participants(battle=battle)
    players = player_names(viewer=viewer, characters=[p.character for p in participants])
    return [selectors.participant_out(p, players) for p in participants]


def _get(model, pk: int, field: str, ru: str, en: str):
    obj = model.objects.filter(pk=pk).first()
    if obj is None:
        raise NotFound(f"{field}: {ru} {pk} не найден.", f"{field}: {en} {pk} not found.", field=field)
    return obj


class ParticipantsView(APIView):
    @extend_schema(responses=ParticipantOut(many=True), description="Who fights in the battle, by side.")
    def get(self, request: Request, battle_id: int) -> Response:
        return Response(ParticipantOut(_participants(_battle(battle_id), request.user), many=True).data)

    @extend_schema(
        request=ParticipantIn, responses={201: ParticipantOut},
        description=("The game master adds a character with his roster. 403 for anybody else (checked first); "
                     "400 names the field when the character is not an active member with a side or the roster "
                     "is not his submitted, valid roster of this campaign and side; 409 once the battle is "
                     "mustered or when the character already fights in it."),
    )
    def post(self, request: Request, battle_id: int) -> Response:
        muster.require_master(request.user)
        battle = _battle(battle_id)
        data = ParticipantIn(data=request.data)
        data.is_valid(raise_exception=True)
        character = _get(Character, data.validated_data["character"], "character", "персонаж", "character")
        roster = _get(Roster, data.validated_data["roster"], "roster", "состав", "roster")
        p = muster.battle_participant_add(user=request.user, battle=battle, character=character, roster=roster)
        out = next(x for x in _participants(battle, request.user) if x["id"] == p.pk)
        return Response(ParticipantOut(out).data, status=status.HTTP_201_CREATED)


class ParticipantDetailView(APIView):
    @extend_schema(responses={204: None}, description="The game master removes a participant before the muster.")
    def delete(self, request: Request, battle_id: int, participant_id: int) -> Response:
        muster.require_master(request.user)
        participant = BattleParticipant.objects.filter(pk=participant_id, battle_id=battle_id).first()
        if participant is None:
            raise NotFound(f"Участник {participant_id} не найден в этом бою.",
                           f"Participant {participant_id} not found in this battle.", field="participant")
        muster.battle_participant_remove(user=request.user, participant=participant)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MusterView(APIView):
    @extend_schema(
        request=MusterIn,
        responses={201: inline_serializer("MusterOut", {
            "head_seq": serializers.IntegerField(),
            "events": inline_serializer("MusteredEvent", {"seq": serializers.IntegerField(),
                                                          "type": serializers.CharField()}, many=True),
            "participants": ParticipantOut(many=True),
        })},
        description=("The game master musters every participant's roster: one force_mustered per side and "
                     "battle_started, in one batch; the rosters are locked until the battle ends. 403 for anybody "
                     "else; 400 when a side has no participant with a roster or a roster is no longer submitted "
                     "and valid; 409 when already mustered; 422 if the engine refuses the forces. A Flames of War "
                     "battle takes the table's units (in or cm) and who moves first (attacker or defender; the "
                     "seeds do not say); a v11.2 battle refuses them (400 naming the field)."),
    )
    def post(self, request: Request, battle_id: int) -> Response:
        muster.require_master(request.user)
        battle = _battle(battle_id)
        data = MusterIn(data=request.data)
        data.is_valid(raise_exception=True)
        choices = dict(data.validated_data)
        if battle.campaign.ruleset != "fow" and choices:
            field = next(iter(choices))
            raise InvalidInput(f"{field}: только для боя Flames of War.", f"{field}: for a Flames of War battle only.",
                               field=field)
        result = muster.battle_muster(user=request.user, battle=battle, **choices)
        return Response({
            "head_seq": result.battle.head_seq,
            "events": [{"seq": e.seq, "type": e.type} for e in result.events],
            "participants": ParticipantOut(_participants(result.battle, request.user), many=True).data,
        }, status=status.HTTP_201_CREATED)
