"""Battles get participants, and participants' rosters are mustered into them.

The game master schedules a battle, adds the campaign's characters with the
submitted rosters they bring, and musters: each side's rosters become ONE
``force_mustered`` event for that side, followed by ``battle_started``, in a
single batch appended by the game master. The mustered rosters are locked
while the battle runs and go back to ``submitted`` when it ends (the
``BATTLE_ENDED_HOOKS`` entry registered by ``battles.apps``).

How a roster becomes engine specs (``roster_force``):

* Ids are readable and deterministic, built from the roster's order alone, so
  equal rosters of the same player give equal ids in any battle: the prefix is
  the player's login (``ivan``), then ``s1`` (first squad), ``h1`` (HQ squad),
  ``g1`` (tactical group), ``m1`` (motorised unit), ``p1``/``c1`` (platoon or
  company headquarters), ``v1`` (vehicle); fighters are ``<place>-f<n>``
  (``ivan-s1-f3``, ``ivan-v1-f1``, loose ones ``ivan-f1``); a squad's second
  fire team is ``ivan-s1-t2``. Two players whose logins slug alike get
  ``-2``, ``-3`` suffixes in participant order.
* A roster fighter row with ``count`` N becomes N fighters, named by the
  class's Russian name and a number within the unit or vehicle
  («Стрелок №3»); the character's own figure is named after him.
* Fighters take ``cls`` from ``InfantryClass.engine_class`` and ``rank`` from
  ``InfantryClass.rank``. The character himself is the first officer of the
  character's rank (or, lacking one, the most senior officer) and carries the
  campaign character id.
* Squads (and HQ squads): the first fire team is the squad itself, every other
  fire team is a ``fire_team`` unit whose ``parent`` is the squad (V-SQUAD-4).
  Platoons and companies are chains of command, not units on the table: their
  lieutenant or captain stands outside units (V-OFF-7/8/9); anybody else on
  their staff forms an ``hq`` unit named after the platoon or company.
* Vehicles keep kind, armour and gun class (capped at the engine's 6), side
  skirts, their bought options as specialisations (spotter, tractor,
  mine_trawl; ``aa_at_fire`` → ``at_fire``) and their crews. The roster does
  not say how a vehicle moves: tanks are tracked, APCs half-tracked, cars
  wheeled, guns towed. The main weapon comes from the gun type and kind
  (a tank's howitzer is a ``tank_howitzer``).
* A roster's pillbox (V-BUNK-7) is a bought, crewed, immobile weapon position:
  it is mustered as an ``artillery`` piece with drive ``none`` and its armour,
  gun and crew. The terrain pillboxes that infantry occupy (``terrain_placed``,
  V-TURN-5) are battlefield objects the game master places, not roster things.
"""
from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.text import slugify

from battles import services
from battles.engine.weapons import roster_weapon
from battles.models import Battle, BattleEvent, BattleParticipant, BattleProjection
from campaign.models import Campaign, Character, Membership
from campaign.roles import is_game_master
from config.errors import Conflict, Forbidden, InvalidInput
from rosters.models import Roster, Status
from rosters.selectors import roster_locked_by, roster_tree, roster_validate

RANK_LEVEL = {"": -1, "corporal": 0, "sergeant": 1, "lieutenant": 2, "captain": 3}
SENIOR = ("lieutenant", "captain")
SQUADS = ("squad", "hq_squad")
ENGINE_UNIT = {"squad": "squad", "hq_squad": "hq", "tactical_group": "tactical_group", "motorised": "motorised"}
UNIT_LETTER = {"squad": "s", "hq_squad": "h", "tactical_group": "g", "motorised": "m", "platoon": "p",
               "company": "c"}
DRIVE = {"tank": "tracked", "apc": "half_tracked", "car": "wheeled", "artillery": "towed", "pillbox": "none"}
VEHICLE_KIND_RU = {"car": "Автомобиль", "tank": "Танк", "apc": "Бронетранспортёр", "artillery": "Орудие",
                   "pillbox": "ДОТ"}
SPECIALISATION = {"spotter": "spotter", "tractor": "tractor", "mine_trawl": "mine_trawl", "aa_at_fire": "at_fire"}
ENGINE_MAX_CLASS = 6  # the engine's armour and gun classes run 0..6


def require_master(user: Any) -> None:
    """Authorization first: only the game master sets battles up (403 otherwise)."""
    if not is_game_master(user):
        raise Forbidden("Только мастер может готовить бой.", "Only the game master may set up a battle.")


def _weapon(kind: str, gun_type: str, gun_class: int | None) -> str:
    """The engine's main weapon for a roster vehicle's gun type and kind (the engine's weapon table)."""
    return roster_weapon(kind, gun_type, gun_class)


def _clamp(value: int | None) -> int:
    return max(0, min(int(value or 0), ENGINE_MAX_CLASS))


@dataclass
class Force:
    """One roster's part of a side's ``force_mustered`` payload."""

    units: list[dict[str, Any]] = field(default_factory=list)
    fighters: list[dict[str, Any]] = field(default_factory=list)
    vehicles: list[dict[str, Any]] = field(default_factory=list)


def roster_force(*, tree: Any, prefix: str, character: Character | None = None) -> Force:
    """The engine specs of one roster (``rosters.selectors.RosterTree``), ids
    prefixed with ``prefix``. Deterministic: the same roster gives the same
    specs, whatever its database ids (see the module docstring)."""
    units = list(tree.units)
    vehicles = list(tree.vehicles)
    fighters = list(tree.fighters)
    by_pk = {u.pk: u for u in units}
    letters: dict[str, int] = defaultdict(int)
    code: dict[int, str] = {}
    for u in units:
        letter = UNIT_LETTER.get(u.kind, "u")
        letters[letter] += 1
        code[u.pk] = f"{prefix}-{letter}{letters[letter]}"
    vcode = {v.pk: f"{prefix}-v{n}" for n, v in enumerate(vehicles, 1)}
    vby_pk = {v.pk: v for v in vehicles}
    first_team: dict[int, int] = {}
    for f in fighters:
        if f.unit_id and not f.vehicle_id and by_pk[f.unit_id].kind in SQUADS:
            t = f.fire_team or 1
            first_team[f.unit_id] = min(first_team.get(f.unit_id, t), t)

    engine_units: dict[str, dict[str, Any]] = {}  # in creation order
    members: dict[str, list[dict[str, Any]]] = defaultdict(list)  # engine unit -> its fighters

    def engine_unit_of(u: Any) -> str:
        """The engine unit a roster unit's own (first fire team) fighters stand in."""
        uid = code[u.pk]
        if uid not in engine_units:
            engine_units[uid] = {"id": uid, "kind": ENGINE_UNIT.get(u.kind, "hq"), "name": u.name}
        return uid

    counters: dict[str, int] = defaultdict(int)  # place -> fighters numbered so far
    class_counters: dict[tuple[str, str], int] = defaultdict(int)
    out_fighters: list[dict[str, Any]] = []
    crews: dict[int, list[str]] = defaultdict(list)
    for f in fighters:
        ic = f.infantry_class
        vehicle = vby_pk.get(f.vehicle_id) if f.vehicle_id else None
        roster_unit = by_pk.get(f.unit_id) if f.unit_id else None
        if vehicle is not None:
            place = vcode[vehicle.pk]
            host = by_pk.get(vehicle.unit_id) if vehicle.unit_id else None
            unit = engine_unit_of(host) if host is not None and host.kind in ENGINE_UNIT else ""
        elif roster_unit is not None:
            place = code[roster_unit.pk]
            if roster_unit.kind in SQUADS and (f.fire_team or 1) != first_team.get(roster_unit.pk, 1):
                unit = f"{place}-t{f.fire_team}"
                if unit not in engine_units:
                    squad = engine_unit_of(roster_unit)
                    engine_units[unit] = {"id": unit, "kind": "fire_team", "parent": squad,
                                          "name": f"{roster_unit.name}, огневая группа {f.fire_team}"}
            elif roster_unit.kind in ENGINE_UNIT or ic.rank not in SENIOR:
                unit = engine_unit_of(roster_unit)
            else:
                unit = ""  # V-OFF-9: a lieutenant or captain commanding a platoon or company stands alone
        else:
            place, unit = prefix, ""
        for _ in range(f.count):
            counters[place] += 1
            class_counters[(place, ic.code)] += 1
            # Names stay the roster's: a Soviet corporal is a «Младший сержант» on the table too (issue 25).
            word = character.nationality.rank_name(ic.rank, "ru") if character is not None and ic.rank \
                else ic.name_ru
            spec = {"id": f"{place}-f{counters[place]}", "unit": unit, "cls": ic.engine_class, "rank": ic.rank,
                    "name": f"{word} №{class_counters[(place, ic.code)]}"}
            out_fighters.append(spec)
            if unit:
                members[unit].append(spec)
            if vehicle is not None:
                crews[vehicle.pk].append(spec["id"])

    if character is not None:
        officers = [s for s in out_fighters if s["rank"]]
        own = [s for s in officers if s["rank"] == character.rank]
        figure = own[0] if own else max(officers, key=lambda s: RANK_LEVEL.get(s["rank"], -1), default=None)
        if figure is not None:
            figure["character"] = str(character.pk)
            figure["name"] = f"{figure['name'].rsplit(' №', 1)[0]} {character.name}"

    for uid, spec in engine_units.items():
        staff = [s for s in members[uid] if s["rank"]]
        if staff:
            spec["commander"] = max(staff, key=lambda s: RANK_LEVEL.get(s["rank"], -1))["id"]

    out_vehicles = []
    kind_numbers: dict[str, int] = defaultdict(int)
    for v in vehicles:
        kind_numbers[v.kind] += 1
        name = v.name.strip() if v.name and v.name.strip() not in DRIVE else \
            f"{VEHICLE_KIND_RU.get(v.kind, v.kind)} №{kind_numbers[v.kind]}"
        out_vehicles.append({
            "id": vcode[v.pk], "kind": "artillery" if v.kind == "pillbox" else v.kind,
            "drive": DRIVE.get(v.kind, "tracked"), "armour": _clamp(v.armour_class), "gun": _clamp(v.gun_class),
            "weapon": _weapon(v.kind, v.gun_type, v.gun_class), "skirts": bool(v.side_skirts),
            "specialisations": sorted({SPECIALISATION[o.code] for o in v.options.all() if o.code in SPECIALISATION}),
            "crew": crews.get(v.pk, []), "name": name,
        })
    return Force(list(engine_units.values()), out_fighters, out_vehicles)


FOW_UNITS = ("in", "cm")


def fow_roster_platoons(*, tree: Any, prefix: str, units: str = "in") -> list[dict[str, Any]]:
    """The FoW engine's platoon specs of one FoW roster (``force_mustered`` of
    ``battles.engine.fow.rules.core``). Ids are readable and deterministic as
    for v11.2: ``<login>-p<n>`` for the n-th platoon, ``<login>-p<n>-t<k>`` for
    its k-th team; a team row with ``count`` N becomes N teams named by the
    type's Russian name and a number within the platoon («Средний танк №2»).
    A tank platoon that is part of an armoured train is one of its Tank
    Support Platoons (``escorts``, G-F3); the Locomotive is the team type's
    flag. Movement comes from the team type in the battle's units (``None``:
    the engine's default by kind, G-F1)."""
    platoons = [u for u in tree.units if u.kind == "fow_platoon"]
    code = {u.pk: f"{prefix}-p{n}" for n, u in enumerate(platoons, 1)}
    teams_in: dict[int, list[Any]] = defaultdict(list)
    for t in tree.teams:
        teams_in[t.unit_id].append(t)
    out: list[dict[str, Any]] = []
    for u in platoons:
        pid = code[u.pk]
        teams: list[dict[str, Any]] = []
        per_type: dict[str, int] = defaultdict(int)
        for row in teams_in.get(u.pk, []):
            tt = row.team_type
            move = tt.movement_in if units == "in" else tt.movement_cm
            for _ in range(row.count):
                per_type[tt.code] += 1
                spec: dict[str, Any] = {
                    "id": f"{pid}-t{len(teams) + 1}", "kind": tt.kind, "name": f"{tt.name_ru} №{per_type[tt.code]}",
                    "gun_size": tt.gun_size, "anti_aircraft": tt.anti_aircraft, "armoured": tt.armoured,
                    "recon": tt.speciality == "recon", "cavalry": tt.speciality == "cavalry",
                    "locomotive": tt.locomotive}
                if move is not None:
                    spec["movement"] = move
                teams.append(spec)
        out.append({"id": pid, "kind": u.fow_kind or "other", "name": u.name, "teams": teams,
                    "command": teams[0]["id"] if teams else "",
                    "escorts": [code[c.pk] for c in platoons if c.parent_id == u.pk]
                    if u.fow_kind == "armoured_train" else []})
    return out


def _prefixes(participants: Sequence[BattleParticipant]) -> dict[int, str]:
    """A readable id prefix per participant (the player's login), unique in the battle."""
    out: dict[int, str] = {}
    taken: set[str] = set()
    for p in participants:
        base = slugify(p.character.owner.username)[:16].strip("-") or f"p{p.character_id}"
        prefix, n = base, 1
        while prefix in taken:
            n += 1
            prefix = f"{base}-{n}"
        taken.add(prefix)
        out[p.pk] = prefix
    return out


# --- scheduling and participants ------------------------------------------------
@transaction.atomic
def battle_schedule(*, user: Any, campaign: Campaign, name: str, scheduled_for: Any = None, mission: str = "",
                    victory_conditions: str = "", objectives: Sequence[int] = (), turn_limit: int | None = None) -> Battle:
    """The game master schedules a battle of the campaign (V-TURN-7: mission and conditions)."""
    require_master(user)
    if not (name or "").strip():
        raise InvalidInput("name: укажите название боя.", "name: give the battle a name.", field="name")
    if turn_limit is not None and not 1 <= turn_limit <= 99:
        raise InvalidInput("turn_limit: от 1 до 99 ходов.", "turn_limit: 1 to 99 turns.", field="turn_limit")
    battle = services.battle_create(campaign=campaign, name=name.strip(), mission=mission,
                                    victory_conditions=victory_conditions, objectives=objectives,
                                    turn_limit=turn_limit)
    if scheduled_for is not None:
        battle.scheduled_for = scheduled_for
        battle.save(update_fields=["scheduled_for"])
    return battle


def battle_is_mustered(*, battle: Battle) -> bool:
    """Mustered or started: forces are on the table (by this service or by hand)."""
    return (battle.participants.filter(mustered_seq__isnull=False).exists()
            or BattleEvent.objects.filter(battle_id=battle.pk, type__in=("force_mustered", "battle_started")).exists())


def battle_may_remuster(*, battle: Battle, mustered: bool | None = None) -> bool:
    """A v11.2 battle mustered and started but not yet past its first «Ход»: the table is still being set
    up, so the game master may change its participants and muster anew (V-TURN-13). ``mustered``, when
    the caller knows it, spares asking."""
    if battle.campaign.ruleset != "v11.2":
        return False
    if not (battle_is_mustered(battle=battle) if mustered is None else mustered):
        return False
    state = BattleProjection.objects.filter(battle_id=battle.pk).values_list("state", flat=True).first() or {}
    return state.get("status") == "running" and not state.get("ply") and battle.head_seq == state.get("last_seq")


def _require_participants_open(battle: Battle) -> None:
    """Before the muster, or before the first «Ход» of a battle that may be mustered anew."""
    if battle_is_mustered(battle=battle) and not battle_may_remuster(battle=battle):
        _require_not_mustered(battle)


def _require_not_mustered(battle: Battle) -> None:
    if battle_is_mustered(battle=battle):
        raise Conflict("Силы уже выставлены: состав участников боя больше не меняется.",
                       "The forces are already mustered: the battle's participants no longer change.",
                       code="already_mustered")


def _refuse_locked(*, roster: Roster, battle: Battle, field: str) -> None:
    """A locked roster is refused naming what holds it: the running battle it
    is mustered in (by name; the game master finishes that table first), or
    the game master's own lock."""
    holder = roster_locked_by(roster=roster, besides=battle.pk)
    if holder is None:
        raise Conflict(f"{field}: «{roster.name}» заблокирован мастером; разблокируйте его, чтобы выставить.",
                       f"{field}: '{roster.name}' is locked by the game master; unlock it to muster it.",
                       field=field, code="roster_locked")
    name = holder.name
    raise Conflict(f"{field}: «{roster.name}» выставлен в идущем бою «{name}» и заблокирован, пока тот бой не "
                   "закончится.",
                   f"{field}: '{roster.name}' is mustered in the running battle '{name}' and stays locked until "
                   "that battle ends.", field=field, code="roster_locked", extra={"locked_by": name})


def _check_roster(*, roster: Roster, character: Character, battle: Battle, side: str, field: str = "roster") -> None:
    """V-TURN-1: a roster fights only submitted, valid, for this campaign and side."""
    if roster.character_id != character.pk:
        raise InvalidInput(f"{field}: это состав другого персонажа.", f"{field}: the roster is another character's.",
                           field=field)
    if roster.campaign_id != battle.campaign_id:
        raise InvalidInput(f"{field}: состав собран не для этой кампании.",
                           f"{field}: the roster is not for this campaign.", field=field)
    held_here = BattleParticipant.objects.filter(battle_id=battle.pk, roster_id=roster.pk,
                                                 mustered_seq__isnull=False).exists()
    if roster.status == Status.LOCKED and not held_here:  # locked by this very battle: mustered anew
        _refuse_locked(roster=roster, battle=battle, field=field)
    if roster.status != Status.SUBMITTED and not (held_here and roster.status == Status.LOCKED):
        raise InvalidInput(f"{field}: «{roster.name}» не подан (черновик или заблокирован); подайте состав.",
                           f"{field}: '{roster.name}' is not submitted (a draft or locked); submit it first.",
                           field=field, code="roster_not_submitted")
    if roster.side != side:
        raise InvalidInput(f"{field}: «{roster.name}» собран за другую сторону.",
                           f"{field}: '{roster.name}' is built for the other side.", field=field,
                           code="roster_other_side")
    report = roster_validate(roster=roster)
    if not report.ok:
        first = report.errors[0]
        raise InvalidInput(f"{field}: «{roster.name}» нарушает правила ({first.rule_id}: {first.message_ru}).",
                           f"{field}: '{roster.name}' breaks the rules ({first.rule_id}: {first.message_en}).",
                           field=field, rule_id=first.rule_id, code="roster_invalid")


@transaction.atomic
def battle_participant_add(*, user: Any, battle: Battle, character: Character, roster: Roster) -> BattleParticipant:
    """A campaign member's character joins the battle for his side, with his roster."""
    require_master(user)
    battle = Battle.objects.select_for_update().select_related("campaign").get(pk=battle.pk)
    _require_participants_open(battle)
    membership = Membership.objects.filter(campaign_id=battle.campaign_id, character=character,
                                           status=Membership.Status.ACTIVE).first()
    if membership is None:
        raise InvalidInput("character: персонаж не участвует в кампании этого боя.",
                           "character: the character is not an active member of this battle's campaign.",
                           field="character")
    if not membership.side:
        raise InvalidInput("character: мастер ещё не назначил персонажу сторону.",
                           "character: the game master has not assigned the character a side yet.",
                           field="character")
    if battle.participants.filter(character=character).exists():
        raise Conflict(f"character: {character.name} уже участвует в этом бою.",
                       f"character: {character.name} already takes part in this battle.", field="character",
                       code="already_participant")
    _check_roster(roster=roster, character=character, battle=battle, side=membership.side)
    return BattleParticipant.objects.create(battle=battle, character=character, side=membership.side, roster=roster)


@transaction.atomic
def battle_participant_remove(*, user: Any, participant: BattleParticipant) -> None:
    require_master(user)
    battle = Battle.objects.select_for_update().select_related("campaign").get(pk=participant.battle_id)
    _require_participants_open(battle)
    roster_id = participant.roster_id if participant.mustered_seq is not None else None
    participant.delete()
    if roster_id is not None:  # his roster leaves the table with him (at the re-muster)
        Roster.objects.filter(pk=roster_id, status=Status.LOCKED).update(status=Status.SUBMITTED)


# --- muster ------------------------------------------------------------------
@dataclass(frozen=True)
class MusterResult:
    battle: Battle
    events: list[BattleEvent]
    participants: list[BattleParticipant]


@transaction.atomic
def battle_muster(*, user: Any, battle: Battle, units: str = "in", first_mover: str = "attacker") -> MusterResult:
    """Every participant's roster onto the table: one ``force_mustered`` per
    side and ``battle_started`` with the campaign's side names, in one batch.
    The rosters are locked until the battle ends; each participant keeps the
    event, price and game-data version he was mustered with. A FoW campaign's
    rosters become FoW platoons of teams, and its ``battle_started`` says the
    units the table measures in (``units``) and who moves first."""
    require_master(user)
    battle = Battle.objects.select_for_update().select_related("campaign").get(pk=battle.pk)
    _require_not_mustered(battle)
    fow = battle.campaign.ruleset == "fow"
    if fow and units not in FOW_UNITS:
        raise InvalidInput("units: дюймы (in) или сантиметры (cm).", "units: inches (in) or centimetres (cm).",
                           field="units")
    if fow and first_mover not in ("attacker", "defender"):
        raise InvalidInput("first_mover: атакующие или обороняющиеся.", "first_mover: attacker or defender.",
                           field="first_mover")
    participants, prefixes, mustered = _musterable(battle)
    forces: dict[str, Force] = {"attacker": Force(), "defender": Force()}
    fow_platoons: dict[str, list[dict[str, Any]]] = {"attacker": [], "defender": []}
    for p in mustered:
        if fow:
            fow_platoons[p.side] += fow_roster_platoons(tree=roster_tree(roster_id=p.roster_id),
                                                        prefix=prefixes[p.pk], units=units)
            continue
        _add_roster(forces[p.side], p, prefixes[p.pk])
    campaign = battle.campaign
    if fow:
        events = [services.NewEvent(type="force_mustered", key=f"muster-{battle.pk}-{side}",
                                    data={"side": side, "platoons": platoons})
                  for side, platoons in fow_platoons.items()]
        events.append(services.NewEvent(type="battle_started", key=f"muster-{battle.pk}-started",
                                        data={"attacker": campaign.attacker_name, "defender": campaign.defender_name,
                                              "ruleset": "fow", "units": units, "first_mover": first_mover}))
    else:
        # V-TURN-2, V-TURN-3: the defender deploys first, then the attacker; the log records it in that order
        events = [services.NewEvent(type="force_mustered", key=f"muster-{battle.pk}-{side}",
                                    data={"side": side, "units": forces[side].units, "fighters": forces[side].fighters,
                                          "vehicles": forces[side].vehicles})
                  for side in ("defender", "attacker")]
        events.append(services.NewEvent(type="battle_started", key=f"muster-{battle.pk}-started",
                                        data={"attacker": campaign.attacker_name,
                                              "defender": campaign.defender_name}))
    result = services.battle_event_append(battle_id=battle.pk, events=events, expected_seq=battle.head_seq,
                                          recorded_by=user, as_game_master=True)
    _mark_mustered(result.events, mustered, prefixes)
    battle.refresh_from_db(fields=["head_seq", "rules"])
    return MusterResult(battle, result.events, participants)


def _musterable(battle: Battle) -> tuple[list[BattleParticipant], dict[int, str], list[BattleParticipant]]:
    """The participants, their id prefixes, and those bringing a roster (each checked); both sides must."""
    participants = list(battle.participants.select_related("character__owner", "character__nationality", "roster")
                        .order_by("id"))
    for side, label_ru, label_en in (("attacker", "атакующих", "the attacker"),
                                     ("defender", "обороняющихся", "the defender")):
        if not any(p.side == side and p.roster_id for p in participants):
            raise InvalidInput(f"participants: у {label_ru} нет ни одного участника с составом.",
                               f"participants: {label_en} has no participant with a roster.", field="participants",
                               code="side_empty")
    mustered = [p for p in participants if p.roster_id]
    for p in mustered:
        _check_roster(roster=p.roster, character=p.character, battle=battle, side=p.side,
                      field=f"participants[{p.character.name}]")
    return participants, _prefixes(participants), mustered


def _add_roster(force: Force, p: BattleParticipant, prefix: str) -> None:
    """One participant's v11.2 roster into his side's force, every piece marked as his (issue 25)."""
    part = roster_force(tree=roster_tree(roster_id=p.roster_id), prefix=prefix, character=p.character)
    for spec in (*part.units, *part.fighters, *part.vehicles):
        spec["player"] = prefix  # whose pieces: each player records for his own
    force.units += part.units
    force.fighters += part.fighters
    force.vehicles += part.vehicles


def _mark_mustered(events: Sequence[Any], mustered: Sequence[BattleParticipant], prefixes: dict[int, str]) -> None:
    """Each participant keeps the event, price and game-data version he was mustered with; rosters lock."""
    seqs = {e.data["side"]: e.seq for e in events if e.type == "force_mustered"}
    now = timezone.now()
    for p in mustered:
        p.player = prefixes[p.pk]
        p.mustered_seq = seqs[p.side]
        p.mustered_total = p.roster.priced_total
        p.mustered_version = p.roster.priced_version_id
        p.mustered_at = now
        p.save(update_fields=["player", "mustered_seq", "mustered_total", "mustered_version", "mustered_at"])
    Roster.objects.filter(pk__in=[p.roster_id for p in mustered]).update(status=Status.LOCKED)


@transaction.atomic
def battle_remuster(*, user: Any, battle: Battle) -> MusterResult:
    """The game master musters a v11.2 battle anew before its first «Ход» (V-TURN-13): each side's
    ``force_mustered`` with ``replace``, from the participants and rosters as they are now; the earlier
    muster stays in the log. After the first «Ход» missing pieces come as reinforcements."""
    require_master(user)
    battle = Battle.objects.select_for_update().select_related("campaign").get(pk=battle.pk)
    if not battle_may_remuster(battle=battle):
        raise Conflict("Заново силы выставляются только до первого «Хода» боя v11.2; потом — подкреплением.",
                       "Forces are mustered anew only before the first end of turn of a v11.2 battle; later, "
                       "as reinforcements.", code="not_remusterable", rule_id="V-TURN-13")
    participants, prefixes, mustered = _musterable(battle)
    forces: dict[str, Force] = {"attacker": Force(), "defender": Force()}
    for p in mustered:
        _add_roster(forces[p.side], p, prefixes[p.pk])
    # A key no participant can guess (a participant who stored an event under the key would block the
    # remuster: the game master's retry of a key counts anyone's); the battle row's lock and expected_seq
    # already make a repeated form submission a remuster of its own.
    nonce = secrets.token_urlsafe(12)
    events = [services.NewEvent(type="force_mustered", key=f"remuster-{battle.pk}-{battle.head_seq}-{side}-{nonce}",
                                data={"side": side, "replace": True, "units": forces[side].units,
                                      "fighters": forces[side].fighters, "vehicles": forces[side].vehicles})
              for side in ("defender", "attacker")]
    result = services.battle_event_append(battle_id=battle.pk, events=events, expected_seq=battle.head_seq,
                                          recorded_by=user, as_game_master=True)
    _mark_mustered(result.events, mustered, prefixes)
    battle.refresh_from_db(fields=["head_seq", "rules"])
    return MusterResult(battle, result.events, participants)


def rosters_release(battle_id: int) -> int:
    """The battle is over: its mustered rosters go back to ``submitted``
    (registered in ``BATTLE_ENDED_HOOKS``; idempotent). A roster mustered
    meanwhile into another battle that has not ended stays locked."""
    with transaction.atomic():
        elsewhere = (BattleParticipant.objects.filter(roster_id=OuterRef("pk"), mustered_seq__isnull=False)
                     .exclude(battle_id=battle_id).exclude(battle__projection__state__status="ended"))
        ids = (BattleParticipant.objects.filter(battle_id=battle_id, mustered_seq__isnull=False,
                                                roster__isnull=False).values_list("roster_id", flat=True))
        return (Roster.objects.filter(~Exists(elsewhere), pk__in=list(ids), status=Status.LOCKED)
                .update(status=Status.SUBMITTED))
