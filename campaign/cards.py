"""Formulary cards (формуляры): 4.5 × 7.5 cm cards printed for the table
(V-FORM-1). One card kind for each of: characters, awards, vehicles, units,
air support and upgrades (V-FORM-2). The layout of the seed's sample cards is
missing (G-17); these follow the placeholder reading: the seed's size, the
unit-card layout of V-FORM-7 and the fields the rules name.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

WIDTH_MM, HEIGHT_MM = 45, 75  # V-FORM-1

ARM = {  # arm-of-service emblem text, bottom right of a unit card (V-FORM-7)
    "company": "⚔", "platoon": "⚔", "squad": "⚔", "hq_squad": "★", "tactical_group": "◆", "motorised": "⚙",
}


@dataclass
class Card:
    kind: str  # character | award | unit | vehicle | upgrade | air_support
    title: str
    subtitle: str = ""
    lines: list[str] = field(default_factory=list)
    photo: str = ""
    bottom_left: str = ""
    bottom_right: str = ""
    marking: str = ""
    badges: list[str] = field(default_factory=list)


def _lang() -> str:
    return get_language() or "ru"


def _name(obj: Any) -> str:
    return obj.name_ru if _lang().startswith("ru") else obj.name_en


def character_card(character: Any) -> Card:
    """V-RANK-3: a photograph, the name and the rank of the officer."""
    return Card(kind="character", title=character.name, subtitle=character.rank_title(_lang()),
                photo=character.photo.url if character.photo else "",
                bottom_left=_name(character.nationality))


def award_cards(character: Any, events: list[Any], awards: dict[int, Any]) -> list[Card]:
    """One card per award granted (V-FORM-2)."""
    out = []
    for e in events:
        award = awards.get(e.data.get("award"))
        if award is None:
            continue
        out.append(Card(kind="award", title=_name(award), subtitle=character.name,
                        lines=[e.campaign.name if e.campaign_id else "", e.battle.name if e.battle_id else "",
                               e.recorded_at.date().isoformat()],
                        bottom_left=_name(character.nationality)))
    return out


def roster_cards(roster: Any) -> list[Card]:
    """The cards of a roster: its character, every unit (a tactical group has its
    own, V-TG-7), every vehicle (V-FORM-4/5, V-VEH-8) and every upgrade."""
    nationality = _name(roster.character.nationality)
    division = roster.name
    cards = [character_card(roster.character)]
    squad_numbers: dict[int, int] = {}
    for unit in roster.units.all():
        number = squad_numbers[unit.kind] = squad_numbers.get(unit.kind, 0) + 1
        lines = [division]
        if unit.kind == "motorised":
            lines.append(_("Formation: %s") % unit.name)  # V-MOTOR-2
        men = sum(f.count for f in unit.fighters.all())
        if men:
            lines.append(_("%d men") % men)
        cards.append(Card(
            kind="unit", title=unit.name, subtitle=unit.get_kind_display() + (
                f" · {unit.get_group_kind_display()}" if unit.group_kind else ""),
            lines=lines, marking=f"№ {number}",  # V-BASE-5: the squad's number, as on the sergeant's base
            bottom_left=nationality, bottom_right=ARM.get(unit.kind, "⚔"),
        ))
        for upgrade in unit.upgrades.all():
            cards.append(Card(kind="upgrade", title=_name(upgrade), subtitle=unit.name,
                              lines=[upgrade.description], bottom_left=nationality))
    for number, vehicle in enumerate(roster.vehicles.all(), start=1):
        crew = [f"{f.count} × {_name(f.infantry_class)}" for f in vehicle.crew.all()]
        specs = [_name(o) for o in vehicle.options.all()]  # V-VEH-8: specialisation markers
        lines = [_("Armour class %d") % vehicle.armour_class]
        if vehicle.gun_class:
            lines.append(_("Gun class %d") % vehicle.gun_class)
        if vehicle.side_skirts:
            lines.append(_("Side skirts"))
        if crew:
            lines.append(_("Crew: %s") % ", ".join(crew))  # V-FORM-5
        cards.append(Card(kind="vehicle", title=vehicle.name, subtitle=vehicle.get_kind_display(), lines=lines,
                          marking=f"#{number}", badges=specs, bottom_left=nationality))  # V-FORM-4: the mark
    return cards
