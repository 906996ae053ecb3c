"""REST API of campaigns: overview, standings (now or as of battle N),
chronicle, characters and service records, joining, pre-battle command, and
the game master's decisions on proposals."""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.conditional import last_modified
from config.errors import InvalidInput, NotFound
from config.inputs import int_param, json_object

from . import selectors, services
from .chronicle import describe_all
from .models import Campaign, Character, Gender, Nationality, Proposal, Rank
from .roles import is_game_master


class CampaignOut(serializers.ModelSerializer):
    class Meta:
        model = Campaign
        fields = ["id", "name", "ruleset", "status", "description", "attacker_name", "defender_name",
                  "map_description", "created_at"]


class CharacterOut(serializers.ModelSerializer):
    player = serializers.SerializerMethodField(help_text=(
        "Who plays the character (full name, else login name), for the player himself, the game master and "
        "the players of a campaign the character serves in; null for anyone else."))
    nationality = serializers.CharField(source="nationality.code")
    photo = serializers.ImageField(read_only=True)

    class Meta:
        model = Character
        fields = ["id", "name", "player", "nationality", "rank", "gender", "photo"]

    def get_player(self, obj: Character) -> str | None:
        names = self.context.get("player_names")
        if names is None:
            names = selectors.player_names(viewer=self.context["request"].user, characters=[obj])
        return names.get(obj.pk)


class CharacterIn(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    nationality = serializers.SlugRelatedField(slug_field="code", queryset=Nationality.objects.all())
    rank = serializers.ChoiceField(choices=Rank.choices, default=Rank.CORPORAL)
    gender = serializers.ChoiceField(choices=Gender.choices, default=Gender.MASCULINE)


class CampaignEventOut(serializers.Serializer):
    id = serializers.IntegerField()
    type = serializers.CharField()
    text = serializers.CharField()
    data = serializers.JSONField()
    campaign = serializers.IntegerField(source="campaign_id", allow_null=True)
    battle = serializers.IntegerField(source="battle_id", allow_null=True)
    character = serializers.IntegerField(source="character_id", allow_null=True)
    source_seq = serializers.IntegerField(source="source_event.seq", allow_null=True, default=None)
    battle_number = serializers.IntegerField()
    recorded_at = serializers.DateTimeField()


class ProposalOut(serializers.ModelSerializer):
    character_name = serializers.CharField(source="character.name")
    award_code = serializers.CharField(source="award.code", allow_null=True, default=None)

    class Meta:
        model = Proposal
        fields = ["id", "campaign", "battle", "character", "character_name", "award", "award_code", "to_rank",
                  "facts", "status", "note", "decided_at"]


def _as_of(request: Request, campaign_id: int | None = None) -> int | None:
    as_of = int_param(request, "as_of", None, hi=2**31 - 1)
    if campaign_id is not None and not selectors.as_of_exists(campaign=campaign_id, as_of=as_of):
        raise NotFound(f"as_of: боя {as_of} в этой кампании ещё не было.",
                       f"as_of: this campaign has not fought a battle {as_of} yet.", field="as_of")
    return as_of


AS_OF = OpenApiParameter("as_of", int, description="Show it as it stood after battle N")


class CampaignListView(APIView):
    @extend_schema(responses=CampaignOut(many=True))
    def get(self, request: Request) -> Response:
        return Response(CampaignOut(Campaign.objects.order_by("-created_at"), many=True).data)


class CampaignDetailView(APIView):
    @extend_schema(parameters=[AS_OF], responses=inline_serializer("CampaignOverview", {
        "campaign": CampaignOut(), "sides": serializers.JSONField(), "objectives": serializers.JSONField(),
        "progress": serializers.JSONField(), "battles": serializers.JSONField()}))
    def get(self, request: Request, campaign_id: int) -> Response:
        get_object_or_404(Campaign, pk=campaign_id)
        ov = selectors.campaign_overview(campaign_id=campaign_id, as_of=_as_of(request, campaign_id))
        return Response({
            "campaign": CampaignOut(ov.campaign).data, "sides": ov.view.sides, "progress": ov.view.progress,
            "objectives": [{"id": o["objective"].pk, "name": o["objective"].name, "holder": o["holder"],
                            "since_battle": o["since_battle"]} for o in ov.objectives],
            "battles": [{"id": b.pk, "number": b.number, "name": b.name, "result": b.result} for b in ov.battles],
        })


class StandingsView(APIView):
    @extend_schema(parameters=[AS_OF, OpenApiParameter("sort", str, enum=list(selectors.SORTS)),
                               OpenApiParameter("dir", str, enum=["asc", "desc"]),
                               OpenApiParameter("limit", int), OpenApiParameter("offset", int)],
                   responses=inline_serializer("Standings", {"count": serializers.IntegerField(),
                                                             "results": serializers.JSONField()}))
    def get(self, request: Request, campaign_id: int) -> Response:
        changed = selectors.standings_last_change(campaign_id=campaign_id)  # before the table (config.conditional)
        campaign = get_object_or_404(Campaign, pk=campaign_id)
        sort = request.query_params.get("sort", "kills")
        if sort not in selectors.SORTS:
            raise InvalidInput("sort: неизвестная колонка.", "sort: unknown column.", field="sort")
        limit = int_param(request, "limit", 100, lo=1, hi=1000)
        offset = int_param(request, "offset", 0)
        rows, total = selectors.standings_table(campaign=campaign, as_of=_as_of(request, campaign.pk), sort=sort,
                                                descending=request.query_params.get("dir", "desc") != "asc",
                                                limit=limit, offset=offset, language=get_language() or "ru")
        return last_modified(Response({"count": total, "results": [
            {"character": r.character_id, "name": r.name, "side": r.side, "rank": r.rank, "rank_title": r.rank_title,
             "awards": r.awards, "battles": r.battles, "kills": r.kills, "casualties": r.casualties,
             "prestige": r.prestige} for r in rows]}), changed)


class ChronicleView(APIView):
    @extend_schema(parameters=[AS_OF], responses=CampaignEventOut(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign = get_object_or_404(Campaign, pk=campaign_id)
        events = describe_all(selectors.chronicle(campaign=campaign, as_of=_as_of(request, campaign.pk)))
        return Response(CampaignEventOut(events, many=True).data)


class CampaignLogVerifyView(APIView):
    @extend_schema(
        responses=inline_serializer("CampaignLogVerdict", {
            "campaign": serializers.IntegerField(),
            "head_chain": serializers.CharField(help_text=(
                "The hash chain at the log's last event (64 hex digits, SHA-256; the campaign's genesis before its "
                "first event): keep it, and a later rewrite of anything up to it, or the loss of later events, "
                "is detected")),
            "ok": serializers.BooleanField(help_text="Every stored event's chain is the one its content and the "
                                                     "event before it give"),
            "checked": serializers.IntegerField(help_text="Events found chained from the first"),
            "first_broken_id": serializers.IntegerField(allow_null=True, help_text=(
                "The id of the first event whose chain does not hold; null when ok")),
        }),
        description=("The campaign's hash-chained log (its chronicle's events) checked by the server from the "
                     "first event (docs/verify.md, \"Verifying a log\"): anyone who may read the chronicle may ask."),
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        verdict = selectors.campaign_log_verify(campaign_id=campaign_id)
        if verdict is None:
            get_object_or_404(Campaign.objects.only("id"), pk=campaign_id)  # (the 404's own words)
        return Response({"campaign": verdict.campaign_id, "head_chain": verdict.head_chain, "ok": verdict.ok,
                         "checked": verdict.checked, "first_broken_id": verdict.first_broken_id})


class CharacterListView(APIView):
    @extend_schema(responses=CharacterOut(many=True))
    def get(self, request: Request) -> Response:
        characters = list(Character.objects.select_related("owner", "nationality").order_by("name"))
        names = selectors.player_names(viewer=request.user, characters=characters)
        return Response(CharacterOut(characters, many=True,
                                     context={"request": request, "player_names": names}).data)

    @extend_schema(request=CharacterIn, responses={201: CharacterOut})
    def post(self, request: Request) -> Response:
        data = CharacterIn(data=request.data)
        data.is_valid(raise_exception=True)
        c = services.character_create(owner=request.user, **data.validated_data)
        return Response(CharacterOut(c, context={"request": request}).data, status=status.HTTP_201_CREATED)


class CharacterDetailView(APIView):
    @extend_schema(responses=inline_serializer("CharacterRecord", {
        "character": CharacterOut(), "service_record": CampaignEventOut(many=True)}))
    def get(self, request: Request, character_id: int) -> Response:
        c = get_object_or_404(Character.objects.select_related("owner", "nationality"), pk=character_id)
        return Response({"character": CharacterOut(c, context={"request": request}).data,
                         "service_record": CampaignEventOut(describe_all(selectors.service_record(character=c)),
                                                    many=True).data})


class JoinIn(serializers.Serializer):
    character = serializers.IntegerField()
    token = serializers.UUIDField(required=False)


class JoinView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=JoinIn,
                   responses=inline_serializer("JoinOut", {"status": serializers.CharField(),
                                                           "side": serializers.CharField()}))
    def post(self, request: Request, campaign_id: int) -> Response:
        campaign = get_object_or_404(Campaign, pk=campaign_id)
        data = JoinIn(data=request.data)
        data.is_valid(raise_exception=True)
        character = get_object_or_404(Character, pk=data.validated_data["character"], owner=request.user)
        m = services.membership_request(campaign=campaign, character=character,
                                        token=data.validated_data.get("token"))
        return Response({"status": m.status, "side": m.side})


class ProposalListView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(parameters=[OpenApiParameter("status", str, enum=list(Proposal.Status.values)),
                               OpenApiParameter("campaign", int)], responses=ProposalOut(many=True))
    def get(self, request: Request) -> Response:
        qs = Proposal.objects.select_related("character", "award").order_by("id")
        if not is_game_master(request.user):
            qs = qs.filter(character__owner=request.user)
        if request.query_params.get("status"):
            qs = qs.filter(status=request.query_params["status"])
        campaign = int_param(request, "campaign", None)
        if campaign is not None:
            qs = qs.filter(campaign_id=campaign)
        return Response(ProposalOut(qs, many=True).data)


class ProposalDecideView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=inline_serializer("DecideIn", {"approve": serializers.BooleanField(),
                                                          "note": serializers.CharField(required=False)}),
                   responses=ProposalOut)
    def post(self, request: Request, proposal_id: int) -> Response:
        p = get_object_or_404(Proposal, pk=proposal_id)
        body = json_object(request)
        approve = body.get("approve")
        if not isinstance(approve, bool):
            raise InvalidInput("approve: true или false.", "approve: true or false.", field="approve")
        p = services.proposal_decide(proposal=p, approve=approve, by=request.user,
                                     note=str(body.get("note", ""))[:2000])
        return Response(ProposalOut(p).data)
