"""REST API of rosters and game data: CRUD, parts, validate, submit, lock,
duplicate, JSON export and import. Thin: parse, call a service or selector,
render. Errors use the project's ``{"error": {...}}`` shape."""
from __future__ import annotations

from typing import Any

from django.db import transaction
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.models import Campaign, Character
from config.errors import NotFound
from config.inputs import int_param
from config.schema import Error as ErrorOut

from . import domain, selectors, services
from .api_export import RosterExport, RosterExportField
from .models import (
    ArmourClass,
    Fighter,
    FowPlatoonKind,
    FowTeam,
    FowTeamKind,
    FowTeamType,
    GroupKind,
    GunClass,
    GunType,
    InfantryClass,
    Roster,
    Side,
    Unit,
    UnitKind,
    Upgrade,
    Vehicle,
    VehicleKind,
    VehicleOption,
)


@extend_schema_field({"type": "string", "description": "V-VEH-1 vehicle type: " + " | ".join(VehicleKind.values)})
class VehicleKindField(serializers.ChoiceField):
    """A plain string in the schema: an enum named ``kind`` would collide with the unit kinds'."""

    def __init__(self, **kwargs):
        super().__init__(choices=VehicleKind.choices, **kwargs)


# --- output -------------------------------------------------------------------------
class ViolationOut(serializers.Serializer):
    rule_id = serializers.CharField()
    unit = serializers.CharField(allow_null=True, help_text="A unit id, 'vehicle:<id>', or null for the roster")
    unit_name = serializers.CharField()
    severity = serializers.ChoiceField(choices=["error", "warning"])
    message_ru = serializers.CharField()
    message_en = serializers.CharField()


class ReportOut(serializers.Serializer):
    ok = serializers.BooleanField(help_text="No errors: the roster may be submitted")
    total = serializers.IntegerField(help_text="Cost with the current game data, PP")
    budget = serializers.IntegerField()
    senior_rank = serializers.CharField(allow_null=True)
    violations = ViolationOut(many=True)




def report_data(report: domain.Report) -> dict[str, Any]:
    return {"ok": report.ok, "total": report.total, "budget": report.budget, "senior_rank": report.senior_rank,
            "violations": [v.as_dict() for v in report.violations]}


class UnitOut(serializers.ModelSerializer):
    upgrades = serializers.SlugRelatedField(slug_field="code", many=True, read_only=True)

    class Meta:
        model = Unit
        fields = ["id", "parent", "kind", "group_kind", "fow_kind", "name", "upgrades"]


class FowTeamOut(serializers.ModelSerializer):
    team_type = serializers.SlugRelatedField(slug_field="code", read_only=True)
    team_type_name = serializers.CharField(source="team_type.name_ru", read_only=True)

    class Meta:
        model = FowTeam
        fields = ["id", "unit", "team_type", "team_type_name", "count"]


class VehicleOut(serializers.ModelSerializer):
    kind = VehicleKindField()
    options = serializers.SlugRelatedField(slug_field="code", many=True, read_only=True)

    class Meta:
        model = Vehicle
        fields = ["id", "unit", "kind", "name", "gun_type", "armour_class", "gun_class", "side_skirts", "options"]


class FighterOut(serializers.ModelSerializer):
    infantry_class = serializers.SlugRelatedField(slug_field="code", read_only=True)

    class Meta:
        model = Fighter
        fields = ["id", "unit", "vehicle", "infantry_class", "count", "fire_team"]


class RosterOut(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username")

    class Meta:
        model = Roster
        fields = ["id", "name", "owner", "character", "campaign", "side", "status", "priced_total",
                  "priced_version", "air_support_cards", "submitted_at", "created_at", "updated_at"]


class RosterDetailOut(RosterOut):
    units = serializers.SerializerMethodField()
    vehicles = serializers.SerializerMethodField()
    fighters = serializers.SerializerMethodField()
    teams = serializers.SerializerMethodField(help_text="FoW teams in the roster's FoW platoons (units of kind "
                                                        "fow_platoon)")
    report = serializers.SerializerMethodField()
    reprice_changes_total = serializers.SerializerMethodField(
        help_text="True when pricing with the current game data would change priced_total")

    class Meta(RosterOut.Meta):
        fields = RosterOut.Meta.fields + ["units", "vehicles", "fighters", "teams", "report",
                                                "reprice_changes_total"]

    @extend_schema_field(UnitOut(many=True))
    def get_units(self, obj) -> list[dict]:
        return UnitOut(self.context["tree"].units, many=True).data

    @extend_schema_field(VehicleOut(many=True))
    def get_vehicles(self, obj) -> list[dict]:
        return VehicleOut(self.context["tree"].vehicles, many=True).data

    @extend_schema_field(FighterOut(many=True))
    def get_fighters(self, obj) -> list[dict]:
        return FighterOut(self.context["tree"].fighters, many=True).data

    @extend_schema_field(FowTeamOut(many=True))
    def get_teams(self, obj) -> list[dict]:
        return FowTeamOut(self.context["tree"].teams, many=True).data

    @extend_schema_field(ReportOut)
    def get_report(self, obj) -> dict:
        return report_data(self.context["report"])

    def get_reprice_changes_total(self, obj) -> bool:
        return self.context["report"].total != obj.priced_total


def _detail(roster_id: int, status_code: int = status.HTTP_200_OK) -> Response:
    tree = selectors.roster_tree(roster_id=roster_id)
    report = selectors.roster_report(tree=tree)
    return Response(RosterDetailOut(tree.roster, context={"tree": tree, "report": report}).data, status=status_code)


# --- input -------------------------------------------------------------------------
class RosterIn(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    character = serializers.PrimaryKeyRelatedField(queryset=Character.objects.all())
    campaign = serializers.PrimaryKeyRelatedField(queryset=Campaign.objects.all(), allow_null=True, required=False)
    side = serializers.ChoiceField(choices=Side.choices, required=False, allow_blank=True, default="")


class RosterPatchIn(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    campaign = serializers.PrimaryKeyRelatedField(queryset=Campaign.objects.all(), allow_null=True, required=False)
    side = serializers.ChoiceField(choices=Side.choices, required=False, allow_blank=True)
    air_support_cards = serializers.IntegerField(min_value=0, max_value=99, required=False,
                                                 help_text="Air-support cards bought (V-FORM-2; G-8: 8 PP each)")


class UnitIn(serializers.Serializer):
    kind = serializers.ChoiceField(choices=UnitKind.choices)
    name = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    parent = serializers.IntegerField(required=False, allow_null=True, default=None)
    group_kind = serializers.ChoiceField(choices=GroupKind.choices, required=False, allow_blank=True, default="")
    fow_kind = serializers.ChoiceField(choices=FowPlatoonKind.choices, required=False, allow_blank=True, default="",
                                       help_text="FoW platoons (kind fow_platoon) only, and required for them")
    upgrades = serializers.SlugRelatedField(slug_field="code", queryset=Upgrade.objects.all(), many=True,
                                            required=False, default=list)


class FowTeamIn(serializers.Serializer):
    unit = serializers.IntegerField(help_text="The FoW platoon (a unit of kind fow_platoon) of this roster")
    team_type = serializers.SlugRelatedField(slug_field="code", queryset=FowTeamType.objects.all(),
                                             help_text="A FoW team type's code (GET /api/game-data/)")
    count = serializers.IntegerField(min_value=1, max_value=1000, default=1)


class FowTeamPatchIn(serializers.Serializer):
    count = serializers.IntegerField(min_value=0, max_value=1000, help_text="0 removes the teams")


class FighterIn(serializers.Serializer):
    infantry_class = serializers.SlugRelatedField(slug_field="code", queryset=InfantryClass.objects.all())
    count = serializers.IntegerField(min_value=1, max_value=1000, default=1)
    unit = serializers.IntegerField(required=False, allow_null=True, default=None)
    vehicle = serializers.IntegerField(required=False, allow_null=True, default=None)
    fire_team = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=99, default=None)


class FighterPatchIn(serializers.Serializer):
    count = serializers.IntegerField(min_value=0, max_value=1000, help_text="0 removes the line")
    fire_team = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=99)


class UnitPatchIn(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    upgrades = serializers.SlugRelatedField(slug_field="code", queryset=Upgrade.objects.all(), many=True,
                                            required=False, help_text="Replaces the unit's upgrade cards")
    parent = serializers.IntegerField(required=False, allow_null=True,
                                      help_text="Move the unit under this unit of the roster (null: to the top); "
                                                "refused by the roster rules (V-PLT-3, G-F3)")


class VehicleIn(serializers.Serializer):
    kind = VehicleKindField()
    name = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    unit = serializers.IntegerField(required=False, allow_null=True, default=None)
    gun_type = serializers.ChoiceField(choices=GunType.choices, required=False, allow_blank=True, default="")
    armour_class = serializers.IntegerField(min_value=1, max_value=99, default=1)
    gun_class = serializers.IntegerField(min_value=1, max_value=99, required=False, allow_null=True, default=None)
    side_skirts = serializers.BooleanField(default=False)
    options = serializers.SlugRelatedField(slug_field="code", queryset=VehicleOption.objects.all(), many=True,
                                           required=False, default=list)


class ImportIn(serializers.Serializer):
    character = serializers.PrimaryKeyRelatedField(queryset=Character.objects.all())
    campaign = serializers.PrimaryKeyRelatedField(queryset=Campaign.objects.all(), allow_null=True, required=False)
    data = RosterExportField(help_text="A roster export (format 'shtab-roster', version 1)")


# --- helpers -------------------------------------------------------------------------
def _roster(request: Request, roster_id: int) -> Roster:
    roster = selectors.rosters_visible(user=request.user).filter(pk=roster_id).first()
    if roster is None:
        raise NotFound("Состав не найден.", "Roster not found.")
    return roster


def _part(model, roster: Roster, pk: int | None, field: str):
    if pk is None:
        return None
    obj = model.objects.filter(roster=roster, pk=pk).first()
    if obj is None:
        raise NotFound(f"{field}: не найдено в этом составе.", f"{field}: not found in this roster.", field=field)
    return obj


def _valid(serializer_class, data) -> dict[str, Any]:
    s = serializer_class(data=data)
    s.is_valid(raise_exception=True)
    return s.validated_data


class Authenticated(APIView):
    permission_classes = [permissions.IsAuthenticated]


# --- views -------------------------------------------------------------------------
class RosterListView(Authenticated):
    @extend_schema(summary="Rosters you may see (your own; the game master sees all)",
                   parameters=[OpenApiParameter("campaign", int, required=False),
                               OpenApiParameter("side", str, enum=Side.values, required=False),
                               OpenApiParameter("status", str, enum=["draft", "submitted", "locked"], required=False)],
                   responses=RosterOut(many=True))
    def get(self, request: Request) -> Response:
        qs = selectors.rosters_visible(user=request.user)
        campaign = int_param(request, "campaign", None)
        if campaign is not None:
            qs = qs.filter(campaign_id=campaign)
        for key in ("side", "status"):
            if request.query_params.get(key):
                qs = qs.filter(**{key: request.query_params[key]})
        return Response(RosterOut(qs, many=True).data)

    @extend_schema(summary="Create a draft roster for your character", request=RosterIn,
                   responses={201: RosterDetailOut})
    def post(self, request: Request) -> Response:
        d = _valid(RosterIn, request.data)
        roster = services.roster_create(user=request.user, character=d["character"], name=d["name"],
                                        campaign=d.get("campaign"), side=d.get("side", ""))
        return _detail(roster.pk, status.HTTP_201_CREATED)


class RosterDetailView(Authenticated):
    @extend_schema(summary="A roster with its units, vehicles, fighters and validation report",
                   responses=RosterDetailOut)
    def get(self, request: Request, roster_id: int) -> Response:
        return _detail(_roster(request, roster_id).pk)

    @extend_schema(summary="Rename, or set campaign and side (drafts only)", request=RosterPatchIn,
                   responses=RosterDetailOut)
    def patch(self, request: Request, roster_id: int) -> Response:
        roster = _roster(request, roster_id)
        d = _valid(RosterPatchIn, request.data)
        services.roster_update(user=request.user, roster=roster, name=d.get("name"),
                               campaign=d["campaign"] if "campaign" in d else "keep", side=d.get("side"),
                               air_support_cards=d.get("air_support_cards"))
        return _detail(roster.pk)

    @extend_schema(summary="Delete a draft roster", responses={204: None})
    def delete(self, request: Request, roster_id: int) -> Response:
        services.roster_delete(user=request.user, roster=_roster(request, roster_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class RosterValidateView(Authenticated):
    @extend_schema(summary="Validate against the roster rules (every violation at once)", request=None,
                   responses=ReportOut)
    def post(self, request: Request, roster_id: int) -> Response:
        return Response(report_data(selectors.roster_validate(roster=_roster(request, roster_id))))


def _action(summary: str, fn):
    class ActionView(Authenticated):
        @extend_schema(summary=summary, request=None,
                       responses={200: RosterDetailOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut})
        def post(self, request: Request, roster_id: int) -> Response:
            fn(user=request.user, roster=_roster(request, roster_id))
            return _detail(roster_id)

    ActionView.__name__ = ActionView.__qualname__ = f"Roster{fn.__name__.split('_')[-1].title()}View"
    return ActionView


RosterSubmitView = _action("Submit for a battle (422 with every violation if invalid)", services.roster_submit)
RosterReopenView = _action("Back to draft (owner or game master; not when locked)", services.roster_reopen)
RosterLockView = _action("Lock (game master)", services.roster_lock)
RosterUnlockView = _action("Unlock to draft (game master)", services.roster_unlock)
RosterRepriceView = _action("Price again with the current game data", services.roster_reprice)


class RosterDuplicateView(Authenticated):
    @extend_schema(summary="Copy a roster as a new draft", request=None, responses={201: RosterDetailOut})
    def post(self, request: Request, roster_id: int) -> Response:
        copy = services.roster_duplicate(user=request.user, roster=_roster(request, roster_id))
        return _detail(copy.pk, status.HTTP_201_CREATED)


class RosterExportView(Authenticated):
    @extend_schema(summary="JSON export of a roster", responses=RosterExport)
    def get(self, request: Request, roster_id: int) -> Response:
        tree = selectors.roster_tree(roster_id=_roster(request, roster_id).pk)
        return Response(selectors.roster_export(tree=tree))


class RosterImportView(Authenticated):
    @extend_schema(summary="Import a roster export as a new draft: refused whole (400, every problem listed) "
                           "if malformed; rule violations are reported in the roster's report",
                   request=ImportIn, responses={201: RosterDetailOut, 400: ErrorOut, 403: ErrorOut})
    def post(self, request: Request) -> Response:
        d = _valid(ImportIn, request.data)
        roster, _report = services.roster_import(user=request.user, character=d["character"], data=d["data"],
                                                 campaign=d.get("campaign"))
        return _detail(roster.pk, status.HTTP_201_CREATED)


class UnitListView(Authenticated):
    @extend_schema(summary="Add a unit (a FoW platoon names its fow_kind)", request=UnitIn,
                   responses={201: RosterDetailOut, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut})
    def post(self, request: Request, roster_id: int) -> Response:
        roster = _roster(request, roster_id)
        d = _valid(UnitIn, request.data)
        unit = services.unit_add(user=request.user, roster=roster, kind=d["kind"], name=d["name"],
                                 parent=_part(Unit, roster, d["parent"], "parent"), group_kind=d["group_kind"],
                                 fow_kind=d["fow_kind"])
        if d["upgrades"]:
            services.unit_upgrades_set(user=request.user, roster=roster, unit=unit, upgrades=d["upgrades"])
        return _detail(roster.pk, status.HTTP_201_CREATED)


class UnitDetailView(Authenticated):
    @extend_schema(summary="Rename a unit, move it under another unit, or set its upgrade cards (V-UPG)",
                   request=UnitPatchIn,
                   responses=RosterDetailOut)
    def patch(self, request: Request, roster_id: int, unit_id: int) -> Response:
        roster = _roster(request, roster_id)
        unit = _part(Unit, roster, unit_id, "unit")
        d = _valid(UnitPatchIn, request.data)
        with transaction.atomic():  # all of the patch or none of it
            if "name" in d:
                services.unit_rename(user=request.user, roster=roster, unit=unit, name=d["name"])
            if "parent" in d:
                services.unit_move(user=request.user, roster=roster, unit=unit,
                                   parent=_part(Unit, roster, d["parent"], "parent"))
            if "upgrades" in d:
                services.unit_upgrades_set(user=request.user, roster=roster, unit=unit, upgrades=d["upgrades"])
        return _detail(roster.pk)

    @extend_schema(summary="Remove a unit with everything in it", responses=RosterDetailOut)
    def delete(self, request: Request, roster_id: int, unit_id: int) -> Response:
        roster = _roster(request, roster_id)
        services.unit_remove(user=request.user, roster=roster, unit=_part(Unit, roster, unit_id, "unit"))
        return _detail(roster.pk)


class FighterListView(Authenticated):
    @extend_schema(summary="Add fighters of one class (to a unit, a vehicle's crew, or alone)", request=FighterIn,
                   responses={201: RosterDetailOut})
    def post(self, request: Request, roster_id: int) -> Response:
        roster = _roster(request, roster_id)
        d = _valid(FighterIn, request.data)
        services.fighter_add(user=request.user, roster=roster, infantry_class=d["infantry_class"], count=d["count"],
                             unit=_part(Unit, roster, d["unit"], "unit"),
                             vehicle=_part(Vehicle, roster, d["vehicle"], "vehicle"), fire_team=d["fire_team"])
        return _detail(roster.pk, status.HTTP_201_CREATED)


class FighterDetailView(Authenticated):
    @extend_schema(summary="Change a line's count (0 removes it)", request=FighterPatchIn,
                   responses=RosterDetailOut)
    def patch(self, request: Request, roster_id: int, fighter_id: int) -> Response:
        roster = _roster(request, roster_id)
        d = _valid(FighterPatchIn, request.data)
        services.fighter_update(user=request.user, roster=roster,
                                fighter=_part(Fighter, roster, fighter_id, "fighter"), count=d["count"],
                                fire_team=d["fire_team"] if "fire_team" in d else "keep")
        return _detail(roster.pk)

    @extend_schema(summary="Remove a line of fighters", responses=RosterDetailOut)
    def delete(self, request: Request, roster_id: int, fighter_id: int) -> Response:
        roster = _roster(request, roster_id)
        services.fighter_update(user=request.user, roster=roster,
                                fighter=_part(Fighter, roster, fighter_id, "fighter"), count=0)
        return _detail(roster.pk)


class VehicleListView(Authenticated):
    @extend_schema(summary="Add a vehicle, gun or pillbox", request=VehicleIn, responses={201: RosterDetailOut})
    def post(self, request: Request, roster_id: int) -> Response:
        roster = _roster(request, roster_id)
        d = _valid(VehicleIn, request.data)
        services.vehicle_add(user=request.user, roster=roster, kind=d["kind"], name=d["name"],
                             unit=_part(Unit, roster, d["unit"], "unit"), gun_type=d["gun_type"],
                             armour_class=d["armour_class"], gun_class=d["gun_class"], side_skirts=d["side_skirts"],
                             options=d["options"])
        return _detail(roster.pk, status.HTTP_201_CREATED)


class VehicleDetailView(Authenticated):
    @extend_schema(summary="Remove a vehicle and its crew", responses=RosterDetailOut)
    def delete(self, request: Request, roster_id: int, vehicle_id: int) -> Response:
        roster = _roster(request, roster_id)
        services.vehicle_remove(user=request.user, roster=roster, vehicle=_part(Vehicle, roster, vehicle_id, "vehicle"))
        return _detail(roster.pk)


class FowTeamListView(Authenticated):
    @extend_schema(summary="The roster's FoW teams, by platoon",
                   parameters=[OpenApiParameter("unit", int, required=False, description="Only this platoon's")],
                   responses={200: FowTeamOut(many=True), 404: ErrorOut})
    def get(self, request: Request, roster_id: int) -> Response:
        roster = _roster(request, roster_id)
        qs = FowTeam.objects.filter(roster=roster).select_related("team_type")
        unit = int_param(request, "unit", None)
        if unit is not None:
            qs = qs.filter(unit=_part(Unit, roster, unit, "unit"))
        return Response(FowTeamOut(qs, many=True).data)

    @extend_schema(summary="Add FoW teams of one type to a FoW platoon (F-SPEC-1, F-RECON-1 in the report)",
                   request=FowTeamIn, responses={201: RosterDetailOut, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut,
                                                 409: ErrorOut})
    def post(self, request: Request, roster_id: int) -> Response:
        roster = _roster(request, roster_id)
        d = _valid(FowTeamIn, request.data)
        services.fow_team_add(user=request.user, roster=roster, unit=_part(Unit, roster, d["unit"], "unit"),
                              team_type=d["team_type"], count=d["count"])
        return _detail(roster.pk, status.HTTP_201_CREATED)


class FowTeamDetailView(Authenticated):
    @extend_schema(summary="Change how many FoW teams of the type stand in the platoon (0 removes them)",
                   request=FowTeamPatchIn, responses={200: RosterDetailOut, 400: ErrorOut, 403: ErrorOut,
                                                      404: ErrorOut, 409: ErrorOut})
    def patch(self, request: Request, roster_id: int, team_id: int) -> Response:
        roster = _roster(request, roster_id)
        d = _valid(FowTeamPatchIn, request.data)
        services.fow_team_update(user=request.user, roster=roster, team=_part(FowTeam, roster, team_id, "team"),
                                 count=d["count"])
        return _detail(roster.pk)

    @extend_schema(summary="Remove a platoon's FoW teams of one type", responses={200: RosterDetailOut,
                                                                                   403: ErrorOut, 404: ErrorOut,
                                                                                   409: ErrorOut})
    def delete(self, request: Request, roster_id: int, team_id: int) -> Response:
        roster = _roster(request, roster_id)
        services.fow_team_update(user=request.user, roster=roster, team=_part(FowTeam, roster, team_id, "team"),
                                 count=0)
        return _detail(roster.pk)


# --- game data -------------------------------------------------------------------------
class InfantryClassOut(serializers.ModelSerializer):
    class Meta:
        model = InfantryClass
        fields = ["code", "name_ru", "name_en", "category", "rank", "engine_class", "cost", "observation_in",
                  "fire_dug_in", "fire_march", "fire_recon", "fire_assault", "attack", "defence", "is_placeholder"]


class ArmourClassOut(serializers.ModelSerializer):
    class Meta:
        model = ArmourClass
        fields = ["number", "cost", "min_front_mm", "is_placeholder"]


class GunClassOut(serializers.ModelSerializer):
    class Meta:
        model = GunClass
        fields = ["number", "cost", "max_calibre_mm", "is_placeholder"]


class OptionOut(serializers.ModelSerializer):
    class Meta:
        model = VehicleOption
        fields = ["code", "name_ru", "name_en", "applies_to", "cost", "is_placeholder"]


class UpgradeOut(serializers.ModelSerializer):
    class Meta:
        model = Upgrade
        fields = ["code", "name_ru", "name_en", "description", "cost", "is_placeholder"]


@extend_schema_field({"type": "string", "description": "FoW team kind: " + " | ".join(FowTeamKind.values)})
class FowTeamKindField(serializers.ChoiceField):
    """A plain string in the schema: an enum named ``kind`` would collide with the unit kinds'."""

    def __init__(self, **kwargs):
        super().__init__(choices=FowTeamKind.choices, **kwargs)


class FowTeamTypeOut(serializers.ModelSerializer):
    kind = FowTeamKindField(read_only=True)

    class Meta:
        model = FowTeamType
        fields = ["code", "name_ru", "name_en", "kind", "speciality", "gun_size", "armoured", "locomotive",
                  "anti_aircraft", "movement_in", "movement_cm", "cost", "is_placeholder"]


class GameDataView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(summary="Current game data; is_placeholder marks defaults not from the seed (catalog gaps)",
                   responses=inline_serializer("GameDataOut", {
                       "version": serializers.IntegerField(allow_null=True),
                       "rules": serializers.DictField(help_text="Budgets, limits and readings (RosterRules)"),
                       "infantry_classes": InfantryClassOut(many=True), "armour_classes": ArmourClassOut(many=True),
                       "gun_classes": GunClassOut(many=True), "vehicle_options": OptionOut(many=True),
                       "upgrades": UpgradeOut(many=True),
                       "fow_team_types": FowTeamTypeOut(many=True, help_text="Flames of War team types; the seeds "
                                                        "give no points table (G-F1): placeholders")}))
    def get(self, request: Request) -> Response:
        game = selectors.game_data_current()
        return Response({
            "version": game.version.pk if game.version else None,
            "rules": {name: getattr(game.rules, name) for name in selectors.RULE_FIELDS},
            "infantry_classes": InfantryClassOut(game.classes, many=True).data,
            "armour_classes": ArmourClassOut(game.armour, many=True).data,
            "gun_classes": GunClassOut(game.guns, many=True).data,
            "vehicle_options": OptionOut(game.options, many=True).data,
            "upgrades": UpgradeOut(game.upgrades, many=True).data,
            "fow_team_types": FowTeamTypeOut(game.fow_team_types, many=True).data,
        })
