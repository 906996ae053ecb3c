"""Service dice committed before they are rolled (docs/verify.md, "Verifying a
log", "Committed dice").

Each battle holds a secret (32 random bytes, kept as 64 hex digits) from its
creation, and publishes its commitment, the SHA-256 of those bytes. A die the
service rolls for the battle is not drawn from a random source but derived
from the secret and the die's place in the log: the battle, the event's seq
and the die's path in the event's stored data (the keys and list indices on
the way to it). So the value of every service die is fixed before the battle
starts, and nobody who lacks the secret can foresee it. When the battle ends
the secret is revealed (never before), and anyone can check the commitment
and re-derive every die the service rolled with ``rng = RNG``.

The derivation, for a die of ``sides`` faces::

    for counter in 0, 1, 2, ...:
        message = UTF-8 of the JSON ["die", battle, seq, path, counter]
                  (no spaces, non-ASCII as itself)
        x = HMAC-SHA256(secret, message) read as a 256-bit big-endian integer
        if x < 2**256 - 2**256 % sides: the die is x % sides + 1

Every face then has the same chance (the blocks past the last whole multiple
of ``sides`` are rejected; for a d20 one in about 10**76 is). Pure: no Django
import; the store derives, the verifier re-derives, both through here.

The pre-battle command roll (V-RANK-9, V-RANK-10) is a campaign event, not
one of the battle's, so it has no place in the battle's log: its dice are
derived the same way with ``seq`` 0 (no battle event has it: a log starts at
1) and the path ``["command_roll", side, round, character]`` (``command_path``;
the character's id as text, the key of his die in the event's ``rolls``),
always a d20 (``COMMAND_SIDES``).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterator, Sequence
from functools import partial
from itertools import count
from typing import Any

from battles.engine.dice import fill_rolls, fill_rolls_at
from config.errors import InvalidInput

RNG = "hmac-sha256"  # the provenance of a die derived here (``Die.rng``)
UNCOMMITTED = "secrets"  # a die the service drew from ``secrets`` (before this scheme, or after the reveal)
SERVICE_RNGS = frozenset({RNG, UNCOMMITTED})  # the provenances only the service records (a client never sends them)
END = "battle_ended"  # the event whose storing reveals the secret: no die is derived from it after
_SPAN = 1 << 256
# The faces of the service's dice per ruleset: one die kind each (v11.2's d20, FoW's d6;
# tests/battles/test_committed_dice.py checks the registries still say so).
SIDES = {"v11.2": 20, "fow": 6}

Path = Sequence[str | int]
# The command roll's dice (V-RANK-9, V-RANK-10; G-13's d20 whatever the battle's ruleset): derived at seq 0.
COMMAND_SEQ = 0
COMMAND_SIDES = 20


def new_secret() -> str:
    """A battle's secret, as 64 hex digits."""
    return secrets.token_hex(32)


def commitment(secret: str) -> str:
    """What a battle publishes before its first roll: SHA-256 of the secret's bytes, in hex."""
    return hashlib.sha256(bytes.fromhex(secret)).hexdigest()


def key(secret: str) -> bytes | None:
    """The secret's bytes, to derive with; ``None`` for none (or for text that is no secret)."""
    try:
        found = bytes.fromhex(secret)
    except (TypeError, ValueError):
        return None
    return found if len(found) == 32 else None


# ``json.dumps(..., separators=(",", ":"), ensure_ascii=False)``, its encoder built once
_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def message(battle_id: int, seq: int, path: Path, counter: int) -> bytes:
    return _dumps(["die", battle_id, seq, list(path), counter]).encode()


def reduce(block: bytes, sides: int) -> int | None:
    """A face 1..``sides`` from one 32-byte HMAC block, or ``None`` when the
    block falls past the last whole multiple of ``sides`` (rejected: taking it
    modulo ``sides`` would favour the low faces)."""
    x = int.from_bytes(block, "big")
    if x >= _SPAN - _SPAN % sides:
        return None
    return x % sides + 1


def derive(key: bytes, *, battle_id: int, seq: int, path: Path, sides: int) -> int:
    """The face of the service die at ``path`` of event ``seq``; ``key`` is the
    secret's bytes."""
    for counter in count():
        face = reduce(hmac.digest(key, message(battle_id, seq, path, counter), "sha256"), sides)
        if face is not None:
            return face
    raise AssertionError("unreachable")  # pragma: no cover


def command_path(side: str, round: int, character: int | str) -> list[str | int]:
    """The path a command roll's die is derived at (with ``COMMAND_SEQ``): the
    side, the round of the roll (1, then one more per re-roll of a tie) and the
    character who rolls it."""
    return ["command_roll", side, round, str(character)]


def command_die(key: bytes, *, battle_id: int, side: str, round: int, character: int | str) -> int:
    """The face of a character's die in his side's command roll (``command_path``)."""
    return derive(key, battle_id=battle_id, seq=COMMAND_SEQ, path=command_path(side, round, character),
                  sides=COMMAND_SIDES)


def derived_dice(data: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Every die of stored ``data`` the service derived (``rng == RNG``), with its path."""
    if isinstance(data, dict):
        if data.get("source") == "rolled" and data.get("rng") == RNG:
            yield path, data.get("value")
            return
        for k, v in data.items():
            yield from derived_dice(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from derived_dice(v, (*path, i))


def uncommitted_dice(data: Any) -> int:
    """How many dice of stored ``data`` the service drew without a commitment."""
    if isinstance(data, dict):
        if data.get("source") == "rolled" and data.get("rng") == UNCOMMITTED:
            return 1
        return sum(uncommitted_dice(v) for v in data.values())
    if isinstance(data, list):
        return sum(uncommitted_dice(v) for v in data)
    return 0


def service_rolls(events: Sequence[Any], *, battle_id: int, first_seq: int, ruleset: str,
                  key: bytes | None) -> list[tuple[str, Any, int | None]]:
    """A batch (``type``, ``data``, ``schema_version`` each) with the dice it
    asks the service to roll filled in: derived from the battle's secret
    ``key`` and each die's place, or, with no secret to derive from (revealed,
    or a battle without one), drawn from ``secrets``. A ``battle_ended``
    reveals the secret: no die after it in the batch is derived."""
    out = []
    for seq, ev in enumerate(events, start=first_seq):
        if ev.type == END:
            key = None
        if key is None:
            data = fill_rolls(ev.type, ev.data, lambda sides: secrets.randbelow(sides) + 1, ruleset=ruleset)
        else:
            data = fill_rolls_at(ev.type, ev.data, partial(_roll, key, battle_id, seq), ruleset=ruleset, rng=RNG)
        out.append((ev.type, data, ev.schema_version))
    return out


def _roll(key: bytes, battle_id: int, seq: int, sides: int, path: Path) -> int:
    return derive(key, battle_id=battle_id, seq=seq, path=path, sides=sides)


def without_service_rolls(data: Any) -> Any:
    """Blank the faces the service rolled and their provenance, so a retry
    (which asks for a roll again) compares equal to the stored event that has
    the roll."""
    if isinstance(data, dict):
        if data.get("source") == "rolled" and data.get("rng") in SERVICE_RNGS:
            return {**data, "value": None, "rng": None}
        return {k: without_service_rolls(v) for k, v in data.items()}
    if isinstance(data, list):
        return [without_service_rolls(v) for v in data]
    return data


def dice_sent(data: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Every die-shaped object of sent ``data`` (one with a ``source`` of
    ``rolled`` or ``entered``, or with a service's ``rng``), with its path."""
    if isinstance(data, dict):
        if data.get("source") in ("rolled", "entered") or data.get("rng") in SERVICE_RNGS:
            yield path, data
            return
        for k, v in data.items():
            yield from dice_sent(v, (*path, k))
    elif isinstance(data, list):
        for n, v in enumerate(data):
            yield from dice_sent(v, (*path, n))


def refuse_service_dice(i: int, data: Any) -> None:
    """Only the service rolls a die it records as rolled (issue 27 §4): one sent with a service's ``rng``,
    or as rolled with a face, would read as the service's though its sender chose it."""
    for path, die in dice_sent(data):
        at = f"events[{i}].data" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path)
        rng = die.get("rng")
        if rng in SERVICE_RNGS:
            field, code = f"{at}.rng", "derived_die_sent" if rng == RNG else "service_die_sent"
            ru, en = f"«{rng}» записывает только сервис", f"only the service records «{rng}»"
        elif die.get("source") == "rolled" and "value" in die:
            field, code = f"{at}.value", "service_die_sent"
            ru, en = "кость «rolled» бросает сервис", "a «rolled» die is rolled by the service"
        else:
            continue
        raise InvalidInput(f"{field}: {ru}: его бросок просят как {{\"source\": \"rolled\"}} без значения, а кость, "
                           f"брошенную за столом, шлют как {{\"value\": n, \"source\": \"entered\"}} без rng.",
                           f"{field}: {en}: ask it to roll as {{\"source\": \"rolled\"}} without a value, and send a "
                           f"die thrown at the table as {{\"value\": n, \"source\": \"entered\"}} without an rng.",
                           field=field, code=code)
