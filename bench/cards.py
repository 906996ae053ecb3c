"""``cards_pdf_s`` (issue 12): seconds to render every formulary card of a big
roster (a captain's company of 170 fighters and 6 vehicles) as A4 sheets,
from the database to the PDF bytes, as ``GET /api/rosters/{id}/cards.pdf``
does. Goal < 3 s. The median of a few runs after a warm-up (the first
WeasyPrint call loads fonts and Pango).

Run alone: ``BENCH_DATABASE_URL=postgres://… python -m bench.cards`` (merges
its figures into bench/results.json); ``bench/run.py`` calls ``measure()``.
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

GOAL_SECONDS = 3.0


def big_company() -> dict[str, Any]:
    """``rosters.bench.company_export`` (a captain's company: 3 platoons, groups,
    a motorised unit, 6 vehicles with crews; 171 fighters) less one rifleman:
    170 fighters and 6 vehicles."""
    from rosters.bench import company_export

    data = company_export()
    first = next(f for f in data["fighters"] if f["class"] == "rifleman" and f["count"] > 1)
    first["count"] -= 1
    return data


def measure(*, repeats: int = 3) -> dict[str, Any]:
    from django.contrib.auth.models import User
    from django.utils import translation

    from campaign.models import Character, Nationality
    from rosters import services
    from rosters.cards import roster_cards_load
    from rosters.cards_pdf import render_pdf
    from rosters.models import Upgrade

    for code, cost in (("bench-grenades", 1), ("bench-camouflage", 2)):
        Upgrade.objects.get_or_create(code=code, defaults=dict(name_ru=code, name_en=code, cost=cost))
    user, _ = User.objects.get_or_create(username="bench-cards", defaults={"is_superuser": True, "is_staff": True})
    character = Character.objects.create(owner=user, name="Капитан Карточкин", nationality=Nationality.objects.first(),
                                         rank="captain")
    data = big_company()
    roster, _ = services.roster_import(user=user, character=character, data=data)
    services.roster_update(user=user, roster=roster, air_support_cards=1)

    def once() -> tuple[float, int, int]:
        t0 = time.perf_counter()
        with translation.override("ru"):
            cards = roster_cards_load(roster_id=roster.pk)
            pdf = render_pdf(cards, layout="a4", title=roster.name)
        return time.perf_counter() - t0, len(cards), len(pdf)

    once()  # warm-up: fonts, Pango, templates
    runs = [once() for _ in range(repeats)]
    return {
        "cards_pdf_s": round(statistics.median(r[0] for r in runs), 3),
        "cards_pdf_goal": f"< {GOAL_SECONDS}",
        "cards_pdf_cards": runs[0][1],
        "cards_pdf_bytes": runs[0][2],
        "cards_pdf_fighters": sum(f["count"] for f in data["fighters"]),
        "cards_pdf_vehicles": len(data["vehicles"]),
    }


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench import env

    env.setup()
    results_path = Path(__file__).resolve().parent / "results.json"
    results = json.loads(results_path.read_text()) if results_path.exists() else {}
    figures = measure()
    results.update(figures)
    results_path.write_text(json.dumps(results, indent=2, sort_keys=True, default=str) + "\n")
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
