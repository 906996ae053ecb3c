"""Deploying an armoured train (seed 000, rulebook p. 206; catalog F-TRAIN-14..18).

Before the game the train's player says how the train arrives: Deployed, or
held in Reserve (``train_held_back``, F-TRAIN-18; never in Ambush, F-TRAIN-17).
``train_deployed`` declares it Deployed, not in Reserve: it stays off the
table until the start of its first Movement Step, when it enters (F-TRAIN-14,
then F-TRAIN-15 and F-TRAIN-16 on ``train_entered``). Once declared, the
train is not held in Reserve as well, enters before any other team of its side
has acted in that turn, and its side cannot end that turn with it still off
the table while its line is laid.

A train that was never declared keeps the reading of older logs: it is taken
as Deployed when it enters in its first turn, and nothing more is enforced.
"""
from __future__ import annotations

from typing import Annotated, Any

from msgspec import Meta

from battles.engine.events import Context
from battles.engine.fow.registry import OFF_TURN, POLICY, REGISTRY, Recorder, platoon_side
from battles.engine.fow.state import ArmouredTrain, FowState
from battles.engine.schema import Payload

from .common import refuse
from .core import turn_ended
from .trains import train_entered, train_held_back, train_of


def _first_ply(state: FowState, side: str) -> int:
    return 0 if side == state.first_mover else 1


class TrainDeployed(Payload):
    """Before the game: the train's player declares the train Deployed, not in Reserve; it enters
    the table at the start of its first Movement Step."""

    train: Annotated[str, Meta(min_length=1, max_length=60)]


train_deployed = REGISTRY.event_type("train_deployed", TrainDeployed, rules=("F-TRAIN-14", "F-TRAIN-18"),
                                     title_ru="Бронепоезд Расставлен (не в Резерве)",
                                     title_en="Armoured train Deployed (not in Reserve)")
POLICY["train_deployed"] = Recorder("actor", platoon_side("train"), "Сторона бронепоезда", "The train's side")
OFF_TURN.add("train_deployed")


@train_deployed.check
def _check_deployed(state: FowState, p: TrainDeployed, ctx: Context) -> None:
    if state.status == "ended":
        refuse("S-ENDED", "Бой окончен.", "The battle is over.")
    tr = train_of(state, p.train)
    if state.ply > 0 or tr.where != "off_table":
        refuse("F-TRAIN-14", "Расстановку бронепоезда объявляют до начала игры, пока он вне стола.",
               "A train is declared Deployed before the game begins, while it is off the table.")
    if tr.reserve:
        refuse("F-TRAIN-18", "Бронепоезд уже оставлен в Резерве: он либо Расставлен, либо в Резерве.",
               "The train is already held in Reserve: it is either Deployed or in Reserve.")
    if tr.deployed:
        refuse("F-TRAIN-14", "Бронепоезд уже объявлен Расставленным.", "The train is already declared Deployed.")


@train_deployed.mutator
def _apply_deployed(state: FowState, p: TrainDeployed, ctx: Context) -> None:
    state.trains[p.train].deployed = True  # F-TRAIN-14


@train_held_back.check
def _check_held_after_deployed(state: FowState, p: Any, ctx: Context) -> None:
    tr = state.trains[p.train]
    if tr.deployed:
        refuse("F-TRAIN-14", "Бронепоезд объявлен Расставленным: он въезжает в первый Шаг Движения, не из Резерва.",
               "The train is declared Deployed: it enters in its first Movement Step, not from Reserve.")


def _acted(state: FowState, tr: ArmouredTrain) -> str | None:
    """A team of the train's side, not of the train or its escorts, that has acted this turn."""
    own = {tr.id, *tr.escorts}
    for t in state.teams.values():
        if t.side == tr.side and t.platoon not in own and state.ply in (
                t.moved_ply, t.shot_ply, t.assault_ply, t.dig_ply):
            return t.id
    return None


@train_entered.check
def _check_enters_first(state: FowState, p: Any, ctx: Context) -> None:
    tr = state.trains[p.train]
    first = _acted(state, tr) if tr.deployed else None
    if first is not None:
        # F-TRAIN-14: a Deployed train enters at the start of its first Movement Step
        refuse("F-TRAIN-14", f"Расставленный бронепоезд въезжает в начале своего первого Шага Движения, "
                             f"а {first!r} уже действовало в этот ход.",
               f"A Deployed train enters at the start of its first Movement Step, and {first!r} has already "
               "acted this turn.")


@turn_ended.check
def _check_deployed_entered(state: FowState, p: Any, ctx: Context) -> None:
    for tr in state.trains.values():
        line = state.railway_lines.get(tr.side)
        if (tr.deployed and tr.side == p.side and tr.where == "off_table" and state.ply == _first_ply(state, tr.side)
                and line is not None and line.laid):
            refuse("F-TRAIN-14", "Расставленный бронепоезд въезжает на стол в свой первый Шаг Движения: "
                                 "сначала запишите его въезд.",
                   "A Deployed train enters the table in its first Movement Step: record its entry first.")


__all__ = ["train_deployed"]
