"""Who records each event type at the table: one policy per registered type.

A battle's log is written by its participants and the game master. A player
records his own side's events, plus the ones the rules hand to the opponent;
some events either side of the table may record; a few are the game
master's alone. Each policy has a ``kind`` and a resolver giving, from the
state before the event and its validated payload, the side that records it:

- ``actor``: the side whose fighter, vehicle or turn acts (the shooter, the
  mover, the side named in the payload);
- ``opponent``: the rules hand the record to the enemy of the side whose
  piece the payload names (a prisoner's captors, a mine's owner when the
  enemy sets it off, the side capturing a vehicle);
- ``either``: what the table agrees (its start and end, the terrain) or what
  falls due from the position on the table in any turn (a morale test);
- ``game_master``: corrections and mustering, services of the game master.

The resolver answers ``UNKNOWN`` when the payload names a fighter, unit,
vehicle or mine that does not exist: the engine's own check then refuses the
event (``S-UNKNOWN``), so the recorder check never tells "no such piece" from
"not yours" beyond what the rules already show. Mines and charges are hidden
from the enemy until revealed (V-MINE-14): naming an enemy's hidden mine is
refused exactly as naming no mine at all.

Pure Python like the rest of the engine; the apps map ``NotYours`` to 403.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from . import mines
from .errors import EngineError, RuleViolation
from .events import REGISTRY, _registry  # noqa: F401  (REGISTRY: the v11.2 registry; other rulesets pass theirs)
from .state import BattleState

Kind = Literal["actor", "opponent", "either", "game_master"]
KINDS: tuple[str, ...] = ("actor", "opponent", "either", "game_master")
EITHER = "either"
GAME_MASTER = "game_master"
UNKNOWN = "unknown"
SIDES = ("attacker", "defender")

Resolver = Callable[[BattleState, Any], str]
Conceal = Callable[[BattleState, Any], None]


@dataclass(frozen=True, slots=True)
class Recorder:
    """Who records one event type. ``resolve(state, payload)`` returns
    ``"attacker"``, ``"defender"``, ``EITHER``, ``GAME_MASTER`` or ``UNKNOWN``.
    ``conceal(state, payload)``, when set, raises the engine's refusal for a
    hidden object named by someone who may not know of it."""

    kind: Kind
    resolve: Resolver
    text_ru: str
    text_en: str
    conceal: Conceal | None = None

    def describe(self) -> dict[str, str]:
        return {"kind": self.kind, "text_ru": self.text_ru, "text_en": self.text_en}


class NotYours(EngineError):
    """The recorder's side may not record this event. ``allowed`` is the side
    that may (``"attacker"``/``"defender"``) or ``GAME_MASTER``."""

    code = "not_your_event"

    def __init__(self, type_name: str, allowed: str, message_ru: str, message_en: str) -> None:
        super().__init__(message_ru, message_en)
        self.type_name = type_name
        self.allowed = allowed


# --- resolvers ---------------------------------------------------------------------------
def _opposite(side: str) -> str:
    return {"attacker": "defender", "defender": "attacker"}.get(side, UNKNOWN)


def _either(state: BattleState, p: Any) -> str:
    return EITHER


def _game_master(state: BattleState, p: Any) -> str:
    return GAME_MASTER


def _named_side(state: BattleState, p: Any) -> str:
    return str(p.side)


def _fighter_side(attr: str) -> Resolver:
    def resolve(state: BattleState, p: Any) -> str:
        f = state.fighters.get(getattr(p, attr))
        return f.side if f is not None else UNKNOWN

    return resolve


def _vehicle_side(attr: str) -> Resolver:
    def resolve(state: BattleState, p: Any) -> str:
        v = state.vehicles.get(getattr(p, attr))
        return v.side if v is not None else UNKNOWN

    return resolve


def _piece_side(attr: str) -> Resolver:
    """A fighter's or a vehicle's side (a shooter may be either)."""

    def resolve(state: BattleState, p: Any) -> str:
        pid = getattr(p, attr)
        f = state.fighters.get(pid)
        if f is not None:
            return f.side
        v = state.vehicles.get(pid)
        return v.side if v is not None else UNKNOWN

    return resolve


def _mine_owner(type_name: str) -> Resolver:
    """The side of the mine the event means (``mines.mine_for``: the one its check judges)."""
    def resolve(state: BattleState, p: Any) -> str:
        m = mines.mine_for(state, type_name, p)
        return m.side if m is not None else UNKNOWN

    return resolve


def _corrector_side(state: BattleState, p: Any) -> str:
    """A fighter or spotter vehicle corrects for its side; a pillbox (V-BUNK-8)
    has no side of its own, so the battery it corrects for decides."""
    f = state.fighters.get(p.corrector)
    if f is not None:
        return f.side
    if p.corrector in state.bunkers:
        gun = state.vehicles.get(p.shooter)
        return gun.side if gun is not None else UNKNOWN
    v = state.vehicles.get(p.corrector)
    return v.side if v is not None else UNKNOWN


def _capturing_side(state: BattleState, p: Any) -> str:
    v = state.vehicles.get(p.vehicle)
    return _opposite(v.side) if v is not None else UNKNOWN


def correction_recorder(state: Any, p: Any) -> str:
    """V-TURN-13: the game master voids; a player takes back his own side's last entry."""
    return str(p.side) if getattr(p, "side", None) else GAME_MASTER


CORRECTION_RU = "Мастер; игрок — только взять назад последнюю запись своей стороны в свой ход"
CORRECTION_EN = "The game master; a player only takes back his side's last entry in his own turn"


def _captors(state: BattleState, p: Any) -> str:
    x = state.fighters.get(p.prisoner)
    if x is None or not x.captured or x.dead:
        return UNKNOWN  # not a prisoner: the engine refuses it (V-POW-4)
    return x.captor_side or UNKNOWN


# --- concealment of hidden mines (V-MINE-14) -------------------------------------------
def _hidden(type_name: str, attr: str, what_ru: str, what_en: str) -> Conceal:
    """Refuse an enemy's unrevealed mine or charge exactly as the engine
    refuses one that does not exist (same order, rule and text)."""

    def conceal(state: BattleState, p: Any) -> None:
        m = mines.mine_for(state, type_name, p)
        if m is None or m.revealed:
            return  # unknown ids never reach here; a revealed mine is known to both sides
        from .rules.core import require_running  # a cycle: the rule modules import this policy

        require_running(state)
        oid = getattr(p, attr)
        raise RuleViolation("S-UNKNOWN", f"{what_ru} {oid!r} нет.", f"No live {what_en} {oid!r}.")

    return conceal


# --- the policy -------------------------------------------------------------------------------
_OWN_ACT = ("Сторона, чей боец или техника действует", "The side whose fighter or vehicle acts")

POLICY: dict[str, Recorder] = {
    # The table starts the battle: the defender moves first whoever says so (V-TURN-8).
    # Before the muster nobody but the game master records (``authorize``, V-TURN-2).
    "battle_started": Recorder("either", _either, "Любая сторона за столом (до выставления сил — только мастер)",
                               "Either side at the table (before the muster, the game master only)"),
    # The outcome as the table agreed it; the game master may void it (V-TURN-13).
    "battle_ended": Recorder("either", _either, "Любая сторона: итог, о котором договорился стол",
                             "Either side: the outcome the table agreed"),
    # V-TURN-5: the players agree in detail on every battlefield object.
    "terrain_placed": Recorder("either", _either, "Любая сторона: объекты, о которых договорились игроки "
                               "(до выставления сил — только мастер)",
                               "Either side: the objects the players agreed on (before the muster, the game "
                               "master only)"),
    # V-MORALE-1, V-CMD-7: the test falls due from the position on the table, in any phase of either
    # player's turn (the engine sets no turn: a unit may lose its officer to enemy fire), and a
    # surrender depends on the enemy's distances (V-TEST-3). The owner rolls it; the opponent, whose
    # turn it often is, may record it too.
    "morale_test": Recorder("either", _either, "Любая сторона: тест наступает от положения на столе в любой ход",
                            "Either side: the test falls due from the table's position in any turn"),
    # V-TURN-13: only the game master voids an event; a player takes back his own last entry.
    "correction": Recorder("game_master", correction_recorder, CORRECTION_RU, CORRECTION_EN),
    # Mustering (rosters, reinforcements) is the game master's service (V-TURN-2, V-TURN-3).
    "force_mustered": Recorder("game_master", _game_master, "Только мастер (выставление сил из ростеров)",
                               "The game master only (mustering from the rosters)"),
    # V-TURN-12: the player says «Ход» for his own turn.
    "turn_ended": Recorder("actor", _named_side, "Названная сторона (её «Ход»)", "The named side (its «Ход»)"),
    # V-TURN-12: each of several players of a side says «Ход» for his own pieces.
    "player_done": Recorder("actor", _named_side, "Названная сторона (её игрок)", "The named side (its player)"),
    # V-TURN-9: the player tells the posture of each of his units.
    "postures_declared": Recorder("actor", _named_side, "Названная сторона", "The named side"),
    # V-TURN-10: a player moves his own fighters (the engine checks they are the named side's).
    "fighters_moved": Recorder("actor", _named_side, "Сторона передвигаемых бойцов", "The moving fighters' side"),
    "vehicle_moved": Recorder("actor", _vehicle_side("vehicle"), "Сторона техники", "The vehicle's side"),
    # The shooter's side, also off turn: an AT ambush (V-GUN-4) or AA fire at an aircraft (V-AA-3).
    "fire": Recorder("actor", _piece_side("shooter"), "Сторона стрелка (боец или техника)",
                     "The shooter's side (fighter or vehicle)"),
    "smoke_fired": Recorder("actor", _piece_side("shooter"), "Сторона стрелка", "The shooter's side"),
    # V-CORR-3: officers, scouts, spotter vehicles and spotter pillboxes correct for their battery.
    "fire_corrected": Recorder("actor", _corrector_side, "Сторона корректировщика и батареи",
                               "The side of the corrector and its battery"),
    # V-MELEE-1: the fighter who starts the melee, in his own turn; both dice are the table's.
    "melee": Recorder("actor", _fighter_side("attacker"), "Сторона нападающего бойца", "The attacking fighter's side"),
    # V-MED-3: on the owner's next turn the wounded fighter tests.
    "wound_test": Recorder("actor", _fighter_side("fighter"), "Владелец раненого бойца",
                           "The wounded fighter's owner"),
    # V-CMD-1: an officer passes an order to his side's unit.
    "order_given": Recorder("actor", _fighter_side("officer"), "Сторона офицера", "The officer's side"),
    # V-POW-1: the captor brings his fighter to a wounded enemy.
    "prisoner_taken": Recorder("actor", _fighter_side("captor"), "Сторона захватившего бойца",
                               "The captor's side"),
    # V-POW-7: a prisoner is freed by an officer of his own army.
    "prisoner_freed": Recorder("actor", _fighter_side("prisoner"), "Сторона пленного (её офицер освобождает)",
                               "The prisoner's own side (its officer frees him)"),
    # V-POW-2, V-POW-4: the prisoner is at the disposal of the capturing unit's commander, who
    # decides to kill, leave or send him: the prisoner's enemy records it.
    "prisoner_handled": Recorder("opponent", _captors, "Противник пленного (сторона, взявшая его в плен)",
                                 "The prisoner's enemy (the side that captured him)"),
    # V-CAPT-3, V-CAPT-5: the enemy infantry around the vehicle rolls the capture test in its own turn.
    "capture_attempted": Recorder("opponent", _capturing_side, "Противник владельца техники (захватывающая сторона)",
                                  "The vehicle owner's enemy (the capturing side)"),
    "embarked": Recorder("actor", _vehicle_side("vehicle"), "Сторона техники", "The vehicle's side"),
    "disembarked": Recorder("actor", _vehicle_side("vehicle"), "Сторона техники", "The vehicle's side"),
    "crew_boarded": Recorder("actor", _vehicle_side("vehicle"), "Сторона техники", "The vehicle's side"),
    # V-CREW-4: the piece's own side takes its crewmen out.
    "crew_dismounted": Recorder("actor", _vehicle_side("vehicle"), "Сторона техники", "The vehicle's side"),
    # V-FLAME-3: the side putting its fighter into the crewless enemy tank.
    "vehicle_boarded": Recorder("actor", _fighter_side("fighter"), "Сторона бойца, занимающего технику",
                                "The side of the fighter boarding the vehicle"),
    # V-SAP-2, V-SAP-3: the sapper's own scheme.
    "sapper_approached": Recorder("actor", _fighter_side("sapper"), "Сторона сапёра", "The sapper's side"),
    "sapper_worked": Recorder("actor", _fighter_side("sapper"), "Сторона сапёра", "The sapper's side"),
    # V-MINE-10: the charge's own sapper detonates it on an officer's order, in any phase.
    "charge_detonated": Recorder("actor", _mine_owner("charge_detonated"), "Владелец заряда", "The charge's owner",
                                 conceal=_hidden("charge_detonated", "charge", "Заряда", "charge")),
    # V-MINE-2: the mine goes off when an ENEMY ends his move within 2"; only the owner knows where it
    # lies (V-MINE-14), so the mine's owner, the mover's opponent, records it.
    "mine_triggered": Recorder("opponent", _mine_owner("mine_triggered"), "Владелец мины (противник подорвавшегося)",
                               "The mine's owner (the enemy of whoever set it off)",
                               conceal=_hidden("mine_triggered", "mine", "Мины", "mine")),
    # V-MINE-14: when an enemy sapper is within 6", the OWNER must tell the opponent and show the mine.
    "mine_revealed": Recorder("opponent", _mine_owner("mine_revealed"), "Владелец мины (обязан показать её сапёру противника)",
                              "The mine's owner (bound to show it to the enemy sapper)",
                              conceal=_hidden("mine_revealed", "mine", "Мины", "mine")),
}


# What the side NOT to move may record (the battle page offers these off turn): its own morale tests in
# any phase (V-MORALE-1), an AT ambush or AA fire in the enemy's turn (V-GUN-4, V-AA-3), its mines going off
# under the enemy (V-MINE-2), its charges in any phase (V-MINE-10) and showing a mine an enemy sapper found
# (V-MINE-14). Wound tests are not among them: they come on the owner's own turn (V-MED-3).
OFF_TURN = frozenset({"morale_test", "fire", "mine_triggered", "charge_detonated", "mine_revealed"})
# Set before the battle (V-TURN-2..8): the game master's; a player records none of them once it runs.
SETUP = ("force_mustered", "terrain_placed", "battle_started")


# The pieces an actor event acts with, by payload key (V-TURN-9..12): with several players on a side each
# records for the pieces of his own roster. Events the rules hand to either side or to the opponent act
# with no piece of the recorder's own and are not listed.
ACTING: dict[str, tuple[str, ...]] = {
    "postures_declared": ("units", "fighters"), "fighters_moved": ("fighters",), "vehicle_moved": ("vehicle",),
    "fire": ("shooter",), "smoke_fired": ("shooter",), "fire_corrected": ("corrector",), "melee": ("attacker",),
    "wound_test": ("fighter",), "order_given": ("officer",), "prisoner_taken": ("captor",),
    "embarked": ("vehicle", "fighters"), "disembarked": ("vehicle", "fighters"),
    "crew_boarded": ("vehicle", "fighters"), "crew_dismounted": ("vehicle", "fighters"),
    "vehicle_boarded": ("fighter",), "sapper_approached": ("sapper",), "sapper_worked": ("sapper",),
}


def acting_pieces(type_name: str, data: Any) -> list[str]:
    """The ids of the pieces an event acts with, read from its payload as sent (a dict)."""
    out: list[str] = []
    if not isinstance(data, dict):
        return out
    for key in ACTING.get(type_name, ()):
        value = data.get(key)
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, (list, dict)):
            out += [x for x in value if isinstance(x, str)]
    return out


def _policy_of(ruleset: Any) -> dict[str, Recorder]:
    if ruleset is None:
        return POLICY
    from .rulesets import get  # a cycle: rulesets imports this module (its POLICY)

    return get(ruleset).policy


def policy(type_name: str, ruleset: Any = None) -> Recorder:
    """The policy of a registered type (KeyError for a type without one: a
    test requires every registered type to have an entry)."""
    return _policy_of(ruleset)[type_name]


def recorder(state: Any, type_name: str, payload: Any, ruleset: Any = None) -> str:
    """Who records this event against ``state``: a side, ``EITHER``,
    ``GAME_MASTER`` or ``UNKNOWN`` (left to the engine's checks)."""
    return _policy_of(ruleset)[type_name].resolve(state, payload)


SIDE_NAMES = {"attacker": ("наступающая сторона", "the attacking side"),
              "defender": ("обороняющаяся сторона", "the defending side")}


def who(state: BattleState, allowed: str) -> tuple[str, str]:
    """The recorder in words, with the side's name as the battle gives it."""
    if allowed == GAME_MASTER:
        return "только мастер", "the game master only"
    ru, en = SIDE_NAMES.get(allowed, ("", ""))
    name = getattr(state, allowed, "") if allowed in SIDES else ""
    return (f"{ru} ({name})", f"{en} ({name})") if name else (ru, en)


def authorize(state: Any, type_name: str, payload: Any, *, side: str, ruleset: Any = None) -> bool:
    """May a participant of ``side`` record this event now? Returns True when
    the answer is left to the engine's checks (the payload names an unknown
    piece, which they refuse). Raises ``NotYours`` when another side or the
    game master records it, or the engine's ``S-UNKNOWN`` refusal when the
    payload names an enemy's hidden mine.

    Before the battle starts (its muster: the forces deployed, V-TURN-2,
    V-TURN-3, then ``battle_started``) the log is the game master's alone:
    a participant records nothing, so he can neither start the battle nor
    set its table ahead of the muster."""
    entry = _policy_of(ruleset)[type_name]
    if getattr(state, "status", "running") == "planned":
        event = _registry(ruleset)[type_name]
        title_ru, title_en = event.title_ru or type_name, event.title_en or type_name
        raise NotYours(type_name, GAME_MASTER,
                       f"Событие «{title_ru}»: до выставления сил журнал боя ведёт только мастер (V-TURN-2).",
                       f"«{title_en}»: until the forces are mustered only the game master records the battle's "
                       f"log (V-TURN-2).")
    allowed = entry.resolve(state, payload)
    if allowed == UNKNOWN:
        return True
    if allowed == EITHER or allowed == side:
        return False
    if entry.conceal is not None:
        entry.conceal(state, payload)
    who_ru, who_en = who(state, allowed)

    event = _registry(ruleset)[type_name]
    raise NotYours(type_name, allowed, f"Событие «{event.title_ru or type_name}» записывает {who_ru}.",
                   f"«{event.title_en or type_name}» is recorded by {who_en}.")
