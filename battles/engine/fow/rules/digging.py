"""Digging In (seed 001, rulebook p. 52; catalog F-DIG).

Instead of moving (F-DIG-1), even Pinned Down (F-DIG-2), a platoon takes a
Skill test (F-DIG-3): passed, its Infantry and Gun teams are Dug In (F-DIG-4);
failed, they are not (F-DIG-5). Either way the diggers count as moved for Rate
of Fire only (F-DIG-6). Every Infantry and Gun team not already in Bulletproof
Cover digs (F-DIG-7); teams in cover, Cavalry and vehicles act normally
(F-DIG-8), and so do teams in water, on bridges or fords (F-DIG-11). A Pioneer
Supply vehicle within 2"/5 cm of the Command team (or of an Independent team)
allows re-rolling a failed test (F-DIG-10): in the same event, or as its own
event ``dig_in_rerolled`` after the failed attempt is recorded (service-rolled
dice: the table sees the first die before asking for the second). Dug In teams are Concealed and in
Bulletproof Cover by team and gun type (F-DIG-12, -14, -15); a failed attempt
still leaves infantry and man-packed guns Concealed (F-DIG-13); they may Go to
Ground if they did not shoot (F-DIG-16). Moving other than pivoting (F-DIG-17)
or assaulting (F-DIG-18) ends Dug In, except for the teams that end an
assault on the platoon's marked foxholes (F-DIG-19..23).
"""
from __future__ import annotations

from typing import Annotated, Any

from msgspec import Meta

from battles.engine.dice import D6
from battles.engine.events import Context
from battles.engine.fow.registry import OFF_TURN, POLICY, REGISTRY, Recorder, platoon_side
from battles.engine.fow.state import FowState, Team, TestRecord
from battles.engine.schema import Payload

from .actions import ON_ASSAULT, ON_MOVE, ROF_MOVED, team_moved
from .common import (
    distance,
    fmt,
    passes,
    platoon,
    refuse,
    require_own_turn,
    require_running,
    require_step,
    skill_min,
    team,
)


def must_dig(t: Team) -> bool:
    """Infantry and Gun teams dig (F-DIG-4, F-DIG-7); Cavalry and vehicles need not (F-DIG-8)."""
    return t.kind in ("infantry", "gun") and not t.cavalry and not t.destroyed


def dug_in_concealed(t: Team) -> bool:
    """Dug In and Concealed: infantry and man-packed guns (F-DIG-12), light and
    medium guns but not AA (F-DIG-14); heavy, immobile and AA guns are not
    (F-DIG-15). A gun without a size counts as medium (G-F1: game data)."""
    if t.kind == "infantry" or t.gun_size == "man_packed":
        return True
    return t.gun_size in ("light", "medium", "") and not t.anti_aircraft


def _dig_in(t: Team) -> None:
    t.dug_in = True
    t.bulletproof_cover = True  # F-DIG-12, F-DIG-14, F-DIG-15: every Dug In infantry or gun team
    t.concealed = dug_in_concealed(t)


# --- dig_in_attempted ------------------------------------------------------------------
class DigInAttempted(Payload):
    """A platoon uses its Movement Step to Dig In: the Skill test, its re-roll
    with a Pioneer Supply vehicle near, and which teams cannot or need not dig."""

    platoon: Annotated[str, Meta(min_length=1, max_length=60)]
    die: Annotated[D6, Meta(description="The Skill test")]
    reroll: Annotated[D6 | None, Meta(description="Re-roll of a failed test (Pioneer Supply, F-DIG-10)")] = None
    pioneer_supply_distance: Annotated[float, Meta(
        ge=0, description="Command team (or Independent team) to the nearest Pioneer Supply vehicle")] | None = None
    in_water: Annotated[list[str], Meta(
        max_length=60,
        description="Teams in water terrain or on a bridge or ford (they cannot dig)")] = []
    in_cover: Annotated[list[str], Meta(
        max_length=60,
        description="Teams already in Bulletproof Cover (they need not dig)")] = []


dig_in_attempted = REGISTRY.event_type(
    "dig_in_attempted", DigInAttempted,
    rules=tuple(f"F-DIG-{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15)),
    title_ru="Попытка Окопаться", title_en="Dig In attempt")
POLICY["dig_in_attempted"] = Recorder("actor", platoon_side("platoon"), "Сторона взвода", "The platoon's side")


def _diggers(state: FowState, pl: Any, p: DigInAttempted) -> list[Team]:
    out = []
    for tid in pl.teams:
        t = state.teams[tid]
        if not must_dig(t):
            continue  # F-DIG-8
        if tid in p.in_water:
            continue  # F-DIG-11
        if t.bulletproof_cover and not t.dug_in or tid in p.in_cover:
            continue  # F-DIG-7, F-DIG-8: already in Bulletproof Cover
        out.append(t)
    return out


@dig_in_attempted.check
def _check_dig(state: FowState, p: DigInAttempted, ctx: Context) -> None:
    pl = platoon(state, p.platoon)
    require_own_turn(state, pl.side)  # F-DIG-2: a Pinned Down platoon may still dig
    # F-DIG-1: it uses its Movement Step to dig, so not once its side has shot (where F-DIG-6's moved ROF would
    # no longer bite) or assaulted
    require_step(state, "movement", "F-DIG-1", "Окапываются", "Digging In")
    for tid in (*p.in_water, *p.in_cover):
        if tid not in pl.teams:
            refuse("S-UNKNOWN", f"Отделения {tid!r} нет во взводе.", f"Team {tid!r} is not in the platoon.")
    if pl.dig_ply == state.ply:
        refuse("F-DIG-1", "Взвод уже пытался Окопаться в этот Шаг Движения.",
               "The platoon has already tried to Dig In this Movement Step.")
    diggers = _diggers(state, pl, p)
    if not diggers:
        refuse("F-DIG-7", "Во взводе нет Пехотных и Орудийных отделений, которые могут Окопаться.",
               "The platoon has no Infantry or Gun team that can Dig In.")
    for t in diggers:
        if t.moved_ply == state.ply:
            refuse("F-DIG-1", f"Отделение {t.id!r} уже двигалось: Окапываются вместо движения.",
                   f"Team {t.id!r} has already moved: a platoon Digs In instead of moving.")
    if p.reroll is not None:
        if passes(p.die, skill_min(ctx, pl)):
            refuse("F-DIG-10", "Перебрасывают только неудавшийся тест.", "Only a failed test may be re-rolled.")
        _check_supply(state, pl, p.pioneer_supply_distance, ctx)


def _check_supply(state: FowState, pl: Any, near_by: float | None, ctx: Context) -> None:
    """F-DIG-10: a live Pioneer Supply vehicle of the side within 2"/5 cm of the Command (or Independent) team."""
    near = distance(ctx, state, "pioneer_supply_distance")
    supply = any(t.pioneer_supply and t.side == pl.side and not t.destroyed for t in state.teams.values())
    if not supply or near_by is None or near_by > near:
        ru, en = fmt(near, state)
        refuse("F-DIG-10", f"Переброс — только с Сапёрной техникой Снабжения в пределах {ru}.",
               f"A re-roll needs a Pioneer Supply vehicle within {en}.")


@dig_in_attempted.mutator
def _apply_dig(state: FowState, p: DigInAttempted, ctx: Context) -> None:
    pl = state.platoons[p.platoon]
    need = skill_min(ctx, pl)
    passed = passes(p.die, need) or (p.reroll is not None and passes(p.reroll, need))  # F-DIG-3, F-DIG-10
    for tid in p.in_cover:
        state.teams[tid].bulletproof_cover = True
    for t in _diggers(state, pl, p):
        t.dig_ply = state.ply  # F-DIG-6
        if passed:
            _dig_in(t)  # F-DIG-4
        elif t.kind == "infantry" or t.gun_size == "man_packed":
            t.concealed = True  # F-DIG-5, F-DIG-13: not Dug In, but Concealed in the Open
    pl.dig_ply = state.ply
    pl.dig_failed_ply = -1 if passed else state.ply
    if p.reroll is not None:
        pl.dig_rerolled_ply = state.ply
    rolls = [p.die.value] + ([p.reroll.value] if p.reroll is not None else [])
    state.tests.append(TestRecord(kind="skill", seq=ctx.seq, subject=pl.id, purpose="dig_in", rolls=rolls,
                                  passed=passed))


# --- dig_in_rerolled (F-DIG-10 as its own event) ---------------------------------------------
class DigInRerolled(Payload):
    """The re-roll of a failed Dig In Skill test with a Pioneer Supply vehicle near, recorded after
    the failed attempt (F-DIG-10): passed, the teams that tried to dig are Dug In (F-DIG-4)."""

    platoon: Annotated[str, Meta(min_length=1, max_length=60)]
    die: Annotated[D6, Meta(description="The re-rolled Skill test")]
    pioneer_supply_distance: Annotated[float, Meta(
        ge=0, description="Command team (or Independent team) to the nearest Pioneer Supply vehicle")]


dig_in_rerolled = REGISTRY.event_type(
    "dig_in_rerolled", DigInRerolled, rules=("F-DIG-10", "F-DIG-4", "F-DIG-12", "F-DIG-13", "F-DIG-14", "F-DIG-15"),
    title_ru="Переброс теста на Окапывание", title_en="Dig In test re-rolled")
POLICY["dig_in_rerolled"] = Recorder("actor", platoon_side("platoon"), "Сторона взвода", "The platoon's side")


@dig_in_rerolled.check
def _check_reroll(state: FowState, p: DigInRerolled, ctx: Context) -> None:
    pl = platoon(state, p.platoon)
    require_own_turn(state, pl.side)
    if pl.dig_ply != state.ply:
        refuse("F-DIG-10", "Взвод не пытался Окопаться в этот ход: перебрасывать нечего.",
               "The platoon has not tried to Dig In this turn: there is nothing to re-roll.")
    if pl.dig_failed_ply != state.ply:
        refuse("F-DIG-10", "Перебрасывают только неудавшийся тест.", "Only a failed test may be re-rolled.")
    if pl.dig_rerolled_ply == state.ply:
        refuse("F-DIG-10", "Тест уже перебрасывали: переброс не перебрасывают.",
               "The test was already re-rolled: a re-roll is not re-rolled.")
    # F-DIG-1: the re-roll is part of the attempt, in the Movement Step; once the side has shot it is over
    require_step(state, "movement", "F-DIG-1", "Переброс теста на Окапывание", "The Dig In re-roll")
    _check_supply(state, pl, p.pioneer_supply_distance, ctx)


@dig_in_rerolled.mutator
def _apply_reroll(state: FowState, p: DigInRerolled, ctx: Context) -> None:
    pl = state.platoons[p.platoon]
    passed = passes(p.die, skill_min(ctx, pl))  # F-DIG-10: the re-roll decides
    for tid in pl.teams:
        t = state.teams[tid]
        if passed and t.dig_ply == state.ply and not t.destroyed:
            _dig_in(t)  # F-DIG-4, F-DIG-12, F-DIG-14, F-DIG-15; failed, they stay Concealed (F-DIG-13)
    pl.dig_rerolled_ply = state.ply
    pl.dig_failed_ply = -1 if passed else state.ply
    state.tests.append(TestRecord(kind="skill", seq=ctx.seq, subject=pl.id, purpose="dig_in_reroll",
                                  rolls=[p.die.value], passed=passed))


@team_moved.check
def _check_move_after_dig(state: FowState, p: Any, ctx: Context) -> None:
    t = team(state, p.team)
    if t.dig_ply == state.ply:
        refuse("F-DIG-1", "Взвод Окапывался вместо движения в этот ход.", "The platoon dug in instead of moving this turn.")


def _rof_moved(state: FowState, t: Team) -> str | None:
    return "F-DIG-6" if t.dig_ply == state.ply else None


ROF_MOVED.append(_rof_moved)


def _leave_foxhole(t: Team) -> None:
    if t.dug_in:
        t.dug_in = False
        t.concealed = False


def _on_move(state: FowState, p: Any, ctx: Context) -> None:
    t = state.teams[p.team]
    if not p.pivot_only:  # F-DIG-17
        _leave_foxhole(t)
        if t.dig_ply != state.ply:
            t.concealed = False


ON_MOVE.append(_on_move)


def _on_assault(state: FowState, p: Any, ctx: Context) -> None:
    for tid in p.teams:  # F-DIG-18
        _leave_foxhole(state.teams[tid])
    target = state.platoons.get(p.against)
    if target is not None:  # F-DIG-19: the platoon assaulted is this Assault Step's defending platoon
        target.assaulted_ply = state.ply


ON_ASSAULT.append(_on_assault)


# --- foxholes_marked / foxholes_reoccupied (assault exception) ------------------------------
class FoxholesMarked(Payload):
    """Before its Counterattack, the defending platoon (one an assault of this Assault Step names as the
    platoon assaulted) marks its Dug In teams' positions (F-DIG-19)."""

    platoon: Annotated[str, Meta(min_length=1, max_length=60)]


foxholes_marked = REGISTRY.event_type("foxholes_marked", FoxholesMarked, rules=("F-DIG-19",),
                                      title_ru="Позиции окопов помечены", title_en="Foxholes marked")
POLICY["foxholes_marked"] = Recorder("actor", platoon_side("platoon"), "Сторона обороняющегося взвода",
                                     "The defending platoon's side")


@foxholes_marked.check
def _check_marked(state: FowState, p: FoxholesMarked, ctx: Context) -> None:
    require_running(state)
    pl = platoon(state, p.platoon)
    if state.step != "assault":  # F-DIG-19: during an assault, i.e. the enemy's Assault Step
        refuse("F-DIG-19", "Позиции окопов помечают во время ближнего боя: Шаг Ближнего Боя ещё не начался.",
               "Foxholes are marked during an assault: the Assault Step has not begun.")
    if not any(state.teams[t].dug_in for t in pl.teams):
        refuse("F-DIG-19", "У взвода нет Окопанных отделений.", "The platoon has no Dug In teams.")
    if pl.assaulted_ply != state.ply:  # F-DIG-19: «обороняющегося взвода», not the assaulting side's
        refuse("F-DIG-19", f"Позиции окопов помечает обороняющийся взвод, а {pl.id!r} не атакован в этом Шаге "
               "Ближнего Боя (атака записывается с атакуемым взводом).",
               f"Foxholes are marked by the defending platoon, and {pl.id!r} has not been assaulted this "
               "Assault Step (an assault is recorded with the platoon it assaults).")


@foxholes_marked.mutator
def _apply_marked(state: FowState, p: FoxholesMarked, ctx: Context) -> None:
    pl = state.platoons[p.platoon]
    pl.foxholes = sum(1 for t in pl.teams if state.teams[t].dug_in)


class FoxholesReoccupied(Payload):
    """At the end of the Assault Step: the platoon's teams that ended on one of
    its marked positions (any of its own foxholes, F-DIG-23) are Dug In again
    (F-DIG-20); every other team of the platoon is not (F-DIG-21)."""

    platoon: Annotated[str, Meta(min_length=1, max_length=60)]
    teams: Annotated[list[str], Meta(
        max_length=60, description="Teams that ended on a marked position")] = []


foxholes_reoccupied = REGISTRY.event_type("foxholes_reoccupied", FoxholesReoccupied,
                                          rules=("F-DIG-20", "F-DIG-21", "F-DIG-23"),
                                          title_ru="Окопы снова заняты", title_en="Foxholes reoccupied")
OFF_TURN.update({"foxholes_marked", "foxholes_reoccupied"})  # the defender, in the assaulting side's turn
POLICY["foxholes_reoccupied"] = Recorder("actor", platoon_side("platoon"), "Сторона обороняющегося взвода",
                                         "The defending platoon's side")


@foxholes_reoccupied.check
def _check_reoccupied(state: FowState, p: FoxholesReoccupied, ctx: Context) -> None:
    require_running(state)
    pl = platoon(state, p.platoon)
    if state.step != "assault":  # F-DIG-20: at the end of the Assault Step
        refuse("F-DIG-20", "Окопы снова занимают в конце Шага Ближнего Боя, а он ещё не начался.",
               "Foxholes are reoccupied at the end of the Assault Step, which has not begun.")
    if pl.foxholes == 0:
        refuse("F-DIG-19", "Позиции окопов взвода не помечены.", "The platoon's foxholes were not marked.")
    for tid in p.teams:
        team(state, tid)
        if tid not in pl.teams:
            refuse("F-DIG-23", f"Отделение {tid!r} может занять только окоп своего взвода.",
                   f"Team {tid!r} may only take a foxhole dug by its own platoon.")
    if len(set(p.teams)) != len(p.teams) or len(p.teams) > pl.foxholes:
        refuse("F-DIG-21", f"Незанятых помеченных позиций {pl.foxholes}: каждое отделение занимает свою.",
               f"There are {pl.foxholes} marked positions: one team to each.")


@foxholes_reoccupied.mutator
def _apply_reoccupied(state: FowState, p: FoxholesReoccupied, ctx: Context) -> None:
    pl = state.platoons[p.platoon]
    for tid in pl.teams:
        t = state.teams[tid]
        if tid in p.teams and not t.destroyed:
            _dig_in(t)  # F-DIG-20
        else:
            _leave_foxhole(t)  # F-DIG-21
    pl.foxholes = 0  # F-DIG-22: the markers left are removed
