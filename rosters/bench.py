"""Roster figures for ``make bench`` (issue 4): ``roster_validate_ms`` for a full
company (100+ fighters, 6 vehicles, upgrades) and the roster page's query count
for a small and a full roster (it must not grow with the roster).

``measure()`` needs a migrated database it may write to (the bench database);
bench/run.py calls it and reports the figures against the goals.
"""
from __future__ import annotations

import statistics
import time
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from campaign.models import Character, Nationality

from . import selectors, services
from .models import Upgrade

GOAL_VALIDATE_MS = 5.0


def company_export() -> dict[str, Any]:
    """A captain's company: 3 platoons of 3 full squads and an MG group, 2 recon
    groups, a motorised unit of 3 tanks, an AA gun, a howitzer and a car; one
    upgrade card per squad and group. 144 fighters, 6 vehicles."""
    units, vehicles, fighters = [], [], []

    def unit(ref, kind, parent=None, group_kind="", upgrades=()):
        units.append({"ref": ref, "kind": kind, "name": ref, "parent": parent, "group_kind": group_kind,
                      "upgrades": list(upgrades)})

    def add(cls, count, ref, team=None, vehicle=None):
        fighters.append({"class": cls, "count": count, "unit": ref, "vehicle": vehicle, "fire_team": team})

    unit("company", "company")
    add("captain", 1, "company")
    for p in range(3):
        pref = f"platoon{p}"
        unit(pref, "platoon", "company")
        add("lieutenant", 1, pref)
        for s in range(3):
            sref = f"{pref}-squad{s}"
            unit(sref, "squad", pref, upgrades=["bench-grenades"])
            add("sergeant", 1, sref, 1)
            add("light_mg", 1, sref, 1)
            add("rifleman", 5, sref, 1)
            add("corporal", 1, sref, 2)
            add("at_grenadier", 1, sref, 2)
            add("rifleman", 5, sref, 2)
        gref = f"{pref}-mg"
        unit(gref, "tactical_group", pref, "mg", ["bench-grenades"])
        add("corporal", 1, gref)
        add("heavy_mg", 2, gref)
        add("rifleman", 2, gref)
    for g in range(2):
        unit(f"recon{g}", "tactical_group", "company", "recon", ["bench-camouflage"])
        add("corporal", 1, f"recon{g}")
        add("scout", 2, f"recon{g}")
        add("radio_operator", 1, f"recon{g}")
    unit("motor", "motorised", "company")
    for v in range(3):
        vehicles.append({"ref": f"tank{v}", "kind": "tank", "name": f"tank{v}", "unit": "motor", "gun_type": "",
                         "armour_class": 4, "gun_class": 4, "side_skirts": v == 0, "options": ["spotter"] if v else []})
        add("personnel", 2, "motor", vehicle=f"tank{v}")
        add("sergeant" if v == 0 else "corporal", 1, "motor", vehicle=f"tank{v}")
    for ref, kind, gun_type, gun, options in (("aa", "artillery", "aa", 3, ["aa_at_fire"]),
                                               ("howitzer", "artillery", "howitzer", 5, []),
                                               ("car", "car", "", None, [])):
        vehicles.append({"ref": ref, "kind": kind, "name": ref, "unit": "company", "gun_type": gun_type,
                         "armour_class": 1, "gun_class": gun, "side_skirts": False, "options": options})
        add("personnel", 2, "company", vehicle=ref)
        add("corporal", 1, "company", vehicle=ref)
    return {"format": "shtab-roster", "version": 1, "name": "Bench company", "side": "", "units": units,
            "vehicles": vehicles, "fighters": fighters}


def _page_queries(client, roster_id: int) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(f"/rosters/{roster_id}/")
    assert response.status_code == 200, response.status_code
    return len(ctx.captured_queries)


def measure(*, repeats: int = 200) -> dict[str, Any]:
    for code, cost in (("bench-grenades", 1), ("bench-camouflage", 2)):
        Upgrade.objects.get_or_create(code=code, defaults=dict(name_ru=code, name_en=code, cost=cost))
    user, _ = User.objects.get_or_create(username="bench-roster", defaults={"is_superuser": True, "is_staff": True})
    character = Character.objects.create(owner=user, name="Bench", nationality=Nationality.objects.first(),
                                         rank="captain")
    big, report = services.roster_import(user=user, character=character, data=company_export())
    small_data = company_export()
    small_data["units"] = [u for u in small_data["units"] if u["ref"] in ("company", "platoon0", "platoon0-squad0",
                                                                           "recon0", "motor")]
    keep = {u["ref"] for u in small_data["units"]}
    small_data["vehicles"] = [v for v in small_data["vehicles"] if v["ref"] in ("tank1", "aa")]
    vkeep = {v["ref"] for v in small_data["vehicles"]}
    small_data["fighters"] = [f for f in small_data["fighters"]
                              if f["unit"] in keep and (f["vehicle"] is None or f["vehicle"] in vkeep)]
    small, _ = services.roster_import(user=user, character=character, data=small_data)
    selectors.roster_validate(roster=big.pk)  # warm up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        selectors.roster_validate(roster=big.pk)
        times.append((time.perf_counter() - t0) * 1000)
    client = Client()
    client.force_login(user)
    _page_queries(client, small.pk)  # warm caches (session, content types)
    return {
        "roster_validate_ms": round(statistics.median(times), 3),
        "roster_validate_goal": f"<= {GOAL_VALIDATE_MS}",
        "roster_fighters": sum(f["count"] for f in company_export()["fighters"]),
        "roster_vehicles": len(company_export()["vehicles"]),
        "roster_total_pp": report.total,
        "roster_page_queries_small": _page_queries(client, small.pk),
        "roster_page_queries_full": _page_queries(client, big.pk),
    }
