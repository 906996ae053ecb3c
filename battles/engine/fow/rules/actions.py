"""What teams do in a turn: move, shoot, assault, go to ground. The core FoW
rules behind these (movement distances, Rate of Fire, Gone to Ground) are not
in the seeds (G-F1); the area modules hook their rules in here:

- a ``check`` on the event type (``team_moved.check(fn)``), run in import order;
- ``ON_MOVE`` / ``ON_ASSAULT``: effects run by the mutator after the common ones;
- ``ROF_MOVED``: reasons a shooter counts as having moved for Rate of Fire;
- ``DICE_MODIFIERS``: how many dice a shot rolls (e.g. doubled, F-DBL-10).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from msgspec import Meta

from battles.engine.dice import D6
from battles.engine.events import Context
from battles.engine.fow.registry import POLICY, REGISTRY, Recorder, team_side
from battles.engine.fow.state import FowState, Team
from battles.engine.schema import Payload

from .common import enter_step, fmt, movement, platoon, refuse, require_live, require_own_turn, require_step, team

Effect = Callable[[FowState, Any, Context], None]
ON_MOVE: list[Effect] = []
ON_ASSAULT: list[Effect] = []
ROF_MOVED: list[Callable[[FowState, Team], str | None]] = []
DICE_MODIFIERS: list[Callable[[FowState, Any, Team, Team, int], tuple[int, str | None]]] = []

TurnReason = Literal["difficult_terrain", "road", "enemy", "other"]
# What the table decided for a shot's target (G-F1: the core rules resolve hits).
ShotResult = Literal["miss", "saved", "bailed_out", "destroyed"]
VEHICLE_KINDS = ("tank", "vehicle", "train")  # what can be Bailed Out (G-F1: «Покидание техники»)


# --- team_moved ------------------------------------------------------------------------
class TeamMoved(Payload):
    """A team's move in its Movement Step, with the facts the table measured
    (distances in the battle's units)."""

    team: Annotated[str, Meta(min_length=1, max_length=60)]
    distance: Annotated[float, Meta(ge=0, description="Distance moved")]
    at_the_double: Annotated[bool, Meta(description="Moved At the Double (F-DBL)")] = False
    pivot_only: Annotated[bool, Meta(description="Only pivoted in place")] = False
    direct_route: Annotated[bool, Meta(description="Followed the most direct route possible")] = True
    turned_for: Annotated[list[TurnReason], Meta(
        max_length=10,
        description="Why it changed direction: difficult terrain, a road, the enemy, or other")] = []
    facing_travel: Annotated[bool, Meta(description="Ended facing the direction of movement")] = True
    difficult_terrain: Annotated[bool, Meta(description="Crossed Difficult Terrain")] = False
    closest_enemy: Annotated[float, Meta(ge=0, description="Closest it came to an enemy team")] | None = None
    bulletproof_cover: Annotated[bool, Meta(description="Ends in Bulletproof Cover terrain")] = False


team_moved = REGISTRY.event_type("team_moved", TeamMoved, rules=("G-F1", "F-DBL-1", "F-DBL-2", "F-DBL-3",
                                                                 "F-DBL-4", "F-DBL-5", "F-DBL-6", "F-DBL-7",
                                                                 "F-DBL-8", "F-DIG-1", "F-DIG-17"),
                                 title_ru="Движение", title_en="Team moved")
POLICY["team_moved"] = Recorder("actor", team_side("team"), "Сторона отделения", "The team's side")


@team_moved.check
def _check_moved(state: FowState, p: TeamMoved, ctx: Context) -> None:
    t = team(state, p.team)
    require_own_turn(state, t.side)
    require_live(t)
    require_step(state, "movement", "G-F1", "Движение", "A move")  # G-F1: teams move in the Movement Step


def _check_move_length(state: FowState, p: TeamMoved, ctx: Context) -> None:
    """A measure: registered after every area's checks (``register_measures``)."""
    t = team(state, p.team)
    if not p.at_the_double:
        limit = movement(ctx, state, t)
        if p.distance > limit:
            ru, en = fmt(limit, state)
            refuse("G-F1", f"Отделение двигается не дальше {ru}.", f"The team moves at most {en}.")


@team_moved.mutator
def _apply_moved(state: FowState, p: TeamMoved, ctx: Context) -> None:
    t = state.teams[p.team]
    t.moved_ply = state.ply
    if not p.pivot_only:
        t.gone_to_ground = False
        t.bulletproof_cover = p.bulletproof_cover
    for effect in ON_MOVE:
        effect(state, p, ctx)


# --- team_shot -----------------------------------------------------------------------
class TeamShot(Payload):
    """A team shoots at an enemy team: its dice (Rate of Fire, G-F1), doubled
    against a team that moved At the Double (F-DBL-10) unless an artillery
    bombardment or an air attack (F-DBL-11). Resolving hits is G-F1: the
    seeds give no to-hit numbers, saves or Firepower tests for shooting, so
    the table counts the hits and says what came of them (``hits``,
    ``result``, ``pinned``), and the engine applies what the table decided."""

    shooter: Annotated[str, Meta(min_length=1, max_length=60)]
    target: Annotated[str, Meta(min_length=1, max_length=60)]
    dice: Annotated[list[D6], Meta(min_length=1, max_length=40, description="The to-hit dice rolled")]
    kind: Annotated[Literal["direct", "artillery", "aircraft"], Meta(
        description="Direct fire, an artillery bombardment, or an air attack")] = "direct"
    distance: Annotated[float, Meta(ge=0, description="Range to the target (battle's units)")] | None = None
    hits: Annotated[int, Meta(
        ge=0, le=40,
        description="Hits, as the table counted them (the to-hit rolls are the core rules', G-F1)")] | None = None
    result: Annotated[ShotResult, Meta(
        description="What the table decided for the target (G-F1): missed, hit but saved, Bailed Out or Destroyed; empty: not told here")] | None = None
    pinned: Annotated[bool, Meta(description="The target's platoon is now Pinned Down (G-F1)")] = False


team_shot = REGISTRY.event_type("team_shot", TeamShot, rules=("G-F1", "F-DBL-8", "F-DBL-10", "F-DBL-11", "F-DIG-6"),
                                title_ru="Стрельба", title_en="Team shot")
POLICY["team_shot"] = Recorder("actor", team_side("shooter"), "Сторона стрелка", "The shooter's side")


def dice_expected(state: FowState, p: Any, shooter: Team, target: Team, rules: dict[str, Any]) -> tuple[int, str]:
    """(number of dice, the rule that set it)."""
    rule = "G-F1"
    moved = shooter.moved_ply == state.ply
    for reason in ROF_MOVED:
        if not moved and (why := reason(state, shooter)) is not None:
            moved, rule = True, why
    if moved:
        n = shooter.rof_moved if shooter.rof_moved is not None else int(rules["rof"]["moved"])
    else:
        n = shooter.rof if shooter.rof is not None else int(rules["rof"]["stationary"])
    for modify in DICE_MODIFIERS:
        n, why2 = modify(state, p, shooter, target, n)
        rule = why2 or rule
    return n, rule


@team_shot.check
def _check_shot(state: FowState, p: TeamShot, ctx: Context) -> None:
    shooter = team(state, p.shooter)
    target = team(state, p.target)
    require_own_turn(state, shooter.side)
    require_live(shooter)
    require_step(state, "shooting", "G-F1", "Стрельба", "Shooting")  # G-F1: teams shoot in the Shooting Step
    if target.side == shooter.side or target.destroyed:
        refuse("S-TARGET", "Цель — живое вражеское отделение.", "The target must be a live enemy team.")


def _check_shot_dice(state: FowState, p: TeamShot, ctx: Context) -> None:
    """A measure: registered after every area's checks (``register_measures``)."""
    shooter, target = team(state, p.shooter), team(state, p.target)
    n, rule = dice_expected(state, p, shooter, target, ctx.rules)
    if len(p.dice) != n:
        refuse(rule, f"Стрелок бросает {n} куб. (а не {len(p.dice)}).", f"The shooter rolls {n} dice (not {len(p.dice)}).")
    _check_result(p, target)


def _check_result(p: TeamShot, target: Team) -> None:
    """What the table decided must hang together (G-F1): no more hits than
    dice, no effect without a hit, Bailed Out only for a vehicle."""
    if p.hits is not None:
        if p.hits > len(p.dice):
            refuse("G-F1", f"Попаданий не больше, чем кубиков ({len(p.dice)}).",
                   f"No more hits than dice ({len(p.dice)}).")
        if p.result == "miss" and p.hits:
            refuse("G-F1", "Промах, а попаданий больше нуля.", "A miss with hits counted.")
        if p.result in ("saved", "bailed_out", "destroyed") and not p.hits:
            refuse("G-F1", "Без попадания цель не пострадала.", "With no hit the target came to no harm.")
    if p.result == "bailed_out" and target.kind not in VEHICLE_KINDS:
        refuse("G-F1", "Покинутой (Bailed Out) бывает только техника.", "Only a vehicle is Bailed Out.")


@team_shot.mutator
def _apply_shot(state: FowState, p: TeamShot, ctx: Context) -> None:
    enter_step(state, "shooting")  # the first shot begins the Shooting Step (G-F1)
    t = state.teams[p.shooter]
    t.shot_ply = state.ply
    t.gone_to_ground = False
    target = state.teams[p.target]
    if p.result == "destroyed":  # G-F1, as the table decided: what status_set's Destroyed does
        target.destroyed = True
        target.wreck = target.armoured
    elif p.result == "bailed_out":
        target.bailed_out = True
    if p.pinned and target.platoon in state.platoons:
        state.platoons[target.platoon].pinned = True


def register_measures() -> None:
    """Register the measures of an act (a move's length, G-F1; a shot's dice, G-F1, F-DBL-10/11,
    F-RECON-17/23, and what the table decided of it) after every area's checks: a rule that bars
    the act altogether (F-DBL-8, F-TRAIN-21/22, F-RECON-18/24...) is what its refusal names,
    whatever dice or distance were entered. ``rules/__init__`` calls it once every area is imported."""
    for entry, measure in ((team_moved, _check_move_length), (team_shot, _check_shot_dice)):
        if measure not in entry.checks:
            entry.check(measure)


# --- assault_launched -------------------------------------------------------------------
class AssaultLaunched(Payload):
    """Teams launch an assault (the assault rules themselves are G-F1)."""

    teams: Annotated[list[str], Meta(min_length=1, max_length=60)]
    against: Annotated[str, Meta(max_length=60, description="The enemy platoon assaulted")] = ""


assault_launched = REGISTRY.event_type("assault_launched", AssaultLaunched, rules=("G-F1", "F-DBL-8", "F-DIG-18"),
                                       title_ru="Атака в ближнем бою", title_en="Assault launched")
POLICY["assault_launched"] = Recorder("actor", team_side("teams"), "Сторона атакующих", "The assaulting side")


@assault_launched.check
def _check_assault(state: FowState, p: AssaultLaunched, ctx: Context) -> None:
    for tid in p.teams:
        t = team(state, tid)
        require_own_turn(state, t.side)
        require_live(t)
    if p.against:  # G-F1: the platoon assaulted is an enemy platoon (F-DIG-19 lets it, and only it, mark foxholes)
        target = platoon(state, p.against)
        if target.side == state.side_to_move:
            refuse("G-F1", f"Атакуют вражеский взвод, а {target.id!r} — свой.",
                   f"An assault is against an enemy platoon; {target.id!r} is your own.")


@assault_launched.mutator
def _apply_assault(state: FowState, p: AssaultLaunched, ctx: Context) -> None:
    enter_step(state, "assault")  # the first assault begins the Assault Step (G-F1)
    for tid in p.teams:
        t = state.teams[tid]
        t.assault_ply = state.ply
        t.moved_ply = state.ply
        t.gone_to_ground = False
    for effect in ON_ASSAULT:
        effect(state, p, ctx)


# --- went_to_ground -------------------------------------------------------------------
class WentToGround(Payload):
    """Teams Go to Ground (p. 90, G-F1): teams that neither moved nor shot this turn."""

    teams: Annotated[list[str], Meta(min_length=1, max_length=60)]


went_to_ground = REGISTRY.event_type("went_to_ground", WentToGround, rules=("G-F1", "F-DIG-16"),
                                     title_ru="Залегли", title_en="Gone to Ground")
POLICY["went_to_ground"] = Recorder("actor", team_side("teams"), "Сторона отделений", "The teams' side")


@went_to_ground.check
def _check_ground(state: FowState, p: WentToGround, ctx: Context) -> None:
    for tid in p.teams:
        t = team(state, tid)
        require_own_turn(state, t.side)
        require_live(t)
        # G-F1: teams that do not shoot Go to Ground in the Shooting Step, not after it
        require_step(state, "shooting", "G-F1", "Залечь", "Going to Ground")
        # Digging In is not moving here (F-DIG-6, F-DIG-16); the refusal names F-DIG-16 for a dug-in team.
        rule = "F-DIG-16" if (t.dug_in or t.dig_ply == state.ply) else "G-F1"
        if t.shot_ply == state.ply:
            refuse(rule, "Стрелявшее в этот ход отделение не может Залечь.", "A team that shot this turn cannot Go to Ground.")
        if t.moved_ply == state.ply:
            refuse("G-F1", "Двигавшееся в этот ход отделение не может Залечь.",
                   "A team that moved this turn cannot Go to Ground.")


@went_to_ground.mutator
def _apply_ground(state: FowState, p: WentToGround, ctx: Context) -> None:
    enter_step(state, "shooting")  # G-F1: the Shooting Step's choice, so the Movement Step is over
    for tid in p.teams:
        state.teams[tid].gone_to_ground = True
