"""The log's skeleton: a battle starts, sides take turns, the battle ends, and
mistakes are voided by corrections.

V-TURN-8: the defender moves first. V-TURN-12: a side ends its turn by saying
«Ход». V-TURN-13: nothing is undone once a turn is over; a correction event
voids an earlier event by its seq, with a reason, and replay skips it.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import Meta

from battles.engine.errors import RuleViolation
from battles.engine.events import Context, event_type
from battles.engine.schema import Payload
from battles.engine.state import BattleState, TurnRecord

from .common import side_en, side_ru

Side = Literal["attacker", "defender"]


def other(side: str) -> str:
    return "defender" if side == "attacker" else "attacker"


def require_running(state: Any) -> None:
    """Structural precondition shared by every in-battle event."""
    if state.status == "planned":
        raise RuleViolation("S-NOT-STARTED", "Бой ещё не начат: сначала событие battle_started.",
                            "The battle has not started: record battle_started first.")
    if state.status == "ended":
        raise RuleViolation("S-ENDED", "Бой окончен: после battle_ended допустимы только исправления.",
                            "The battle is over: only corrections may follow battle_ended.")


# --- battle_started ----------------------------------------------------------
class BattleStarted(Payload):
    """The table is set: sides named, the defender moves first (V-TURN-8)."""

    attacker: Annotated[str, Meta(min_length=1, max_length=200, description="Attacking side's name")]
    defender: Annotated[str, Meta(min_length=1, max_length=200, description="Defending side's name")]
    ruleset: Literal["v11.2"] = "v11.2"


battle_started = event_type(
    "battle_started", BattleStarted, rules=("V-TURN-8",),
    title_ru="Бой начат", title_en="Battle started",
)


@battle_started.check
def _check_started(state: BattleState, p: BattleStarted, ctx: Context) -> None:
    if state.status != "planned":
        raise RuleViolation("S-STARTED-TWICE", "Бой уже начат.", "The battle has already started.")


@battle_started.mutator
def _apply_started(state: BattleState, p: BattleStarted, ctx: Context) -> None:
    state.status = "running"
    state.attacker, state.defender, state.ruleset = p.attacker, p.defender, p.ruleset
    state.first_mover = "defender"  # V-TURN-8
    state.turn = 1
    state.side_to_move = state.first_mover
    state.turns.append(TurnRecord(number=1, side=state.first_mover, first_seq=ctx.seq, last_seq=ctx.seq))


# --- turn_ended -------------------------------------------------------------
class TurnEnded(Payload):
    """The side to move says «Ход» (V-TURN-12); the other side moves next.
    A full turn is over when both sides have moved."""

    side: Annotated[Side, Meta(description="The side whose turn ends")]
    turn: Annotated[int, Meta(ge=1, description="The turn number being ended")]


turn_ended = event_type(
    "turn_ended", TurnEnded, rules=("V-TURN-12", "V-TURN-8", "V-TURN-13", "V-SMOKE-5"),
    title_ru="Ход окончен («Ход»)", title_en="Turn ended («Ход»)",
)


def players(state: BattleState, side: str) -> list[str]:
    """The participants playing ``side``: the players its pieces were mustered from, in muster order."""
    seen: dict[str, None] = {}
    for group in (state.units, state.fighters, state.vehicles):
        for x in group.values():
            if x.player and x.side == side:
                seen.setdefault(x.player, None)
    return list(seen)


def waiting_for(state: BattleState) -> list[str]:
    """The side to move's players who have not said «Ход» yet (none when one player plays the side)."""
    side = state.side_to_move
    everyone = players(state, side) if side else []
    return [x for x in everyone if x not in state.done] if len(everyone) > 1 else []


def _check_turn_order(state: BattleState, side: str, turn: int) -> None:
    require_running(state)
    if side != state.side_to_move:
        raise RuleViolation("V-TURN-12", f"Сейчас ходят {side_ru(state.side_to_move)}, а не {side_ru(side)}.",
                            f"It is {side_en(state.side_to_move)}'s turn, not {side_en(side)}'s.")
    if turn != state.turn:
        raise RuleViolation("V-TURN-12", f"Идёт ход {state.turn}, а не {turn}.",
                            f"The current turn is {state.turn}, not {turn}.")


@turn_ended.check
def _check_turn_ended(state: BattleState, p: TurnEnded, ctx: Context) -> None:
    _check_turn_order(state, p.side, p.turn)
    if waiting := waiting_for(state):
        # V-TURN-12 with several players on a side: the side's «Ход» is said when each of them has said his.
        raise RuleViolation("V-TURN-12", f"Ход стороны кончается, когда «Ход» сказал каждый её игрок; ещё играют: "
                                         f"{', '.join(waiting)}.",
                            f"A side's turn ends when each of its players has ended his; still playing: "
                            f"{', '.join(waiting)}.")


@turn_ended.mutator
def _apply_turn_ended(state: BattleState, p: TurnEnded, ctx: Context) -> None:
    if state.turns:
        state.turns[-1].last_seq = ctx.seq
    nxt = other(p.side)
    if nxt == state.first_mover:
        state.turn = p.turn + 1
    state.side_to_move = nxt
    state.ply += 1
    state.phase = "posture"
    # V-SMOKE-5: a side's smoke screens are removed at the start of its next turn.
    if state.smoke:
        for sid in [k for k, s in state.smoke.items() if s.side == nxt]:
            del state.smoke[sid]
    if state.fire_corrections:
        state.fire_corrections.clear()
    state.done = []
    state.turns.append(TurnRecord(number=state.turn, side=nxt, first_seq=ctx.seq + 1, last_seq=ctx.seq))


# --- player_done ------------------------------------------------------------------
class PlayerDone(Payload):
    """One of several players of the side to move says «Ход» for the pieces of
    his roster (V-TURN-12); the side's turn ends (``turn_ended``) when every
    one of them has. The game master may say it for an absent player."""

    side: Annotated[Side, Meta(description="The side whose turn it is")]
    turn: Annotated[int, Meta(ge=1, description="The turn number")]
    player: Annotated[str, Meta(min_length=1, max_length=64, description="The participant who is done")]


player_done = event_type(
    "player_done", PlayerDone, rules=("V-TURN-12",),
    title_ru="Игрок сказал «Ход»", title_en="A player said «Ход»",
)


@player_done.check
def _check_player_done(state: BattleState, p: PlayerDone, ctx: Context) -> None:
    _check_turn_order(state, p.side, p.turn)
    if p.player not in players(state, p.side):
        raise RuleViolation("S-UNKNOWN", "Такого игрока у этой стороны нет.", "No such player on this side.")
    if p.player in state.done:
        raise RuleViolation("V-TURN-12", "Этот игрок уже сказал «Ход» в этом ходу.",
                            "This player has already ended his turn.")


@player_done.mutator
def _apply_player_done(state: BattleState, p: PlayerDone, ctx: Context) -> None:
    state.done.append(p.player)


# --- battle_ended -------------------------------------------------------------
class BattleEnded(Payload):
    """The battle is over, with its outcome as the table agreed it."""

    winner: Annotated[Literal["attacker", "defender", "draw"], Meta(description="Winner, or draw")]
    reason: Annotated[str, Meta(max_length=2000)] = ""


battle_ended = event_type("battle_ended", BattleEnded, title_ru="Бой окончен", title_en="Battle ended")


@battle_ended.check
def _check_ended(state: BattleState, p: BattleEnded, ctx: Context) -> None:
    require_running(state)


@battle_ended.mutator
def _apply_ended(state: BattleState, p: BattleEnded, ctx: Context) -> None:
    state.status = "ended"
    state.winner = p.winner
    state.end_reason = p.reason
    state.side_to_move = None
    if state.turns:
        state.turns[-1].last_seq = ctx.seq


# --- correction ------------------------------------------------------------------
class Correction(Payload):
    """Voids an earlier event (V-TURN-13). Replay skips the voided event; the
    event itself stays in the log for the record. The game master voids any
    entry after the set-up; a player takes back his side's last entry (``side``
    set) while its turn is still on and nothing followed it."""

    voids_seq: Annotated[int, Meta(ge=1, description="seq of the event this correction voids")]
    reason: Annotated[str, Meta(min_length=1, max_length=2000, description="Why (kept in the record)")]
    side: Annotated[Side, Meta(
        description="A player's take-back of his own last entry: his side (the game master leaves it empty)")] | None = None


correction = event_type(
    "correction", Correction, rules=("V-TURN-13",),
    title_ru="Исправление", title_en="Correction",
)


@correction.check
def _check_correction(state: BattleState, p: Correction, ctx: Context) -> None:
    check_correction(state, p, ctx, "V-TURN-13")


def check_correction(state: Any, p: Correction, ctx: Context, rule_id: str) -> None:
    """The correction's checks, shared by every ruleset (each names its own rule)."""
    if p.voids_seq >= ctx.seq:
        raise RuleViolation(rule_id, f"Исправление может отменить только более раннее событие (seq < {ctx.seq}).",
                            f"A correction can void only an earlier event (seq < {ctx.seq}).")
    if p.voids_seq in state.voided:
        raise RuleViolation(rule_id, f"Событие {p.voids_seq} уже отменено.", f"Event {p.voids_seq} is already voided.")
    if p.voids_seq in state.corrections:
        raise RuleViolation(rule_id, "Исправление нельзя отменить: добавьте новое событие.",
                            "A correction cannot be voided: append a new event instead.")
    if state.turns and p.voids_seq <= state.turns[0].first_seq:
        # The muster and the start carry every piece: voiding one would erase every later action of a side.
        raise RuleViolation(rule_id, "Выставление сил и начало боя не отменяются: недостающие силы выставляются "
                                     "дополнительно (подкрепление), ошибочные действия отменяются по одному.",
                            "The muster and the start cannot be voided: add missing forces by a further muster "
                            "(reinforcements) and void mistaken actions one by one.")
    if p.side is not None:
        check_take_back(state, p, ctx, rule_id)


def check_take_back(state: Any, p: Correction, ctx: Context, rule_id: str) -> None:
    """V-TURN-13: nothing is undone once a turn is over. A player may take back
    only the entry just before this one, in his own turn that is still on."""
    if state.status != "running" or state.side_to_move != p.side:
        raise RuleViolation(rule_id, "Взять запись назад можно только в свой ход.",
                            "An entry can be taken back only in your own turn.")
    if p.voids_seq != ctx.seq - 1:
        raise RuleViolation(rule_id, "Назад берётся только последняя запись журнала: после неё уже записано другое; "
                                     "отменить её может мастер.",
                            "Only the log's last entry can be taken back: something was recorded after it; "
                            "the game master may void it.")
    if not state.turns or p.voids_seq < state.turns[-1].first_seq:
        raise RuleViolation(rule_id, "Ход, в котором сделана запись, окончен: отменить её может только мастер.",
                            "The turn of that entry is over: only the game master may void it.")


@correction.mutator
def _apply_correction(state: Any, p: Correction, ctx: Context) -> None:
    # The voided event is skipped by fold(); this only keeps the record.
    state.corrections.append(ctx.seq)
    state.voided.append(p.voids_seq)
    state.voided.sort()
