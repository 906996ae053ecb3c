"""The Steps of a player turn: Movement, Shooting, Assault, in that order.

The seeds name the Steps (F-DIG-1 digs in the Movement Step, F-TRAIN-14 and
F-TRAIN-25 enter and leave a train in it, F-BLD-3 and F-BLD-9 speak of the
current Step, F-RECON-15 of the enemy Shooting Step, F-DIG-20 of the Assault
Step) but not their order nor what each holds: that is the core turn sequence
(G-F1). Reading (docs/events-fow.md): a side's turn goes Movement, Shooting,
Assault; a Step once left is not gone back to; each team moves once in its
Movement Step.

``FowState.step`` is the side to move's Step: ``turn_ended`` and
``battle_started`` put it at movement; the first act of a later Step begins
that Step (``common.enter_step`` in the act's mutator: a shot, a Go to Ground,
an air attack, an assault); ``step_ended`` ends the current Step explicitly
(a side that shoots nothing still leaves its Movement Step, and "the rest of
the Step", F-BLD-9, then ends). Every area's check refuses its act once a
later Step has begun (``common.require_step``, naming the clause that puts
the act in its Step); the rules here are the ones no single area owns: one
move per team, the end of the Movement Step once Tank Support Platoons have
left their train (F-TRAIN-25), and the enemy Shooting Step of a Disengage
(F-RECON-15). Checks run when an event is appended, never at replay, so a
log stored before the Steps existed folds as it did.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import Meta

from battles.engine.events import Context
from battles.engine.fow.registry import POLICY, REGISTRY, Recorder, named_side
from battles.engine.fow.state import FowState
from battles.engine.schema import Payload

from .actions import team_moved
from .common import STEP_WORDS, STEPS, platoon, refuse, require_own_turn, team
from .digging import dig_in_attempted
from .recon import disengage_declared
from .trains import train_entered, train_moved, train_of


# --- step_ended --------------------------------------------------------------------------
class StepEnded(Payload):
    """The side to move ends the current Step of its turn and the next one begins: the Movement Step
    gives way to the Shooting Step, the Shooting Step to the Assault Step (G-F1: the turn sequence)."""

    side: Annotated[Literal["attacker", "defender"], Meta(description="The side whose Step ends")]
    step: Annotated[Literal["movement", "shooting"], Meta(
        description="The Step that ends: movement (then shooting) or shooting (then assault)")]


step_ended = REGISTRY.event_type("step_ended", StepEnded, rules=("G-F1", "F-BLD-9", "F-TRAIN-25"),
                                 title_ru="Шаг окончен", title_en="Step ended")
POLICY["step_ended"] = Recorder("actor", named_side, "Сторона, чей Шаг кончается", "The side whose Step ends")


@step_ended.check
def _check_step_ended(state: FowState, p: StepEnded, ctx: Context) -> None:
    require_own_turn(state, p.side)
    if p.step != state.step:  # G-F1: the Steps end in order, the current one first
        now_ru, now_en = STEP_WORDS[state.step]
        refuse("G-F1", f"Сейчас идёт {now_ru}: оканчивают его, а не {STEP_WORDS[p.step][0]}.",
               f"It is the {now_en} now: that is the Step to end, not the {STEP_WORDS[p.step][1]}.")


@step_ended.mutator
def _apply_step_ended(state: FowState, p: StepEnded, ctx: Context) -> None:
    state.step = STEPS[STEPS.index(p.step) + 1]


# --- one move per team in its Movement Step ------------------------------------------------
def _check_one_move(state: FowState, p: Any, ctx: Context) -> None:
    """G-F1 (reading): a team moves once in its Movement Step, so "the start of its move" (F-BLD-8) is
    where it stood when the Step began and a move is not recorded in parts (6" to a door, then 6" in).
    Registered after every area's checks: a rule that bars the move by name (F-DBL-8 after At the Double,
    F-BLD-10 stopped at an Opening, F-DIG-1 dug in instead, F-TRAIN-25 still aboard) is the one cited."""
    t = team(state, p.team)
    if t.moved_ply == state.ply:
        refuse("G-F1", f"Отделение {t.id!r} уже двигалось в этом Шаге Движения: за Шаг отделение двигается один раз.",
               f"Team {t.id!r} has already moved this Movement Step: a team moves once in the Step.")


team_moved.check(_check_one_move)  # building_move runs every team_moved check too


# --- the end of the Movement Step (F-TRAIN-25) -----------------------------------------------
def movement_over(state: FowState, side: str) -> bool:
    """F-TRAIN-25: Tank Support Platoons leave their train at the end of the Movement Step; once one
    has left this turn, the side's Movement Step is at its end (more platoons may still leave)."""
    return any(tr.side == side and tr.escort_left_ply == state.ply for tr in state.trains.values())


def _require_movement_open(state: FowState, side: str) -> None:
    if movement_over(state, side):
        refuse("F-TRAIN-25", "Танковые Взводы Поддержки сошли с поезда в конце Шага Движения: Шаг Движения окончен.",
               "Tank Support Platoons have left the train at the end of the Movement Step: the Step is over.")


@team_moved.check
def _check_move_open(state: FowState, p: Any, ctx: Context) -> None:
    _require_movement_open(state, team(state, p.team).side)


@dig_in_attempted.check
def _check_dig_open(state: FowState, p: Any, ctx: Context) -> None:
    _require_movement_open(state, platoon(state, p.platoon).side)


@train_entered.check
def _check_entry_open(state: FowState, p: Any, ctx: Context) -> None:
    _require_movement_open(state, train_of(state, p.train).side)


@train_moved.check
def _check_train_open(state: FowState, p: Any, ctx: Context) -> None:
    _require_movement_open(state, train_of(state, p.train).side)


# --- a Disengage is in the enemy's Shooting Step (F-RECON-15) ----------------------------------
@disengage_declared.check
def _check_disengage_step(state: FowState, p: Any, ctx: Context) -> None:
    if state.step == "assault":
        refuse("F-RECON-15", "Отходят, когда по взводу стреляют во вражеский Шаг Стрельбы, а идёт Шаг Ближнего Боя.",
               "Scouts Disengage when fired on in the enemy Shooting Step, and this is the Assault Step.")


__all__ = ["movement_over", "step_ended"]
