"""The roster export's shape (format ``shtab-roster``, version 1), described for
the API's schema: ``GET /api/rosters/{id}/export/`` answers it and
``POST /api/rosters/import/`` takes it back as ``data``. It only describes:
``rosters.selectors.roster_export`` writes the file and
``rosters.services.roster_import`` reads it (listing every problem), so an
older export without ``teams`` still imports."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from .selectors import EXPORT_FORMAT, EXPORT_VERSION

REF = "A reference within this file (`u12`, `v3`), not an id."


class ExportUnit(serializers.Serializer):
    ref = serializers.CharField(help_text=REF)
    kind = serializers.CharField()
    name = serializers.CharField(allow_blank=True)
    parent = serializers.CharField(allow_null=True, help_text="The ref of the unit it stands under.")
    group_kind = serializers.CharField(allow_blank=True)
    fow_kind = serializers.CharField(allow_blank=True, help_text="A FoW platoon's type; blank otherwise.")
    upgrades = serializers.ListField(child=serializers.CharField(), help_text="Upgrade codes (V-UPG).")


class ExportVehicle(serializers.Serializer):
    ref = serializers.CharField(help_text=REF)
    kind = serializers.CharField()
    name = serializers.CharField(allow_blank=True)
    unit = serializers.CharField(allow_null=True, help_text="The ref of its unit.")
    gun_type = serializers.CharField(allow_blank=True)
    armour_class = serializers.IntegerField(min_value=1, max_value=99)
    gun_class = serializers.IntegerField(min_value=1, max_value=99, allow_null=True)
    side_skirts = serializers.BooleanField()
    options = serializers.ListField(child=serializers.CharField(), help_text="Option codes.")


# "class" is a Python keyword: the fields as a mapping.
ExportFighter = inline_serializer("ExportFighter", {
    "class": serializers.CharField(help_text="An infantry class's code."),
    "count": serializers.IntegerField(min_value=1, max_value=1000),
    "unit": serializers.CharField(allow_null=True, help_text="The ref of its unit."),
    "vehicle": serializers.CharField(allow_null=True, help_text="The ref of the vehicle it crews."),
    "fire_team": serializers.IntegerField(min_value=1, max_value=99, allow_null=True),
}, many=True)


class ExportTeam(serializers.Serializer):
    type = serializers.CharField(help_text="A FoW team type's code.")
    count = serializers.IntegerField(min_value=1, max_value=1000)
    unit = serializers.CharField(help_text="The ref of its FoW platoon.")


class RosterExport(serializers.Serializer):
    format = serializers.ChoiceField(choices=[EXPORT_FORMAT])
    version = serializers.ChoiceField(choices=[EXPORT_VERSION])
    name = serializers.CharField()
    side = serializers.CharField(allow_blank=True, help_text="attacker, defender or blank.")
    game_data_version = serializers.IntegerField(allow_null=True, help_text="Priced with this game data.")
    priced_total = serializers.IntegerField()
    air_support_cards = serializers.IntegerField(min_value=0)
    units = ExportUnit(many=True)
    vehicles = ExportVehicle(many=True)
    fighters = ExportFighter
    teams = ExportTeam(many=True)


@extend_schema_field(RosterExport)
class RosterExportField(serializers.JSONField):
    """A roster export as a body's field: parsed as JSON here, checked by the import service."""
