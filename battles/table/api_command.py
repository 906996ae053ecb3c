"""The API of a side's pre-battle command (V-RANK-9..11): the roll for captain
and the captain's posts, at ``/api/battles/{id}/command/...``. The page's forms
are in ``battles.table.views``; both call ``battles.table.command``."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from battles.access import battle_role
from battles.models import Battle
from campaign.models import Membership, Side
from campaign.roles import is_game_master
from config import rows
from config.errors import Forbidden, InvalidInput
from config.inputs import ascii_int, json_object

from . import command


def _battle_at_table(request: Request, battle_id: int) -> Battle:
    """The battle, for its game master or participants only (V-RANK-9: the
    command is decided by the team that fights it); decided before the body
    is read, so a stranger learns nothing. A battle whose participants are not
    set up yet is open to the campaign's players (the service then checks the side)."""
    battle = rows.with_parent_or_404(Battle, battle_id, "campaign")
    if battle.participants.exists():
        allowed = battle_role(battle_id=battle.pk, user=request.user).may_record
    else:
        allowed = is_game_master(request.user) or Membership.objects.filter(
            campaign_id=battle.campaign_id, player=request.user, status=Membership.Status.ACTIVE).exists()
    if not allowed:
        raise Forbidden("Командование боя определяют его участники и мастер.",
                        "Only the battle's participants and the game master decide its command.",
                        code="not_a_participant")
    return battle


class CommandRollView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=inline_serializer("CommandRollIn", {
            "side": serializers.ChoiceField(choices=Side.choices),
            "rolls": serializers.DictField(help_text="character id → {\"value\": 1..20, \"source\": \"entered\"} "
                                                     "or {\"source\": \"rolled\"} (the service rolls)")}),
        responses=inline_serializer("CommandStateOut", {"captain": serializers.IntegerField(allow_null=True),
                                                        "contenders": serializers.ListField(),
                                                        "rounds": serializers.IntegerField()}),
        description="V-RANK-9/10: each player of the side rolls; the highest is captain; ties re-roll (G-13).")
    def post(self, request: Request, battle_id: int) -> Response:
        battle = _battle_at_table(request, battle_id)
        body = json_object(request)
        rolls = body.get("rolls")
        if not isinstance(rolls, dict) or not all(ascii_int(k) is not None for k in rolls):
            raise InvalidInput("rolls: объект «id персонажа → бросок».", "rolls: an object character id → die.",
                               field="rolls")
        st = command.command_roll(battle=battle, side=body.get("side", ""), by=request.user,
                                   rolls={ascii_int(k): v for k, v in rolls.items()})
        return Response({"captain": st.captain, "contenders": st.contenders, "rounds": st.rounds},
                        status=status.HTTP_201_CREATED)


class CommandAssignView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=inline_serializer("CommandAssignIn", {
        "side": serializers.ChoiceField(choices=Side.choices),
        "posts": serializers.DictField(help_text="character id → {\"post\": str, \"rank\": corporal|sergeant|lieutenant}")}),
        responses={201: None}, description="V-RANK-11: the captain assigns every other player a post and rank.")
    def post(self, request: Request, battle_id: int) -> Response:
        battle = _battle_at_table(request, battle_id)
        body = json_object(request)
        posts = body.get("posts")
        if not isinstance(posts, dict) or not all(ascii_int(k) is not None and isinstance(v, dict)
                                                  for k, v in posts.items()):
            raise InvalidInput("posts: объект «id персонажа → должность».", "posts: an object character id → post.",
                               field="posts")
        command.command_assign(battle=battle, side=body.get("side", ""), by=request.user,
                                posts={ascii_int(k): v for k, v in posts.items()})
        return Response(status=status.HTTP_201_CREATED)
