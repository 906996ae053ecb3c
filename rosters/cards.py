"""Formulary cards (формуляры): 4.5 × 7.5 cm cards printed for the table
(V-FORM-1). One card kind for each of: characters, awards, vehicles, units,
air support and upgrades (V-FORM-2). The layout of the seed's sample cards is
missing (G-17); these follow the placeholder reading: the seed's size, the
unit-card layout of V-FORM-7 and the fields the rules name.

Builders turn records into ``Card`` values; ``roster_cards_load`` and
``character_cards_load`` are the selectors that read what the builders need in
a fixed number of queries. Every card carries a *stamp*: the record it comes
from, the version of that record (the roster's last change, the character's
last campaign event) and a short hash of the card's content, so a game master
can tell at a glance whether a printed card still matches the record. The
hash is taken over language-neutral facts, so a Russian and an English print
of the same record carry the same hash. ``sheets`` lays cards out on A4 pages
with crop marks; ``rosters.cards_pdf`` renders them.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from battles.engine.rules_data import DEFAULT_RULES, POSTURES
from battles.engine.terms import term
from campaign.defaults import CARD_EMBLEMS
from campaign.models import Award, CampaignEvent, CardColour, CardEmblem

from . import selectors as roster_selectors
from .models import Upgrade

WIDTH_MM, HEIGHT_MM = 45, 75  # V-FORM-1
A4_MM = (210, 297)
GAP_MM = 6  # between cards on a sheet: room for the crop marks and the cut
COLUMNS, ROWS = 4, 3  # 4 × 45 + 3 × 6 = 198 mm ≤ 210; 3 × 75 + 2 × 6 = 237 mm ≤ 297
CROP_MM, CROP_OFFSET_MM = 2.5, 0.5  # a mark's length and its distance from the card's corner
AMMO_BOXES = 6  # G-17 placeholder: the seed names ammunition markers (V-FORM-6) but not how many
DAMAGE_BOXES = 2  # V-VDMG-4 (G-26 for vehicles other than tanks): the 2nd damage destroys it

# Bottom-right emblem of a unit card by its kind (V-FORM-7); codes of ``CardEmblem``.
ARM = {"company": "arm-infantry", "platoon": "arm-infantry", "squad": "arm-infantry", "hq_squad": "arm-hq",
       "tactical_group": "arm-group", "motorised": "arm-motorised"}
VEHICLE_ARM = {"tank": "arm-motorised", "apc": "arm-motorised", "car": "arm-motorised",
               "artillery": "arm-artillery", "pillbox": "arm-artillery"}
# A FoW platoon's emblem is its arm's (issue 29): by the platoon's type; independent teams and other
# platoons by the arm most of their teams belong to (a team type of reconnaissance is recon).
FOW_ARM = {"tank": "arm-tank", "infantry": "arm-infantry", "recon": "arm-recon", "gun": "arm-artillery",
           "armoured_train": "arm-train"}
FOW_TEAM_ARM = {"tank": "arm-tank", "infantry": "arm-infantry", "gun": "arm-artillery", "vehicle": "arm-motorised",
                "train": "arm-train"}
EMBLEM_NAMES = {code: (ru, en) for code, ru, en in CARD_EMBLEMS}  # when the game data lacks a row


@dataclass
class Card:
    kind: str  # character | award | unit | vehicle | upgrade | air_support (V-FORM-2)
    label: str  # the kind, as people read it
    title: str
    subtitle: str = ""
    lines: list[str] = field(default_factory=list)
    photo: str = ""
    nation: str = ""  # bottom left (V-FORM-7)
    nation_mark: str = ""  # URL of the nationality mark
    emblem: str = ""  # bottom right: the arm-of-service emblem's URL (V-FORM-7)
    emblem_name: str = ""  # its accessible name, in the reader's language
    emblem_svg: str = ""  # a shipped emblem drawn inline (FoW platoons): the SVG's content, our own file
    emblem_view: str = "0 0 100 100"  # its viewBox
    marking: str = ""  # the unit's number or the vehicle's mark (V-BASE-5, V-FORM-3/4)
    badges: list[str] = field(default_factory=list)
    boxes: list[tuple[str, int]] = field(default_factory=list)  # rows of empty boxes (V-FORM-6)
    cost: str = ""
    back_title: str = ""
    back: list[str] = field(default_factory=list)  # the card's back, when it has one
    # On the back: the numbers a player uses at the table, (heading, lines) a class or team type
    stats: list[tuple[str, list[str]]] = field(default_factory=list)
    stamp_record: str = ""
    stamp_version: str = ""
    stamp_hash: str = ""
    background: str = "#ffffff"
    ink: str = "#222222"
    facts: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def stamp(self) -> str:
        return f"{self.stamp_record} · {self.stamp_version} · #{self.stamp_hash}"

    @property
    def has_back(self) -> bool:
        return bool(self.back_title or self.back or self.stats)


def content_hash(facts: Any) -> str:
    """8 hex digits of the SHA-256 of the facts as canonical JSON: the same
    content always gives the same hash, any change gives another."""
    raw = json.dumps(facts, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(raw.encode()).hexdigest()[:8]


def _stamp(card: Card, record: str, version: str) -> Card:
    card.stamp_record, card.stamp_version, card.stamp_hash = record, version, content_hash(card.facts)
    return card


def _ru() -> bool:
    return (get_language() or "ru").startswith("ru")


def _lang() -> str:
    return "ru" if _ru() else "en"


def _name(obj: Any) -> str:
    return obj.name_ru if _ru() else obj.name_en


def fighters_text(n: int) -> str:
    return ngettext("%(n)d fighter", "%(n)d fighters", n) % {"n": n}


def pp_text(n: int) -> str:
    return ngettext("%(n)d PP", "%(n)d PP", n) % {"n": n}


# --- game data: colours and emblems ------------------------------------------------
@lru_cache(maxsize=64)
def shipped_svg(code: str) -> tuple[str, str] | None:
    """(viewBox, content) of the emblem shipped as ``static/cards/emblems/<code>.svg``,
    to draw it inline; None when there is no such file."""
    found = finders.find(f"cards/emblems/{code}.svg") if re.fullmatch(r"[a-z0-9-]+", code) else None
    match = re.search(r'<svg[^>]*viewBox="([^"]+)"[^>]*>(.*)</svg>', Path(found).read_text(), re.S) if found else None
    return (match.group(1), match.group(2)) if match else None


@dataclass
class Design:
    """The game master's card colours and emblems (``CardColour``, ``CardEmblem``)."""

    colours: dict[str, tuple[str, str]]
    emblems: dict[str, str]  # code -> URL
    names: dict[str, tuple[str, str]] = field(default_factory=dict)  # code -> (Russian, English)
    uploaded: frozenset[str] = frozenset()  # codes whose SVG the game master uploaded

    def emblem(self, code: str) -> str:
        return self.emblems.get(code) or static(f"cards/emblems/{code}.svg")

    def emblem_name(self, code: str) -> str:
        ru, en = self.names.get(code) or EMBLEM_NAMES.get(code) or ("", "")
        return ru if _ru() else en

    def put_emblem(self, card: Card, code: str, *, inline: bool = False) -> Card:
        """The emblem bottom right with its name; ``inline``: the shipped SVG drawn in
        the page (an uploaded one stays an image, never inlined)."""
        card.emblem, card.emblem_name = self.emblem(code), self.emblem_name(code)
        drawn = shipped_svg(code) if inline and code not in self.uploaded else None
        if drawn:
            card.emblem_view, card.emblem_svg = drawn
        return card

    def nation_mark(self, nationality: Any) -> str:
        code = f"nation-{nationality.code}"
        if code in self.emblems:
            return self.emblems[code]
        return self.emblems.get("nation-default") or static("cards/emblems/nation-default.svg")

    def paint(self, card: Card) -> Card:
        card.background, card.ink = self.colours.get(card.kind, (card.background, card.ink))
        return card


def design_load() -> Design:
    """Two queries: the colours and the emblems. A shipped emblem is served from
    the static files unless the game master uploaded another."""
    colours = {c.kind: (c.background, c.ink) for c in CardColour.objects.all()}
    emblems, names, uploaded = {}, {}, set()
    for e in CardEmblem.objects.all():
        emblems[e.code] = e.image.url if e.image else static(f"cards/emblems/{e.code}.svg")
        names[e.code] = (e.name_ru, e.name_en)
        if e.image:
            uploaded.add(e.code)
    return Design(colours, emblems, names, frozenset(uploaded))


# --- builders -------------------------------------------------------------------
def _local(moment: Any) -> Any:
    return timezone.localtime(moment) if timezone.is_aware(moment) else moment


def character_card(character: Any, *, awards: list[tuple[Any, Any]], log_version: int, design: Design) -> Card:
    """V-RANK-3: a photograph, the name and the rank of the officer; his
    awards on the front, each with its date on the back."""
    names = [_name(award) for _, award in awards]
    card = Card(kind="character", label=_("Character"), title=character.name,
                subtitle=character.rank_title(_lang()),
                photo=character.photo.url if character.photo else "",
                nation=_name(character.nationality), nation_mark=design.nation_mark(character.nationality),
                lines=[_("Awards: %s") % ", ".join(names)] if names else [],
                back_title=_("Awards"),
                back=[f"{date_format(_local(e.recorded_at), 'SHORT_DATE_FORMAT')} — {_name(a)}" for e, a in awards]
                or [_("No awards yet.")],
                facts={"kind": "character", "id": character.pk, "name": character.name, "rank": character.rank,
                       "nationality": character.nationality.code, "photo": character.photo.name or "",
                       "awards": [(e.pk, a.code) for e, a in awards]})
    return _stamp(design.paint(card), _("Character #%d") % character.pk, _("log #%d") % log_version)


def award_cards(character: Any, awards: list[tuple[Any, Any]], *, design: Design) -> list[Card]:
    """One card per award granted (V-FORM-2), dated as the site dates."""
    out = []
    for event, award in awards:
        day = date_format(_local(event.recorded_at), "SHORT_DATE_FORMAT")
        card = Card(kind="award", label=_("Award"), title=_name(award),
                    subtitle=f"{character.rank_title(_lang())} {character.name}",
                    lines=[x for x in (event.campaign.name if event.campaign_id else "",
                                       event.battle.name if event.battle_id else "",
                                       _("Granted on %s") % day) if x],
                    nation=_name(character.nationality), nation_mark=design.nation_mark(character.nationality),
                    emblem=design.emblem("award"), emblem_name=design.emblem_name("award"),
                    facts={"kind": "award", "event": event.pk, "award": award.code, "name": award.name_ru,
                           "character": character.pk, "day": event.recorded_at.date().isoformat()})
        out.append(_stamp(design.paint(card), _("Character #%d") % character.pk, _("event #%d") % event.pk))
    return out


def _by_class(fighters: list[Any]) -> list[tuple[Any, int]]:
    counts: dict[int, int] = defaultdict(int)
    classes: dict[int, Any] = {}
    for f in fighters:
        counts[f.infantry_class_id] += f.count
        classes[f.infantry_class_id] = f.infantry_class
    return [(classes[k], counts[k]) for k in sorted(counts, key=lambda k: (classes[k].position, k))]


def _class_name(cls: Any, nationality: Any) -> str:
    """An officer class reads as his nation's rank title (as on the roster page, G-23)."""
    return nationality.rank_name(cls.rank, _lang()) if cls.rank else _name(cls)


def _inches(n: float) -> str:
    return f"{n:g}″"


def default_moves() -> dict[str, float]:
    """G-4: how far a unit moves in each posture, the engine's defaults."""
    return {p: float(v.get("move", 0)) for p, v in DEFAULT_RULES["postures"].items()}


def class_stats(classes: list[tuple[Any, int]], nationality: Any, moves: dict[str, float]) -> tuple[list, list, dict]:
    """The back of a v11.2 unit card: each class's numbers at the table as the roster
    builder offers them (``selectors.class_cards``: class in battle, observation,
    attack, defence, fire distance by posture; G-1, G-3, V-CMD-11) and the unit's
    move by posture (G-4). Returns (stats, lines, facts)."""
    lang = _lang()
    numbers = {c.code: c for c in roster_selectors.class_cards(
        classes=[cls for cls, _n in classes], nationality=nationality, language=lang)}
    # Classes with the same numbers share their lines, so a squad's back fits its card; the class in
    # battle is named where the class's own name does not say it.
    groups: dict[tuple[str, str], list[str]] = {}
    for cls, n in classes:
        c = numbers[cls.code]
        fire = " · ".join(f"{posture} {'—' if d is None else _inches(d)}" for posture, d in c.fire)
        who = f"{n} × {c.name}" + ("" if c.engine.casefold() == c.name.casefold() else f" ({_('in battle')}: {c.engine})")
        groups.setdefault((
            f"{_('observation')} {_inches(c.observation)} · {_('attack')} {c.attack} · {_('defence')} {c.defence}",
            f"{_('fire by posture')}: {fire}"), []).append(who)
    stats = [(", ".join(who), list(lines)) for lines, who in groups.items()]
    order = [p for p in POSTURES if p in moves] + [p for p in moves if p not in POSTURES]
    move = " · ".join(f"{term('posture', p, lang)} {_inches(moves[p])}" for p in order)
    facts = {"classes": [(cls.code, cls.engine_class, cls.observation_in, cls.attack, cls.defence,
                          [getattr(cls, f) for _p, f in roster_selectors.POSTURE_FIELDS]) for cls, _n in classes],
             "moves": [(p, moves[p]) for p in order]}
    return stats, [_("Move by posture: %s") % move] if classes and move else [], facts


def team_stats(teams: list[Any]) -> tuple[list, dict]:
    """The back of a FoW platoon card: each team type's numbers in the game data
    (its kind, movement in inches and centimetres, gun, armour, anti-aircraft)."""
    stats, facts = [], []
    for t in teams:
        tt = t.team_type
        kind = tt.get_kind_display() + (f" · {tt.get_speciality_display()}" if tt.speciality else "")
        if tt.movement_in is None and tt.movement_cm is None:
            move = _("Movement: —")
        else:
            move = _("Movement: %s") % " / ".join(x for x in (
                _inches(tt.movement_in) if tt.movement_in is not None else "",
                f"{tt.movement_cm:g} {_('cm')}" if tt.movement_cm is not None else "") if x)
        extra = [str(x) for x in (tt.get_gun_size_display() if tt.gun_size else "", _("has armour") if tt.armoured else "",
                                  _("fires at aircraft") if tt.anti_aircraft else "") if x]
        stats.append((f"{t.count} × {_name(tt)}", [kind, move] + ([" · ".join(extra)] if extra else [])))
        facts.append((tt.code, tt.kind, tt.speciality, tt.movement_in, tt.movement_cm, tt.gun_size, tt.armoured,
                      tt.anti_aircraft))
    return stats, {"team_types": facts}


def fow_arm(unit: Any, teams: list[Any]) -> str:
    """The arm whose emblem a FoW platoon wears (issue 29): by its type, else by most of its teams."""
    if unit.fow_kind in FOW_ARM:
        return FOW_ARM[unit.fow_kind]
    arms: Counter[str] = Counter()
    for t in teams:
        tt = t.team_type
        arms["arm-recon" if tt.speciality == "recon" else FOW_TEAM_ARM.get(tt.kind, "arm-infantry")] += t.count
    return arms.most_common(1)[0][0] if arms else "arm-infantry"


def roster_cards(tree: Any, report: Any, *, design: Design, character_awards: list[tuple[Any, Any]] | None = None,
                 log_version: int = 0, air_cost: int = 8, upgrades: dict[int, Any] | None = None,
                 moves: dict[str, float] | None = None) -> list[Card]:
    """The cards of a roster: its character, every unit (a tactical group has its
    own, V-TG-7) with its fighters by class, every upgrade, every vehicle
    (V-FORM-4/5, V-VEH-8) and every air-support card bought (V-FORM-2, G-8).
    A unit's back holds the numbers its players use at the table (issue 29)."""
    moves = default_moves() if moves is None else moves
    roster = tree.roster
    nationality = roster.character.nationality
    nation, mark = _name(nationality), design.nation_mark(nationality)
    record = _("Roster #%d") % roster.pk
    version = date_format(_local(roster.updated_at), "SHORT_DATETIME_FORMAT") if roster.updated_at else ""
    cards = [character_card(roster.character, awards=character_awards or [], log_version=log_version,
                            design=design)]
    by_unit: dict[int | None, list[Any]] = defaultdict(list)
    crew: dict[int, list[Any]] = defaultdict(list)
    for f in tree.fighters:
        if f.vehicle_id:
            crew[f.vehicle_id].append(f)
        else:
            by_unit[f.unit_id].append(f)
    teams: dict[int, list[Any]] = defaultdict(list)
    for t in getattr(tree, "teams", []):
        teams[t.unit_id].append(t)
    numbers: dict[str, int] = {}
    for unit in tree.units:
        number = numbers[unit.kind] = numbers.get(unit.kind, 0) + 1
        classes = _by_class(by_unit.get(unit.pk, []))
        men = sum(n for _, n in classes)
        lines = [f"{n} × {_class_name(cls, nationality)}" for cls, n in classes]
        lines += [f"{t.count} × {_name(t.team_type)}" for t in teams.get(unit.pk, [])]
        if unit.kind == "motorised":
            lines.insert(0, _("Formation: %s") % unit.name)  # V-MOTOR-2
        kind = unit.get_kind_display() + (f" · {unit.get_group_kind_display()}" if unit.group_kind else "")
        cost = report.unit_costs.get(str(unit.pk), 0)
        if unit.kind == "fow_platoon":
            kind = unit.get_fow_kind_display() if unit.fow_kind else kind
            stats, numbers = team_stats(teams.get(unit.pk, []))
            back = []
        else:
            stats, back, numbers = class_stats(classes, nationality, moves)
        card = Card(kind="unit", label=kind, title=unit.name, subtitle=roster.name,
                    marking=f"№ {number}",  # V-BASE-5: the squad's number, as on the sergeant's base
                    lines=lines, badges=[fighters_text(men)] if men else [],
                    cost=pp_text(cost), nation=nation, nation_mark=mark,
                    back_title=_("At the table") if stats else "", stats=stats, back=back,
                    facts={"kind": "unit", "id": unit.pk, "unit_kind": unit.kind, "group": unit.group_kind,
                           "fow_kind": unit.fow_kind, "name": unit.name, "division": roster.name, "number": number,
                           "cost": cost, "nationality": nationality.code,
                           "fighters": [(cls.code, n) for cls, n in classes],
                           "teams": [(t.team_type.code, t.count) for t in teams.get(unit.pk, [])], **numbers})
        if unit.kind == "fow_platoon":  # drawn inline, named in the reader's language (issue 29)
            design.put_emblem(card, fow_arm(unit, teams.get(unit.pk, [])), inline=True)
        else:
            design.put_emblem(card, ARM.get(unit.kind, "arm-infantry"))
        cards.append(_stamp(design.paint(card), record, version))
        for upgrade in unit.upgrades.all():
            upgrade = (upgrades or {}).get(upgrade.pk, upgrade)
            card = Card(kind="upgrade", label=_("Upgrade"), title=_name(upgrade), subtitle=unit.name,
                        lines=[upgrade.description] if upgrade.description else [],
                        cost=pp_text(upgrade.cost),
                        nation=nation, nation_mark=mark,
                        facts={"kind": "upgrade", "unit": unit.pk, "code": upgrade.code,
                               "name": upgrade.name_ru, "description": upgrade.description,
                               "cost": upgrade.cost})
            cards.append(_stamp(design.paint(card), record, version))
    smoke = getattr(report, "smoke", {}) or {}
    for number, vehicle in enumerate(tree.vehicles, start=1):
        men = crew.get(vehicle.pk, [])
        specs = [_name(o) for o in vehicle.options.all()]  # V-VEH-8: specialisation badges
        lines = [_("Armour class %d") % vehicle.armour_class]
        if vehicle.gun_class:
            lines.append(_("Gun class %d") % vehicle.gun_class)
        if vehicle.gun_type:
            lines.append(vehicle.get_gun_type_display())
        if vehicle.side_skirts:
            lines.append(_("Side skirts"))
        crew_text = ", ".join(f"{n} × {_class_name(cls, nationality)}" for cls, n in _by_class(men))
        if crew_text:
            lines.append(_("Crew: %s") % crew_text)  # V-FORM-5
        boxes = [(_("Damage"), DAMAGE_BOXES), (_("Running gear"), 1), (_("Ammunition"), AMMO_BOXES)]
        if smoke.get(f"vehicle:{vehicle.pk}"):
            boxes.append((_("Smoke"), AMMO_BOXES // 2))  # V-SMOKE-1
        cost = report.vehicle_costs.get(str(vehicle.pk), 0)
        card = Card(kind="vehicle", label=vehicle.get_kind_display(), title=vehicle.name,
                    subtitle=roster.name, lines=lines, marking=f"№ {number}",  # V-FORM-3/4: the mark on the model
                    badges=specs, boxes=boxes, cost=pp_text(cost), nation=nation, nation_mark=mark,
                    emblem=design.emblem(VEHICLE_ARM.get(vehicle.kind, "arm-motorised")),
                    emblem_name=design.emblem_name(VEHICLE_ARM.get(vehicle.kind, "arm-motorised")),
                    facts={"kind": "vehicle", "id": vehicle.pk, "vehicle_kind": vehicle.kind, "name": vehicle.name,
                           "number": number, "armour": vehicle.armour_class, "gun": vehicle.gun_class,
                           "gun_type": vehicle.gun_type, "skirts": vehicle.side_skirts,
                           "options": [o.code for o in vehicle.options.all()],
                           "crew": [(cls.code, n) for cls, n in _by_class(men)], "cost": cost})
        cards.append(_stamp(design.paint(card), record, version))
    for i in range(1, roster.air_support_cards + 1):
        # G-8 placeholder: one sortie per battle, called by radio (V-CORR/V-RADIO), an attack resolved as a heavy
        # howitzer (G-7); each AA shot at the arriving aircraft is a hit test (V-TEST-1) that drives it off.
        card = Card(kind="air_support", label=_("Air support"), title=_("Air support"), subtitle=roster.name,
                    marking=f"№ {i}", lines=[_("1 sortie per battle"), _("Called by radio (V-CORR, V-RADIO)")],
                    boxes=[(_("Sortie"), 1)], cost=pp_text(air_cost), nation=nation, nation_mark=mark,
                    emblem=design.emblem("arm-air"), emblem_name=design.emblem_name("arm-air"),
                    back_title=_("How it works"),
                    back=[_("The attack is resolved as a heavy howitzer strike (G-7)."),
                          _("Each AA shot at the arriving aircraft is a hit test (V-TEST-1); "
                            "a success drives it off before it attacks."),
                          _("G-8: placeholder rules; the game master decides.")],
                    facts={"kind": "air_support", "roster": roster.pk, "number": i, "cost": air_cost})
        cards.append(_stamp(design.paint(card), record, version))
    return cards


# --- loading (selectors) --------------------------------------------------------
def _awards_of(character: Any) -> tuple[list[tuple[Any, Any]], int]:
    """The awards granted to a character (event, award) and his log's version
    (the id of his last campaign event): 2 queries."""
    events = list(CampaignEvent.objects.filter(character=character).select_related("campaign", "battle")
                  .order_by("id"))
    granted = [e for e in events if e.type == "award_granted"]
    awards = Award.objects.in_bulk([e.data.get("award") for e in granted])
    pairs = [(e, awards[e.data.get("award")]) for e in granted if e.data.get("award") in awards]
    return pairs, (events[-1].pk if events else 0)


def character_cards_load(*, character: Any, design: Design | None = None) -> list[Card]:
    design = design or design_load()
    awards, version = _awards_of(character)
    return [character_card(character, awards=awards, log_version=version, design=design),
            *award_cards(character, awards, design=design)]


def roster_cards_load(*, roster_id: int, design: Design | None = None) -> list[Card]:
    """A roster's cards, priced with the current game data; the query count
    does not grow with the roster."""
    tree = roster_selectors.roster_tree(roster_id=roster_id)
    game = roster_selectors.game_data_current()
    report = roster_selectors.roster_report(tree=tree, game=game)
    # The tree loads upgrades' names only; the cards print their effect and cost too (1 query).
    upgrades = Upgrade.objects.in_bulk({u.pk for unit in tree.units for u in unit.upgrades.all()})
    design = design or design_load()
    awards, version = _awards_of(tree.roster.character)
    read_moves = roster_selectors.BATTLE_READS.get("moves")  # the rules data battles keep (1 query)
    return roster_cards(tree, report, design=design, character_awards=awards, log_version=version,
                        air_cost=game.rules.air_support_cost, upgrades=upgrades,
                        moves=read_moves() if read_moves else None)


# --- sheets ---------------------------------------------------------------------
@dataclass
class Slot:
    card: Card
    back: bool
    left: float  # mm from the page's left edge
    top: float
    blank: bool = False  # the back of a card without one: nothing printed


@dataclass
class Page:
    slots: list[Slot]
    marks: list[tuple[float, float, float, float]]  # crop marks: lines x1, y1, x2, y2 in mm

    @property
    def crop_path(self) -> str:
        """The crop marks as one SVG path (one element a page, not one a mark: faster to lay out)."""
        return " ".join(f"M{x1:.2f} {y1:.2f}L{x2:.2f} {y2:.2f}" for x1, y1, x2, y2 in self.marks)


def _margins() -> tuple[float, float]:
    return ((A4_MM[0] - COLUMNS * WIDTH_MM - (COLUMNS - 1) * GAP_MM) / 2,
            (A4_MM[1] - ROWS * HEIGHT_MM - (ROWS - 1) * GAP_MM) / 2)


def _crop_marks(left: float, top: float) -> list[tuple[float, float, float, float]]:
    """Eight short lines (x1, y1, x2, y2) outside a card's corners, in line with
    its edges, so the cut follows them; they stay inside the gap between cards."""
    w, h, n, o = WIDTH_MM, HEIGHT_MM, CROP_MM, CROP_OFFSET_MM
    right, bottom = left + w, top + h
    return [
        (left - o - n, top, left - o, top), (left, top - o - n, left, top - o),  # top left
        (right + o, top, right + o + n, top), (right, top - o - n, right, top - o),  # top right
        (left - o - n, bottom, left - o, bottom), (left, bottom + o, left, bottom + o + n),  # bottom left
        (right + o, bottom, right + o + n, bottom), (right, bottom + o, right, bottom + o + n),  # bottom right
    ]


def sheets(cards: list[Card]) -> list[Page]:
    """A4 pages of 4 × 3 cards with crop marks, each followed by the page of
    their backs, mirrored left to right, so a sheet printed on both sides
    (flipped on its long edge) puts each back behind its front. The page of
    backs comes even when no card on the sheet has one (blank), so the next
    sheet of fronts never lands on the back of this one."""
    mx, my = _margins()
    per_page = COLUMNS * ROWS
    pages = []
    for start in range(0, len(cards), per_page):
        chunk = cards[start:start + per_page]
        fronts, backs, marks, back_marks = [], [], [], []
        for i, card in enumerate(chunk):
            row, col = divmod(i, COLUMNS)
            left, top = mx + col * (WIDTH_MM + GAP_MM), my + row * (HEIGHT_MM + GAP_MM)
            fronts.append(Slot(card, False, left, top))
            marks += _crop_marks(left, top)
            if card.has_back:
                back_left = mx + (COLUMNS - 1 - col) * (WIDTH_MM + GAP_MM)
                backs.append(Slot(card, True, back_left, top))
                back_marks += _crop_marks(back_left, top)
        pages.append(Page(fronts, marks))
        pages.append(Page(backs, back_marks))
    return pages


def singles(cards: list[Card]) -> list[Slot]:
    """One card a page, 45 × 75 mm, every front followed by its back: the card's
    own, or a blank page when it has none, so any duplex printer puts each back
    behind its front (page 2k is the back of page 2k − 1)."""
    out = []
    for card in cards:
        out.append(Slot(card, False, 0, 0))
        out.append(Slot(card, True, 0, 0, blank=not card.has_back))
    return out
