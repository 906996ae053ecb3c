"""Which mine an event names (V-MINE-14: no oracle for the enemy's hidden mines).

A side names its mines as it likes, and cannot know the names of the enemy's
hidden ones. So a sapper may lay a mine under the name of an enemy mine his
side has not been shown (V-SAP-3): refusing it would tell him that mine is
there. Both then stand under one name: the first under its name as the key of
``BattleState.mines``, the later one under a key of its own (``new_key``), its
``Mine.id`` still the name it was laid under. Every event names a mine by its
name (or, for the game master, who sees the keys, by its key), and each event
type says whose mine it means when two share the name (``mine_for``), from
pieces its payload names, never from who records it. A side's reads show its
mines under their names (``visibility.state_for``).

Pure: the engine's checks, mutators and recorder policy (``actors``) all
resolve through here, so they agree on the mine.
"""
from __future__ import annotations

from typing import Any

from .state import BattleState, Mine


def named(state: BattleState, name: str) -> list[Mine]:
    """The mines and charges called ``name`` (by name, or by key), in the order they were laid."""
    return [m for k, m in state.mines.items() if m.id == name or k == name]


def new_key(state: BattleState, name: str) -> str:
    """The key of a mine laid under ``name``: the name itself, unless a mine of the
    other side's already holds it."""
    key = name
    while key in state.mines:
        key += "~"
    return key


def known_to(mine: Mine, side: str | None) -> bool:
    """V-MINE-14: a side knows its own mines and the enemy's it has been shown."""
    return mine.side == side or mine.revealed


def _side_of(state: BattleState, piece: str | None) -> str | None:
    if piece is None:
        return None
    f = state.fighters.get(piece)
    if f is not None:
        return f.side
    v = state.vehicles.get(piece)
    return v.side if v is not None else None


def _pick(found: list[Mine], owner: str | None, *, enemy: bool = False) -> Mine | None:
    """Of the mines of one name, the one of side ``owner`` (with ``enemy``: of the
    side that is not ``owner``), else the first laid."""
    if owner is not None:
        for m in found:
            if (m.side != owner) if enemy else (m.side == owner):
                return m
    return found[0] if found else None


def mine_for(state: BattleState, type_name: str, p: Any) -> Mine | None:
    """The mine an owner's event means, ``None`` when none bears its name:
    ``charge_detonated`` the charge of its sapper's side (V-MINE-10);
    ``mine_revealed`` the mine of the enemy of the sapper who found it
    (V-MINE-14); ``mine_triggered`` the mine of the enemy of whoever set it off
    (V-MINE-2: its vehicle, or its first victim)."""
    if type_name == "charge_detonated":
        return _pick(named(state, p.charge), _side_of(state, p.sapper))
    if type_name == "mine_revealed":
        return _pick(named(state, p.mine), _side_of(state, p.sapper), enemy=True)
    mover = p.vehicle if p.vehicle is not None else (p.victims[0].fighter if p.victims else None)
    return _pick(named(state, p.mine), _side_of(state, mover), enemy=True)


def worked_on(state: BattleState, name: str, side: str) -> Mine | None:
    """The mine a sapper of ``side`` removes (V-SAP-3): one his side knows of
    (its own, or an enemy's it was shown; the enemy's first), ``None`` when
    his side knows of none by that name, whether or not one is there."""
    found = [m for m in named(state, name) if known_to(m, side)]
    return _pick(found, side, enemy=True)


__all__ = ["known_to", "mine_for", "named", "new_key", "worked_on"]
