"""Reconnaissance (seed 004, rulebook pp. 193–194; catalog F-RECON).

Every team of a Reconnaissance platoon is a Reconnaissance team (F-RECON-1, at
``force_mustered``). An unarmoured Reconnaissance vehicle saves on 3+ instead
of the usual 5+ (F-RECON-2: ``unarmoured_save_rolled``; the save itself is
``vehicle_save`` / ``recon_save`` below, for the aircraft saves of F-AIR too).

Cautious Movement (F-RECON-3): Reconnaissance and Observer teams always count
as Gone to Ground, except while they move At the Double, carry Passengers that
are not Reconnaissance teams (``passengers_changed``), shoot or assault: read
``counts_as_gone_to_ground``; the stored ``gone_to_ground`` flag of such a team
is refreshed whenever it moves, Disengages or its passengers change.

Spotting Ambushes (F-RECON-4, F-RECON-5): ``ambush_placed`` refuses a team
placed from Ambush closer than 8"/20 cm to an enemy Reconnaissance team in
Line of Sight, unless that team is Bogged Down, Bailed Out or moved At the
Double.

Recon deployment (F-RECON-6…14): after Deployment, before the game
(``recon_deployment_started`` … ``recon_deployment_ended``), the sides take
turns choosing a platoon with Reconnaissance teams (F-RECON-13) whose teams
each make one move up to their Movement distance (F-RECON-6,
``recon_deployment_move``), not At the Double (F-RECON-11), not carrying
non-Reconnaissance Passengers (F-RECON-12), never closer than 8"/20 cm to an
enemy team (F-RECON-9), not into the Line of Sight of an enemy team within
16"/40 cm (F-RECON-7), not closer to one that sees it within 16"/40 cm
(F-RECON-8), and (the summary box, F-RECON-14, reading) not within 16"/40 cm
of one that sees it from further away; enemy Independent and Warrior teams are
ignored (F-RECON-10).

«Отходим!» (Disengage, F-RECON-15…24): ``disengage_declared`` when the enemy
opens fire, before any to-hit roll (F-RECON-16), if the platoon's scouts did
not move At the Double, shoot (any fire) or assault in their previous turn
(F-RECON-15); each shooter first fires one shot (F-RECON-17, one die on
``team_shot``); ``disengaged`` takes the Skill test (F-RECON-18) and moves the
scouts that go (F-RECON-19…22); the shooters' remaining shots follow
(F-RECON-23, their dice less the one already fired) or miss automatically when
the whole platoon is out of reach (F-RECON-24: refused).
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import Meta

from battles.engine.dice import D6
from battles.engine.events import Context
from battles.engine.fow.registry import OFF_TURN, POLICY, REGISTRY, Recorder, either, platoon_side, team_side
from battles.engine.fow.state import Disengagement, FowState, Platoon, Team, TestRecord
from battles.engine.rules.core import other
from battles.engine.schema import Payload

from .actions import DICE_MODIFIERS, ON_MOVE, assault_launched, team_moved, team_shot
from .common import distance, fmt, movement, passes, platoon, refuse, require_live, require_running, skill_min, team
from .core import ON_MUSTER, ON_TURN_END, turn_ended

Side = Literal["attacker", "defender"]


# --- shared answers (importable by other areas) ---------------------------------------------
def last_own_ply(state: FowState, side: str) -> int:
    """The ply of ``side``'s turn now running, or of its last one while the other side moves."""
    return state.ply if state.side_to_move == side else state.ply - 1


def is_unarmoured_vehicle(t: Team) -> bool:
    return t.kind == "vehicle" and not t.armoured


def recon_save(t: Team, rules: dict[str, Any]) -> int | None:
    """F-RECON-2: the save of an unarmoured Reconnaissance vehicle (3+), or None
    for any other team. F-AIR (saves against aircraft) imports this."""
    if t.recon and is_unarmoured_vehicle(t):
        return int(rules["recon_vehicle_save"])
    return None


def vehicle_save(t: Team, rules: dict[str, Any]) -> tuple[int, str]:
    """(the save, its rule) of an unarmoured vehicle: 3+ for Reconnaissance, else the usual 5+ (F-RECON-2)."""
    rs = recon_save(t, rules)
    return (rs, "F-RECON-2") if rs is not None else (int(rules["unarmoured_vehicle_save"]), "F-RECON-2")


def carries_non_recon(state: FowState, t: Team) -> bool:
    """F-RECON-3, F-RECON-12: it carries a Passenger that is not a Reconnaissance team."""
    return any((p := state.teams.get(tid)) is not None and not p.recon and not p.destroyed for tid in t.passengers)


def cautious(t: Team) -> bool:
    return t.recon or t.observer


def counts_as_gone_to_ground(state: FowState, t: Team) -> bool:
    """F-RECON-3: a Reconnaissance or Observer team counts as Gone to Ground unless,
    in its turn now running or its last one, it moved At the Double, shot or
    assaulted, or it carries non-Reconnaissance Passengers (then: not Gone to Ground);
    any other team: its own flag."""
    if t.destroyed:
        return False
    if not cautious(t):
        return t.gone_to_ground
    if carries_non_recon(state, t):
        return False
    own = last_own_ply(state, t.side)
    return own < 0 or own not in (t.double_ply, t.shot_ply, t.assault_ply)


def _refresh(state: FowState, t: Team) -> None:
    if cautious(t):
        t.gone_to_ground = counts_as_gone_to_ground(state, t)


def _after_move(state: FowState, p: Any, ctx: Context) -> None:
    _refresh(state, state.teams[p.team])  # after double.py's mark: At the Double is known


ON_MOVE.append(_after_move)


def _after_muster(state: FowState, p: Any, ctx: Context) -> None:
    """The cautious teams, kept so a turn's end visits them alone (a company has hundreds of teams)."""
    state.cautious = [tid for tid, t in state.teams.items() if cautious(t)]


def _after_turn(state: FowState, p: Any, ctx: Context) -> None:
    """F-RECON-3: a turn passing can make a cautious team Gone to Ground again (its
    shot or assault is no longer in its running or last turn): the stored flag follows."""
    teams = state.teams
    for tid in state.cautious:
        t = teams.get(tid)
        if t is not None:
            _refresh(state, t)


ON_MUSTER.append(_after_muster)
ON_TURN_END.append(_after_turn)


# --- unarmoured_save_rolled (F-RECON-2) ---------------------------------------------------
class UnarmouredSaveRolled(Payload):
    """The owner of an unarmoured vehicle hit by direct fire or a bombardment
    rolls its save: 3+ for a Reconnaissance vehicle, else 5+ (F-RECON-2). A
    failed save Destroys it (G-F1). Air attacks are saved by the F-AIR rules."""

    team: Annotated[str, Meta(min_length=1, max_length=60)]
    die: Annotated[D6, Meta(description="The save")]
    fire: Annotated[Literal["direct", "artillery"], Meta(
        description="Direct fire or an artillery bombardment")] = "direct"


unarmoured_save_rolled = REGISTRY.event_type("unarmoured_save_rolled", UnarmouredSaveRolled,
                                             rules=("F-RECON-2", "G-F1"), title_ru="Спасбросок небронированной техники",
                                             title_en="Unarmoured vehicle save")
POLICY["unarmoured_save_rolled"] = Recorder("actor", team_side("team"), "Владелец отделения",
                                            "The hit team's owner")


@unarmoured_save_rolled.check
def _check_save(state: FowState, p: UnarmouredSaveRolled, ctx: Context) -> None:
    require_running(state)
    t = team(state, p.team)
    require_live(t)
    if not is_unarmoured_vehicle(t):
        refuse("F-RECON-2", "Этот спасбросок — только для небронированной техники.",
               "This save is for unarmoured vehicles only.")


@unarmoured_save_rolled.mutator
def _apply_save(state: FowState, p: UnarmouredSaveRolled, ctx: Context) -> None:
    t = state.teams[p.team]
    need, _ = vehicle_save(t, ctx.rules)
    if not passes(p.die, need):
        t.destroyed = True  # G-F1: a failed save; unarmoured, so no wreck (F-AIR-14)
        t.gone_to_ground = False


# --- passengers_changed (F-RECON-3, F-RECON-12) -----------------------------------------
class PassengersChanged(Payload):
    """The teams a team now carries as Passengers (empty: none). Mounting and
    dismounting are core rules (G-F1); recon cares who they are."""

    team: Annotated[str, Meta(min_length=1, max_length=60)]
    passengers: Annotated[list[str], Meta(max_length=20, description="The teams carried")] = []


passengers_changed = REGISTRY.event_type("passengers_changed", PassengersChanged,
                                         rules=("F-RECON-3", "F-RECON-12", "G-F1"),
                                         title_ru="Пассажиры", title_en="Passengers carried")
POLICY["passengers_changed"] = Recorder("actor", team_side("team"), "Сторона перевозящего отделения",
                                        "The carrying team's side")


@passengers_changed.check
def _check_passengers(state: FowState, p: PassengersChanged, ctx: Context) -> None:
    require_running(state)
    t = team(state, p.team)
    require_live(t)
    if len(set(p.passengers)) != len(p.passengers):
        refuse("S-DUPLICATE", "Пассажир назван дважды.", "A passenger is named twice.")
    for tid in p.passengers:
        x = team(state, tid)
        require_live(x)
        if tid == t.id or x.side != t.side:
            refuse("S-TARGET", f"Отделение {tid!r} не может быть пассажиром {t.id!r}.",
                   f"Team {tid!r} cannot be a passenger of {t.id!r}.")


@passengers_changed.mutator
def _apply_passengers(state: FowState, p: PassengersChanged, ctx: Context) -> None:
    t = state.teams[p.team]
    t.passengers = list(p.passengers)
    _refresh(state, t)


# --- ambush_placed (F-RECON-4, F-RECON-5) -------------------------------------------------
class ReconSighting(Payload):
    """An enemy Reconnaissance team with Line of Sight to the Ambush position, and its distance."""

    team: Annotated[str, Meta(min_length=1, max_length=60)]
    distance: Annotated[float, Meta(ge=0, description="Distance to the placed team")]


class AmbushPlaced(Payload):
    """A team placed from Ambush (the Ambush rules, p. 266, are G-F1), with the
    enemy Reconnaissance teams that have it in Line of Sight."""

    team: Annotated[str, Meta(min_length=1, max_length=60)]
    recon_in_sight: Annotated[list[ReconSighting], Meta(
        max_length=30,
        description="Enemy Reconnaissance teams in Line of Sight of the position")] = []


ambush_placed = REGISTRY.event_type("ambush_placed", AmbushPlaced, rules=("F-RECON-4", "F-RECON-5", "G-F1"),
                                    title_ru="Размещение из Засады", title_en="Placed from Ambush")
POLICY["ambush_placed"] = Recorder("actor", team_side("team"), "Сторона отделения", "The team's side")


def spots_ambush(state: FowState, r: Team) -> bool:
    """F-RECON-5: Bogged Down, Bailed Out or At the Double (its turn now or last) Reconnaissance teams do not."""
    return r.recon and not r.destroyed and not r.bogged and not r.bailed_out and \
        r.double_ply != last_own_ply(state, r.side)


@ambush_placed.check
def _check_ambush(state: FowState, p: AmbushPlaced, ctx: Context) -> None:
    require_running(state)
    t = team(state, p.team)
    require_live(t)
    near = distance(ctx, state, "recon_enemy_min")
    for s in p.recon_in_sight:
        r = team(state, s.team)
        if r.side == t.side or not r.recon:
            refuse("S-TARGET", f"{s.team!r} — не вражеское Разведывательное отделение.",
                   f"{s.team!r} is not an enemy Reconnaissance team.")
        if spots_ambush(state, r) and s.distance < near:
            ru, en = fmt(near, state)
            refuse("F-RECON-4", f"Из Засады нельзя размещать ближе {ru} от вражеского Разведывательного отделения "
                                f"{s.team!r} на Линии Видимости.",
                   f"A team from Ambush may not be placed closer than {en} to the enemy Reconnaissance team "
                   f"{s.team!r} in Line of Sight.")


@ambush_placed.mutator
def _apply_ambush(state: FowState, p: AmbushPlaced, ctx: Context) -> None:
    state.teams[p.team].ambush_ply = state.ply


# --- recon deployment (F-RECON-6..14) -----------------------------------------------------
class ReconDeploymentStarted(Payload):
    """After Deployment, before the game: Reconnaissance teams may move (F-RECON-6);
    the Mission says which player chooses a platoon first (F-RECON-13)."""

    first: Annotated[Side, Meta(description="The side choosing the first platoon (the Mission)")]


class EnemyContact(Payload):
    """One enemy team as the table measured it during the move (battle's units)."""

    enemy: Annotated[str, Meta(min_length=1, max_length=60)]
    start_distance: Annotated[float, Meta(ge=0, description="Distance at the start of the move")]
    closest: Annotated[float, Meta(ge=0, description="Closest distance during the move")]
    in_sight_at_start: Annotated[bool, Meta(description="In this enemy team's Line of Sight at the start")] = False
    closest_in_sight: Annotated[float, Meta(
        ge=0, description="Closest distance while in its Line of Sight (empty: never in sight)")] | None = None


class ReconDeploymentMove(Payload):
    """One Reconnaissance team's recon deployment move (F-RECON-6), with the
    enemy teams it came near or into the sight of."""

    team: Annotated[str, Meta(min_length=1, max_length=60)]
    distance: Annotated[float, Meta(ge=0, description="Distance moved")]
    at_the_double: Annotated[bool, Meta(description="Moved At the Double (F-DBL)")] = False
    enemies: Annotated[list[EnemyContact], Meta(max_length=40)] = []


class ReconDeploymentEnded(Payload):
    """The recon deployment moves are over; the game starts (F-RECON-6)."""

    note: Annotated[str, Meta(max_length=500)] = ""


recon_deployment_started = REGISTRY.event_type(
    "recon_deployment_started", ReconDeploymentStarted, rules=("F-RECON-6", "F-RECON-13"),
    title_ru="Расстановка Разведки начата", title_en="Recon deployment begins")
recon_deployment_move = REGISTRY.event_type(
    "recon_deployment_move", ReconDeploymentMove,
    rules=tuple(f"F-RECON-{n}" for n in range(6, 15)),
    title_ru="Передвижение Разведки При Расстановке", title_en="Recon deployment move")
recon_deployment_ended = REGISTRY.event_type(
    "recon_deployment_ended", ReconDeploymentEnded, rules=("F-RECON-6",),
    title_ru="Расстановка Разведки окончена", title_en="Recon deployment over")
POLICY["recon_deployment_started"] = Recorder("either", either, "Любая сторона: как указано в Задании",
                                              "Either side: as the Mission says")
POLICY["recon_deployment_move"] = Recorder("actor", team_side("team"), "Сторона отделения", "The team's side")
POLICY["recon_deployment_ended"] = Recorder("either", either, "Любая сторона за столом", "Either side at the table")


def _can_choose(state: FowState, pl: Platoon) -> bool:
    return not pl.recon_deployed and any(
        state.teams[t].recon and not state.teams[t].destroyed and not state.teams[t].recon_deployed for t in pl.teams)


def _has_choice(state: FowState, side: str) -> bool:
    return any(pl.side == side and _can_choose(state, pl) for pl in state.platoons.values())


def _game_begun(state: FowState) -> bool:
    return state.ply > 0 or any(max(t.moved_ply, t.shot_ply, t.assault_ply, t.dig_ply) >= 0
                                for t in state.teams.values())


@recon_deployment_started.check
def _check_recon_started(state: FowState, p: ReconDeploymentStarted, ctx: Context) -> None:
    require_running(state)
    if state.recon_phase or _game_begun(state):
        refuse("F-RECON-6", "Расстановка Разведки — один раз, после Расстановки и до начала игры.",
               "The recon deployment comes once, after Deployment and before the game starts.")
    if not (_has_choice(state, "attacker") or _has_choice(state, "defender")):
        refuse("F-RECON-6", "На столе нет Разведывательных отделений.", "There are no Reconnaissance teams on the table.")


@recon_deployment_started.mutator
def _apply_recon_started(state: FowState, p: ReconDeploymentStarted, ctx: Context) -> None:
    state.recon_phase = "open"
    state.recon_chooser = p.first if _has_choice(state, p.first) else other(p.first)


def _check_contact(state: FowState, ctx: Context, t: Team, c: EnemyContact) -> None:
    e = team(state, c.enemy)
    if e.side == t.side:
        refuse("S-TARGET", f"{c.enemy!r} — не вражеское отделение.", f"{c.enemy!r} is not an enemy team.")
    if e.independent or e.warrior or e.destroyed:
        return  # F-RECON-10
    near = distance(ctx, state, "recon_enemy_min")
    if c.closest < near and c.closest < c.start_distance:
        ru, en = fmt(near, state)
        refuse("F-RECON-9", f"Разведка не может приближаться к вражескому отделению {c.enemy!r} ближе, чем на {ru}.",
               f"A Reconnaissance team may not come closer than {en} to the enemy team {c.enemy!r}.")
    seen = distance(ctx, state, "recon_visible_limit")
    if c.closest_in_sight is None or c.closest_in_sight > seen:
        return
    ru, en = fmt(seen, state)
    if not c.in_sight_at_start:
        refuse("F-RECON-7", f"Разведка не может попасть на Линию Видимости отделения {c.enemy!r} в пределах {ru} от него.",
               f"A Reconnaissance team may not move into the Line of Sight of {c.enemy!r} within {en} of it.")
    if c.start_distance > seen:
        refuse("F-RECON-14", f"Разведка не может подходить к видимому вражескому отделению {c.enemy!r} ближе {ru}.",
               f"A Reconnaissance team may not come within {en} of the enemy team {c.enemy!r} that sees it.")
    if c.closest_in_sight < c.start_distance:
        refuse("F-RECON-8", f"На Линии Видимости отделения {c.enemy!r} в пределах {ru} Разведка не может к нему "
                            "приближаться.",
               f"In the Line of Sight of {c.enemy!r} within {en}, a Reconnaissance team may not move closer to it.")


@recon_deployment_move.check
def _check_recon_move(state: FowState, p: ReconDeploymentMove, ctx: Context) -> None:
    require_running(state)
    if state.recon_phase != "open":
        refuse("F-RECON-6", "Передвижение Разведки — только во время Расстановки Разведки, до начала игры.",
               "The recon deployment move is made only during the recon deployment, before the game starts.")
    t = team(state, p.team)
    require_live(t)
    if not t.recon:
        refuse("F-RECON-6", f"{t.id!r} — не Разведывательное отделение.", f"{t.id!r} is not a Reconnaissance team.")
    if t.recon_deployed:
        refuse("F-RECON-6", "Отделение уже совершило Передвижение Разведки.", "The team has already made its recon move.")
    if t.platoon != state.recon_platoon:
        pl = platoon(state, t.platoon)
        if pl.recon_deployed:
            refuse("F-RECON-13", "Этот взвод уже выбирали.", "This platoon has already been chosen.")
        if pl.side != state.recon_chooser:
            refuse("F-RECON-13", "Взвод выбирает другая сторона: выбирают по очереди.",
                   "The other side chooses a platoon now: the players take turns.")
    if p.at_the_double:
        refuse("F-RECON-11", "Передвижение Разведки не совершается С Удвоенной Скоростью.",
               "The recon deployment move may not be made At the Double.")
    if carries_non_recon(state, t):
        refuse("F-RECON-12", "С Пассажирами не из Разведки Передвижение Разведки невозможно.",
               "A team carrying non-Reconnaissance Passengers may not make the recon deployment move.")
    limit = movement(ctx, state, t)
    if p.distance > limit:
        ru, en = fmt(limit, state)
        refuse("F-RECON-6", f"Не дальше показателя Движения: {ru}.", f"No further than its Movement distance: {en}.")
    for c in p.enemies:
        _check_contact(state, ctx, t, c)


@recon_deployment_move.mutator
def _apply_recon_move(state: FowState, p: ReconDeploymentMove, ctx: Context) -> None:
    t = state.teams[p.team]
    if t.platoon != state.recon_platoon:  # F-RECON-13: a new platoon chosen; the other side chooses next
        pl = state.platoons[t.platoon]
        pl.recon_deployed = True
        state.recon_platoon = pl.id
        state.recon_chooser = other(pl.side) if _has_choice(state, other(pl.side)) else pl.side
    t.recon_deployed = True
    _refresh(state, t)


@recon_deployment_ended.check
def _check_recon_ended(state: FowState, p: ReconDeploymentEnded, ctx: Context) -> None:
    require_running(state)
    if state.recon_phase != "open":
        refuse("F-RECON-6", "Расстановка Разведки не идёт.", "There is no recon deployment going on.")


@recon_deployment_ended.mutator
def _apply_recon_ended(state: FowState, p: ReconDeploymentEnded, ctx: Context) -> None:
    state.recon_phase = "closed"
    state.recon_platoon = ""


def _not_during_recon_deployment(state: FowState, p: Any, ctx: Context) -> None:
    if state.recon_phase == "open":
        refuse("F-RECON-6", "Игра ещё не началась: сначала окончите Расстановку Разведки.",
               "The game has not started: end the recon deployment first.")


for _t in (team_moved, team_shot, assault_launched, turn_ended):
    _t.check(_not_during_recon_deployment)

OFF_TURN.update({"recon_deployment_move", "unarmoured_save_rolled", "passengers_changed", "ambush_placed"})


# --- Disengage, «Отходим!» (F-RECON-15..24) -------------------------------------------------
class DisengageDeclared(Payload):
    """The enemy platoon opens fire at a Reconnaissance platoon; before any
    to-hit roll its owner declares it will try to Disengage (F-RECON-16)."""

    platoon: Annotated[str, Meta(min_length=1, max_length=60)]
    shooters: Annotated[list[str], Meta(min_length=1, max_length=60, description="The enemy teams opening fire")]


class DisengageMove(Payload):
    team: Annotated[str, Meta(min_length=1, max_length=60)]
    distance: Annotated[float, Meta(ge=0, description="Distance moved")]
    further_away: Annotated[bool, Meta(description="Every part of the move took it further from the shooters")] = True
    at_the_double: Annotated[bool, Meta(description="Moved At the Double (F-DBL)")] = False


class Disengaged(Payload):
    """After the one shot of each shooter: the platoon's Skill test (F-RECON-18)
    and the Reconnaissance teams that Disengage (F-RECON-19..22)."""

    platoon: Annotated[str, Meta(min_length=1, max_length=60)]
    die: Annotated[D6, Meta(description="The Skill test")]
    moves: Annotated[list[DisengageMove], Meta(max_length=60)] = []
    out_of_reach: Annotated[bool, Meta(
        description="The whole platoon is now out of the enemy's Range, Line of Sight or Field of Fire")] = False


disengage_declared = REGISTRY.event_type("disengage_declared", DisengageDeclared,
                                         rules=("F-RECON-15", "F-RECON-16", "F-RECON-17"),
                                         title_ru="Отходим! (заявлено)", title_en="Disengage declared")
disengaged = REGISTRY.event_type("disengaged", Disengaged,
                                 rules=tuple(f"F-RECON-{n}" for n in range(18, 25)),
                                 title_ru="Отходим!", title_en="Disengage")
POLICY["disengage_declared"] = Recorder("actor", platoon_side("platoon"), "Сторона взвода разведки",
                                        "The recon platoon's side")
POLICY["disengaged"] = Recorder("actor", platoon_side("platoon"), "Сторона взвода разведки",
                                "The recon platoon's side")
OFF_TURN.update({"disengage_declared", "disengaged"})


def may_disengage(state: FowState, t: Team) -> bool:
    """F-RECON-15: a live Reconnaissance team that in its own previous turn did not move
    At the Double, shoot (an Artillery Bombardment and Anti-aircraft fire are shots too) or assault."""
    prev = last_own_ply(state, t.side)
    return t.recon and not t.destroyed and (prev < 0 or prev not in (t.double_ply, t.shot_ply, t.assault_ply))


def active_disengagement(state: FowState, target: Team) -> Disengagement | None:
    d = state.disengagements.get(target.platoon)
    return d if d is not None and d.ply == state.ply else None


@disengage_declared.check
def _check_declared(state: FowState, p: DisengageDeclared, ctx: Context) -> None:
    require_running(state)
    pl = platoon(state, p.platoon)
    if pl.side == state.side_to_move:
        refuse("F-RECON-15", "Отходят, когда по взводу стреляют во вражеский Шаг Стрельбы.",
               "Scouts Disengage when fired on in the enemy Shooting Step.")
    if len(set(p.shooters)) != len(p.shooters):
        refuse("S-DUPLICATE", "Стрелок назван дважды.", "A shooter is named twice.")
    for sid in p.shooters:
        s = team(state, sid)
        require_live(s)
        if s.side == pl.side:
            refuse("S-TARGET", f"{sid!r} — не вражеское отделение.", f"{sid!r} is not an enemy team.")
        if s.shot_ply == state.ply:
            refuse("F-RECON-16", f"{sid!r} уже стрелял: Отход заявляют до бросков на попадание.",
                   f"{sid!r} has already fired: Disengaging is declared before any to-hit rolls.")
    d = state.disengagements.get(pl.id)
    if d is not None and d.ply == state.ply:
        refuse("F-RECON-16", "Отход в этот Шаг Стрельбы уже заявлен.", "Disengaging is already declared this Shooting Step.")
    if not any(may_disengage(state, state.teams[t]) for t in pl.teams):
        refuse("F-RECON-15", "Ни одно Разведывательное отделение взвода не может Отойти: в свой прошлый ход оно "
                             "двигалось С Удвоенной Скоростью, стреляло или атаковало.",
               "No Reconnaissance team of the platoon may Disengage: in its last turn it moved At the Double, shot "
               "or assaulted.")


@disengage_declared.mutator
def _apply_declared(state: FowState, p: DisengageDeclared, ctx: Context) -> None:
    state.disengagements[p.platoon] = Disengagement(platoon=p.platoon, ply=state.ply, shooters=list(p.shooters))


@team_shot.check
def _check_shot_at_scouts(state: FowState, p: Any, ctx: Context) -> None:
    target = team(state, p.target)
    d = active_disengagement(state, target)
    if d is None or p.shooter not in d.shooters:
        return
    if d.stage == "declared" and team(state, p.shooter).shot_ply == state.ply:
        refuse("F-RECON-18", "Сначала взвод разведки проходит тест на Умение; затем — остальные выстрелы.",
               "The recon platoon takes its Skill test first; the remaining shots come after.")
    if d.stage == "resolved" and d.out_of_reach:
        refuse("F-RECON-24", "Взвод вышел из-под огня: оставшиеся выстрелы — автоматические промахи.",
               "The platoon got out of reach: the remaining shots miss automatically.")


def _disengage_dice(state: FowState, p: Any, shooter: Team, target: Team, n: int) -> tuple[int, str | None]:
    """F-RECON-17: one shot at the current position; F-RECON-23: then the rest."""
    d = active_disengagement(state, target)
    if d is None or shooter.id not in d.shooters:
        return n, None
    if d.stage == "declared":
        return 1, "F-RECON-17"
    return max(n - 1, 0), "F-RECON-23"


DICE_MODIFIERS.append(_disengage_dice)


@disengaged.check
def _check_disengaged(state: FowState, p: Disengaged, ctx: Context) -> None:
    require_running(state)
    pl = platoon(state, p.platoon)
    d = state.disengagements.get(pl.id)
    if d is None or d.ply != state.ply or d.stage != "declared":
        refuse("F-RECON-16", "Отход не заявлен в этот Шаг Стрельбы.", "No Disengage was declared this Shooting Step.")
    for sid in d.shooters:
        s = state.teams[sid]
        if not s.destroyed and s.shot_ply != state.ply:
            refuse("F-RECON-18", f"Сначала каждый стреляющий делает один выстрел ({sid!r} ещё нет).",
                   f"Each shooting team first fires its one shot ({sid!r} has not).")
    passed = passes(p.die, skill_min(ctx, pl))
    ids = [m.team for m in p.moves]
    if len(set(ids)) != len(ids):
        refuse("S-DUPLICATE", "Отделение названо дважды.", "A team is named twice.")
    if p.moves and not passed:
        refuse("F-RECON-22", "Тест на Умение провален: разведчики не Отходят и остаются на месте.",
               "The Skill test failed: the scouts may not Disengage and stay where they are.")
    for m in p.moves:
        t = team(state, m.team)
        if t.platoon != pl.id:
            refuse("S-UNKNOWN", f"Отделения {m.team!r} нет во взводе.", f"Team {m.team!r} is not in the platoon.")
        require_live(t)
        if not t.recon:
            refuse("F-RECON-21", "Не-Разведывательные отделения остаются на месте.",
                   "Non-Reconnaissance teams stay where they are.")
        if t.bogged or t.bailed_out:
            refuse("F-RECON-19", "Застрявшие и Покинутые отделения не Отходят.", "Bogged Down or Bailed Out teams do not Disengage.")
        if not may_disengage(state, t):
            refuse("F-RECON-15", f"{t.id!r} в свой прошлый ход двигался С Удвоенной Скоростью, стрелял или атаковал.",
                   f"{t.id!r} moved At the Double, shot or assaulted in its last turn.")
        if m.at_the_double:
            refuse("F-RECON-20", "При отходе нельзя двигаться С Удвоенной Скоростью.",
                   "A Disengaging team may not move At the Double.")
        limit = movement(ctx, state, t)
        if m.distance > limit:
            ru, en = fmt(limit, state)
            refuse("F-RECON-19", f"Отходят не дальше показателя Движения: {ru}.",
                   f"A Disengaging team moves at most its Movement distance: {en}.")
        if not m.further_away:
            refuse("F-RECON-19", "Любое движение при отходе должно отдалять от стреляющих.",
                   "Every part of the move must take it further from the shooting teams.")
    if p.out_of_reach:
        live = {t for t in pl.teams if not state.teams[t].destroyed}
        if not live <= set(ids):
            refuse("F-RECON-24", "Из-под огня вышел не весь взвод: оставшиеся на месте отделения под огнём.",
                   "Not the whole platoon got out of reach: the teams that stayed are still under fire.")


@disengaged.mutator
def _apply_disengaged(state: FowState, p: Disengaged, ctx: Context) -> None:
    pl = state.platoons[p.platoon]
    d = state.disengagements[pl.id]
    passed = passes(p.die, skill_min(ctx, pl))
    d.stage, d.passed, d.out_of_reach = "resolved", passed, p.out_of_reach
    d.moved = [m.team for m in p.moves]
    for tid in d.moved:
        t = state.teams[tid]
        t.disengage_ply = state.ply
        _refresh(state, t)
    state.tests.append(TestRecord(kind="skill", seq=ctx.seq, subject=pl.id, purpose="disengage",
                                  rolls=[p.die.value], passed=passed))


__all__ = ["active_disengagement", "carries_non_recon", "counts_as_gone_to_ground", "is_unarmoured_vehicle",
           "last_own_ply", "may_disengage", "recon_save", "spots_ambush", "vehicle_save"]
