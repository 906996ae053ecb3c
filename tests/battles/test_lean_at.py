"""The lean append's ``recorded_at`` is DRF's DateTimeField's answer, without
the field: in the current time zone, ISO 8601, Z for UTC."""
import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from rest_framework import serializers
from rest_framework.settings import api_settings

from battles.api_fast import _at

MOMENTS = [
    dt.datetime(2026, 12, 2, 6, 55, 24, 123456, tzinfo=dt.UTC),
    dt.datetime(2026, 12, 2, 6, 55, 24, tzinfo=dt.UTC),  # no microseconds
    dt.datetime(2026, 3, 29, 1, 30, tzinfo=ZoneInfo("Europe/Berlin")),
    dt.datetime(1999, 12, 31, 23, 59, 59, 999999, tzinfo=dt.timezone(dt.timedelta(hours=-5))),
]


@pytest.mark.parametrize("zone", [None, "UTC", "Asia/Kolkata", "America/New_York"])
@pytest.mark.parametrize("moment", MOMENTS)
def test_at_answers_as_drfs_field(moment, zone):
    field = serializers.DateTimeField()
    if zone is None:
        assert _at(moment) == field.to_representation(moment)
    else:
        with timezone.override(zone):
            assert _at(moment) == field.to_representation(moment)


def test_utc_ends_in_z():
    with timezone.override("UTC"):
        assert _at(MOMENTS[0]) == "2026-12-02T06:55:24.123456Z"
    assert _at(MOMENTS[0]) == "2026-12-02T09:55:24.123456+03:00"  # the project's TIME_ZONE, Moscow


def test_another_format_or_no_time_zones_is_drfs(settings, monkeypatch):
    monkeypatch.setattr(api_settings, "DATETIME_FORMAT", "%d.%m.%Y %H:%M", raising=False)
    assert _at(MOMENTS[0]) == "02.12.2026 09:55"
    monkeypatch.undo()
    settings.USE_TZ = False
    naive = dt.datetime(2026, 12, 2, 6, 55)
    assert _at(naive) == serializers.DateTimeField().to_representation(naive) == "2026-12-02T06:55:00"
