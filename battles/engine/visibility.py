"""Hidden information: what each reader of a battle may know.

Mines and demolition charges are laid in secret (V-MINE-1, V-SAP-3): the side
that laid one knows it; the enemy learns of it only when his sapper comes
within 6" and its owner must show it (V-MINE-13, V-MINE-14), or when it goes
off (``mine_triggered``/``charge_detonated`` are told to everyone). The game
master knows everything; an onlooker (``side=None``) knows what both sides
know. Every read of a battle (the page, the live fragments, the API's state,
events and feed) passes through this module, so nothing leaks by one door
that another keeps shut.

Pure functions over the JSON forms the projection and the log store; they
never change their input. Where the state cannot tell (a projection behind
the log) they fail closed: the thing stays hidden.
"""
from __future__ import annotations

from typing import Any

REDACTED = "redacted"


def mine_known(mine: dict[str, Any] | None, side: str | None, *, game_master: bool) -> bool:
    """May this reader know of this mine or charge? (V-MINE-14)."""
    if game_master:
        return True
    if mine is None:
        return False
    return bool(mine.get("revealed")) or (side is not None and mine.get("side") == side)


def _object_known(state: dict[str, Any], object_id: str, owner_side: str | None, side: str | None,
                  *, game_master: bool) -> bool:
    """A sapper's object: wire is in plain sight; a mine or charge follows
    ``mine_known``; a spot where no mine is yet (one is about to be laid) is
    known to the sapper's own side only."""
    if game_master:
        return True
    if object_id in (state.get("wire") or {}):
        return True
    mines = state.get("mines") or {}
    found = [m for k, m in mines.items() if m.get("id", k) == object_id or k == object_id]
    if found:  # (two of one name, ``battles.engine.mines``: the sapper's own side's, as the engine reads his lay)
        return mine_known(next((m for m in found if m.get("side") == owner_side), found[0]), side, game_master=False)
    return side is not None and owner_side == side


def state_for(state: dict[str, Any], side: str | None, *, game_master: bool) -> dict[str, Any]:
    """The battle state as this reader may see it: the enemy's unrevealed
    mines and charges removed, and no enemy sapper's secret target shown."""
    if game_master:
        return state
    out = dict(state)
    known = {k: m for k, m in (state.get("mines") or {}).items() if mine_known(m, side, game_master=False)}
    # Each under its name, not its key: a mine laid under the name of an enemy one this reader was never
    # shown has a key of its own (``battles.engine.mines``), which would tell him the other is there.
    names = [m.get("id", k) for k, m in known.items()]
    out["mines"] = {(m.get("id", k) if names.count(m.get("id", k)) == 1 else k): m for k, m in known.items()}
    fighters = state.get("fighters") or {}
    hidden = {fid for fid, f in fighters.items()
              if f.get("sapper_object")
              and not _object_known(state, f["sapper_object"], f.get("side"), side, game_master=False)}
    if hidden:
        out["fighters"] = {fid: ({**f, "sapper_object": ""} if fid in hidden else f) for fid, f in fighters.items()}
    return out


def event_for(type_: str, data: dict[str, Any], *, side: str | None, game_master: bool,
              state: dict[str, Any]) -> dict[str, Any]:
    """An event's payload as this reader may see it. A sapper laying or
    lifting a mine the reader may not know of, or going to a spot where one
    will be laid, reads as a sapper at work: the payload keeps only the
    sapper (and his distance) and gains ``"redacted": true``. A side always
    sees its own sappers' work. ``state`` is the
    battle's full (unfiltered) state, which knows each mine's owner."""
    if game_master or type_ not in ("sapper_worked", "sapper_approached"):
        return data
    sapper = (state.get("fighters") or {}).get(str(data.get("sapper")))
    owner = sapper.get("side") if sapper else None
    if (side is not None and owner == side) or _object_known(state, str(data.get("object", "")), owner, side, game_master=False):
        return data
    kept = {k: data[k] for k in ("sapper", "distance") if k in data}
    return {**kept, REDACTED: True}


__all__ = ["REDACTED", "event_for", "mine_known", "state_for"]
