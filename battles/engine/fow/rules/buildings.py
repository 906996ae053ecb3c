"""Movement in Buildings (seed 001, rulebook pp. 53-54; catalog F-BLD).

A building is placed with its Openings (``building_placed``): windows, doors and
breaches, on the ground floor or above, each perhaps wider than a base
(F-BLD-2, a ``table`` row: the table says what is an Opening). Teams get in and
out only through them, never through a wall (F-BLD-1).

A building is Cleared for a side if one of its live teams is inside, or if one
of them was inside or touching one of its Openings at the start of the current
Step (F-BLD-3; the catalog's reading: the current Step, here the moving side's
Movement Step, i.e. a place held since an earlier ply), even with an enemy
team inside (F-BLD-4); otherwise it is Contested, empty or not (F-BLD-5).

``building_move`` is a team's move (it runs every ``team_moved`` rule, then the
building's) that enters, moves inside, passes through, leaves, or ends touching
an Opening from outside. Infantry and Man-packed Gun teams enter a Cleared
building through any ground-floor Opening (F-BLD-6), the move measured as in
any other terrain (F-BLD-7): their normal 6"/15 cm (F-BLD-11), and a move too
short to get fully in does not get in (F-BLD-12); a team that does not get
across a room stays inside where its move ends (F-BLD-13). Entering a
Contested building through an Opening the team was not touching at the start
of its move takes a Skill test (F-BLD-8; a team moves once in its Movement
Step, rules/steps.py, so where it stands is where its move starts): passed, it enters and the building
is Cleared for its side for the rest of the Step, so others follow (F-BLD-9;
the Step ends with the Shooting Step's first act or ``step_ended``);
failed, it stops outside touching the Opening and blocks it for every other
team (F-BLD-10), other Openings staying free (F-BLD-14), and an Opening wider
than its base only for its base's width (F-BLD-15). Infantry and Man-packed
Gun teams move through a Cleared building and leave by ground-floor Openings
(F-BLD-16) within their normal 6"/15 cm (F-BLD-17, F-BLD-18).

On the shared actions: a plain ``team_moved`` of a team inside a building is
refused unless it only pivots (F-BLD-1: it leaves by an Opening, as a
``building_move``); any other move or an assault takes a team away from the
Opening it stood at, and it stops blocking it. A destroyed team neither clears
nor blocks.
"""
from __future__ import annotations

from typing import Annotated, Any

from msgspec import Meta

from battles.engine.dice import D6
from battles.engine.events import Context
from battles.engine.fow.registry import POLICY, REGISTRY, Recorder, either, team_side
from battles.engine.fow.state import Building, FowState, Opening, Team, TestRecord
from battles.engine.schema import Payload

from .actions import ON_ASSAULT, ON_MOVE, TeamMoved, team_moved
from .common import distance, fmt, passes, refuse, require_live, require_own_turn, require_running, skill_min, team

ENTERING_KINDS = "an Infantry or Man-packed Gun team"


def may_enter(t: Team) -> bool:
    """Infantry and Man-packed Gun teams (F-BLD-6, F-BLD-16)."""
    return t.kind == "infantry" or (t.kind == "gun" and t.gun_size == "man_packed")


def building(state: FowState, bid: str) -> Building:
    b = state.buildings.get(bid)
    if b is None:
        refuse("S-UNKNOWN", f"Здания {bid!r} нет.", f"No building {bid!r}.")
    return b


def opening(b: Building, oid: str) -> Opening:
    o = b.openings.get(oid)
    if o is None:  # F-BLD-1: no team passes through a wall
        refuse("F-BLD-1", f"У здания {b.id!r} нет Проёма {oid!r}: сквозь стену не пройти.",
               f"Building {b.id!r} has no Opening {oid!r}: no team passes through a wall.")
    return o


def inside(t: Team, b: Building) -> bool:
    return t.building == b.id and not t.opening


def _held_since_before(state: FowState, t: Team) -> bool:
    """Held its place (inside, or at an Opening) since before this ply: at the start of the Step (F-BLD-3)."""
    return bool(t.building) and t.building_ply < state.ply


def is_cleared(state: FowState, b: Building, side: str) -> bool:
    """F-BLD-3..5: a live friendly team inside, or one inside or at an Opening at the start of the
    Step, or a Skill test passed this Step (F-BLD-9), whoever else is inside (F-BLD-4)."""
    if side in b.cleared_for and b.cleared_ply == state.ply and b.cleared_step == state.step:
        return True  # F-BLD-9: for the rest of the Step
    for tid in b.inside:
        t = state.teams.get(tid)
        if t is not None and t.side == side and not t.destroyed:
            return True
    for t in state.teams.values():
        if t.building == b.id and t.opening and t.side == side and not t.destroyed and _held_since_before(state, t):
            return True
    return False


def _mark_cleared(state: FowState, b: Building, side: str) -> None:
    if (b.cleared_ply, b.cleared_step) != (state.ply, state.step):
        b.cleared_for, b.cleared_ply, b.cleared_step = [], state.ply, state.step
    if side not in b.cleared_for:
        b.cleared_for.append(side)


def _blockers(state: FowState, o: Opening, but: str = "") -> list[str]:
    return [tid for tid in o.blocked_by if tid != but and tid in state.teams and not state.teams[tid].destroyed]


def free_width(state: FowState, o: Opening, but: str = "") -> float | None:
    """The part of an Opening no live team blocks (F-BLD-10, F-BLD-15); None when unblocked."""
    blockers = _blockers(state, o, but)
    if not blockers:
        return None
    if o.width is None:
        return 0.0
    return max(0.0, o.width - sum(o.block_widths.get(tid, o.width) for tid in blockers))


def blocked_whole(state: FowState, o: Opening, but: str = "") -> bool:
    """F-BLD-10: a live blocker fills the Opening. F-BLD-15 (only its base's width) applies only where
    the Opening is wider than the blocker's base: not where its width is not given, nor where the base
    is as wide or its width was not given (it then blocks the whole width)."""
    blockers = _blockers(state, o, but)
    return bool(blockers) and (o.width is None or any(o.block_widths.get(tid, o.width) >= o.width
                                                      for tid in blockers))


def _release(state: FowState, t: Team) -> None:
    """The team leaves its place: out of the building's roll, away from (and no longer blocking) its Opening.
    Had it held the place since the start of the Step, the building stays Cleared for its side (F-BLD-3)."""
    b = state.buildings.get(t.building)
    if b is not None:
        if _held_since_before(state, t):
            _mark_cleared(state, b, t.side)
        if t.id in b.inside:
            b.inside.remove(t.id)
        o = b.openings.get(t.opening)
        if o is not None and t.id in o.blocked_by:
            o.blocked_by.remove(t.id)
            o.block_widths.pop(t.id, None)
    t.building, t.opening, t.building_ply = "", "", -1


def _place(state: FowState, t: Team, b: Building, oid: str = "") -> None:
    t.building, t.opening, t.building_ply = b.id, oid, state.ply
    if not oid and t.id not in b.inside:
        b.inside.append(t.id)


# --- building_placed --------------------------------------------------------------------
class OpeningSpec(Payload):
    """An Opening: a window, door or breach a team can move or shoot through (F-BLD-2)."""

    id: Annotated[str, Meta(min_length=1, max_length=60)]
    ground_floor: Annotated[bool, Meta(description="On the ground floor")] = True
    width: Annotated[float, Meta(
        ge=0, description="Physical width in the battle's units (blank: no wider than a base)")] | None = None


class BuildingPlaced(Payload):
    """A building on the table with its Openings (F-BLD-1, F-BLD-2), and the teams deployed inside."""

    id: Annotated[str, Meta(min_length=1, max_length=60)]
    openings: Annotated[list[OpeningSpec], Meta(min_length=1, max_length=30)]
    name: Annotated[str, Meta(max_length=200, description="What the table calls it")] = ""
    inside: Annotated[list[str], Meta(max_length=60, description="Teams deployed inside")] = []


building_placed = REGISTRY.event_type("building_placed", BuildingPlaced, rules=("F-BLD-1", "F-BLD-2", "F-BLD-6"),
                                      title_ru="Здание на столе", title_en="Building placed")
POLICY["building_placed"] = Recorder("either", either, "Любая сторона за столом", "Either side at the table")


@building_placed.check
def _check_placed(state: FowState, p: BuildingPlaced, ctx: Context) -> None:
    require_running(state)
    if p.id in state.buildings:
        refuse("S-DUPLICATE", f"Здание {p.id!r} уже на столе.", f"Building {p.id!r} is already on the table.")
    ids = [o.id for o in p.openings]
    if len(set(ids)) != len(ids):
        refuse("S-DUPLICATE", "Проёмы здания называются по-разному.", "A building's Openings have distinct ids.")
    for tid in p.inside:
        t = team(state, tid)
        if t.building:
            refuse("S-DUPLICATE", f"Отделение {tid!r} уже у другого здания.", f"Team {tid!r} is already at a building.")
        if not may_enter(t):
            refuse("F-BLD-6", f"В здании бывают только Пехотные отделения и отделения Переносных Орудий, не {tid!r}.",
                   f"Only Infantry and Man-packed Gun teams are inside buildings, not {tid!r}.")


@building_placed.mutator
def _apply_placed(state: FowState, p: BuildingPlaced, ctx: Context) -> None:
    b = Building(id=p.id, name=p.name,
                 openings={o.id: Opening(id=o.id, ground_floor=o.ground_floor, width=o.width) for o in p.openings})
    state.buildings[p.id] = b
    for tid in p.inside:
        t = state.teams[tid]
        _place(state, t, b)
        t.building_ply = -1  # deployed there: held since before this Step


# --- building_move ----------------------------------------------------------------------
class BuildingMove(Payload):
    """A team's move into, inside, through or out of a building, or up to one of its Openings,
    measured as in any other terrain (F-BLD-7), with the Skill test when it tries to enter a
    Contested building (F-BLD-8)."""

    team: Annotated[str, Meta(min_length=1, max_length=60)]
    building: Annotated[str, Meta(min_length=1, max_length=60)]
    distance: Annotated[float, Meta(ge=0, description="Distance moved (battle's units)")]
    enter_by: Annotated[str, Meta(max_length=60, description="The Opening it enters (or tries to) through")] = ""
    leave_by: Annotated[str, Meta(max_length=60, description="The Opening it leaves through")] = ""
    ends_at: Annotated[str, Meta(
        max_length=60, description="The Opening its base touches, outside, at the end of the move")] = ""
    die: Annotated[D6 | None, Meta(description="Skill test to enter a Contested building (F-BLD-8)")] = None
    base_width: Annotated[float, Meta(
        ge=0,
        description="The team's base width (battle's units), for a partly blocked Opening (F-BLD-15)")] | None = None
    bulletproof_cover: Annotated[bool, Meta(description="Ends in Bulletproof Cover terrain")] = False


building_move = REGISTRY.event_type("building_move", BuildingMove,
                                    rules=tuple(f"F-BLD-{n}" for n in (1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                                                       16, 17, 18)),
                                    title_ru="Движение в здании", title_en="Move in a building")
POLICY["building_move"] = Recorder("actor", team_side("team"), "Сторона отделения", "The team's side")


def needs_test(state: FowState, t: Team, b: Building, p: BuildingMove) -> bool:
    """F-BLD-8: entering a Contested building (F-BLD-5) through an Opening not touched at the start of the
    move. A team moves once in its Movement Step (rules/steps.py), so where it stands is where that move starts."""
    if not p.enter_by or is_cleared(state, b, t.side):
        return False
    return (t.building, t.opening) != (b.id, p.enter_by)


def _limit(ctx: Context, state: FowState, t: Team) -> float:
    """The team's normal move: 6"/15 cm for infantry (F-BLD-11, F-BLD-17) unless its own data says otherwise."""
    return float(t.movement) if t.movement is not None else distance(ctx, state, "infantry_move")


def _as_move(p: BuildingMove) -> TeamMoved:
    return TeamMoved(team=p.team, distance=p.distance, bulletproof_cover=p.bulletproof_cover)


@building_move.check
def _check_building_move(state: FowState, p: BuildingMove, ctx: Context) -> None:
    t = team(state, p.team)
    require_own_turn(state, t.side)
    require_live(t)
    b = building(state, p.building)
    within = inside(t, b)
    if t.building and t.building != b.id and not t.opening:
        refuse("F-BLD-1", f"Отделение в здании {t.building!r}: сначала выйти через его Проём.",
               f"The team is inside building {t.building!r}: it leaves through one of its Openings first.")
    for oid in (p.enter_by, p.leave_by, p.ends_at):
        if oid:
            opening(b, oid)
    if p.enter_by and within:
        refuse("F-BLD-1", "Отделение уже в здании.", "The team is already inside the building.")
    if not p.enter_by and not within:
        if p.leave_by:
            refuse("F-BLD-1", "Отделение не в здании: ему неоткуда выходить.", "The team is not inside: it cannot leave.")
        if not p.ends_at:
            refuse("F-BLD-1", "Войти в здание можно только через Проём.", "A team enters a building only through an Opening.")
    if (p.enter_by or within) and not p.leave_by and p.ends_at:
        refuse("F-BLD-1", "Отделение оканчивает движение в здании, а не у Проёма снаружи.",
               "The team ends its move inside the building, not outside at an Opening.")
    if p.enter_by or within:
        rule = "F-BLD-6" if p.enter_by else "F-BLD-16"
        if not may_enter(t):
            refuse(rule, "В здание входят и двигаются в нём только Пехотные отделения и отделения Переносных Орудий.",
                   f"Only {ENTERING_KINDS} enters and moves through a building.")
    if p.enter_by:
        o = b.openings[p.enter_by]
        if not o.ground_floor:
            refuse("F-BLD-6", "Войти в здание можно через Проём на первом этаже.",
                   "A team enters a building through a ground-floor Opening.")
        free = free_width(state, o, but=t.id)
        if free is not None:
            if p.base_width is None or blocked_whole(state, o, but=t.id):
                refuse("F-BLD-10", f"Проём {o.id!r} заблокирован: через него никто не войдёт.",
                       f"Opening {o.id!r} is blocked: no other team enters through it.")
            if p.base_width > free:
                ru, en = fmt(free, state)
                refuse("F-BLD-15", f"Свободная часть Проёма {o.id!r} — {ru}: подставка не пройдёт.",
                       f"The free part of Opening {o.id!r} is {en}: the base does not fit through.")
    if p.leave_by and not b.openings[p.leave_by].ground_floor:
        refuse("F-BLD-16", "Выйти из здания можно через Проём на первом этаже.",
               "A team leaves a building through a ground-floor Opening.")
    limit = _limit(ctx, state, t)
    if p.distance > limit:
        ru, en = fmt(limit, state)
        if p.enter_by and p.leave_by:
            refuse("F-BLD-18", f"Пройти здание насквозь можно, если хватает движения ({ru}).",
                   f"A team passes through a building only if its move ({en}) allows.")
        if p.enter_by:
            refuse("F-BLD-12", f"Движения ({ru}) не хватает, чтобы полностью войти в здание: отделение не входит.",
                   f"The move ({en}) is not long enough to get fully into the building: the team cannot enter.")
        if p.leave_by:
            refuse("F-BLD-17", f"Из здания выходят, двигаясь на обычные {ru}.",
                   f"A team leaves a building moving its normal {en}.")
        refuse("F-BLD-13", f"Отделение проходит за ход не больше {ru} и останавливается там, где кончилось движение.",
               f"The team moves at most {en} in a turn and stops where its move ends.")
    # every rule on moving (G-F1 distance and one move a Step, F-DBL-8, F-DIG-1, other areas), before the die:
    # where the move starts (F-BLD-8) is judged of a move that may be made at all
    for check in team_moved.checks:
        if check is not _check_plain_move:
            check(state, _as_move(p), ctx)
    test = needs_test(state, t, b, p)
    if test and p.die is None:
        refuse("F-BLD-8", "Здание Оспариваемое: чтобы войти через этот Проём, пройдите тест на Умение.",
               "The building is Contested: entering through this Opening takes a Skill test.")
    if not test and p.die is not None:
        refuse("F-BLD-8", "Тест на Умение проходят только входя в Оспариваемое Здание через Проём, которого не касались.",
               "A Skill test is taken only to enter a Contested building through an Opening not touched at the start.")


@building_move.mutator
def _apply_building_move(state: FowState, p: BuildingMove, ctx: Context) -> None:
    t = state.teams[p.team]
    b = state.buildings[p.building]
    within = inside(t, b)
    test = needs_test(state, t, b, p)
    assert team_moved.mutate is not None
    team_moved.mutate(state, _as_move(p), ctx)  # a move like any other (F-BLD-7); releases its old place
    if p.enter_by:
        if test:
            pl = state.platoons.get(t.platoon)
            need = skill_min(ctx, pl) if pl is not None else int(ctx.rules["skill_test_min"])
            passed = p.die is not None and passes(p.die, need)
            state.tests.append(TestRecord(kind="skill", seq=ctx.seq, subject=t.id, purpose="building",
                                          rolls=[p.die.value] if p.die is not None else [], passed=passed))
            if not passed:  # F-BLD-10: stops outside touching the Opening, and blocks it (F-BLD-15: its base width)
                _place(state, t, b, p.enter_by)
                o = b.openings[p.enter_by]
                o.blocked_by.append(t.id)
                whole = o.width if o.width is not None else 0.0
                o.block_widths[t.id] = p.base_width if p.base_width is not None and o.width is not None else whole
                return
            _mark_cleared(state, b, t.side)  # F-BLD-9: Cleared for the rest of the Step
        within = True
    if within and not p.leave_by:
        _place(state, t, b)  # F-BLD-13: inside, where its move ends
    elif p.ends_at:
        _place(state, t, b, p.ends_at)


# --- hooks on the shared actions ---------------------------------------------------------
@team_moved.check
def _check_plain_move(state: FowState, p: TeamMoved, ctx: Context) -> None:
    t = team(state, p.team)
    if t.building and not t.opening and not p.pivot_only:
        refuse("F-BLD-1", "Отделение в здании выходит только через Проём: запишите «Движение в здании».",
               "A team inside a building leaves only through an Opening: record a move in the building.")


@team_moved.check
def _check_stopped(state: FowState, p: TeamMoved, ctx: Context) -> None:
    t = team(state, p.team)
    o = state.buildings[t.building].openings.get(t.opening) if t.building in state.buildings else None
    if o is not None and t.id in o.blocked_by and t.building_ply == state.ply:
        refuse("F-BLD-10", "Отделение провалило тест на Умение и остановилось у Проёма: в этот ход оно больше не движется.",
               "The team failed its Skill test and stopped at the Opening: it moves no further this turn.")


def _on_move(state: FowState, p: Any, ctx: Context) -> None:
    t = state.teams[p.team]
    if t.building and not p.pivot_only:
        _release(state, t)


ON_MOVE.append(_on_move)


def _on_assault(state: FowState, p: Any, ctx: Context) -> None:
    for tid in p.teams:  # an assaulting team leaves the Opening it stood at (inside: the assault rules, G-F1)
        t = state.teams[tid]
        if t.building and t.opening:
            _release(state, t)


ON_ASSAULT.append(_on_assault)

__all__ = ["blocked_whole", "building_move", "building_placed", "free_width", "is_cleared", "may_enter", "needs_test"]
