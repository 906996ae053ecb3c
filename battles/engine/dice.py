"""Dice with provenance: a d20 is either entered from the table or rolled by
the service (committed dice derived from the battle's secret, or, without
one, a secure random source). Replay never rolls; the service fills rolls
once, before append, with ``fill_rolls_at``.

All v11.2 bands are on a d20 and inclusive at both ends (V-TEST-1..10).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, get_args, get_origin

from msgspec import Meta

from .events import _registry
from .schema import Payload, _is_optional, hints, is_payload

SIDES = 20


class Die(Payload):
    """One d20: its value and where it came from."""

    value: Annotated[int, Meta(ge=1, le=SIDES, description="The face rolled, 1..20")]
    source: Annotated[Literal["entered", "rolled"], Meta(
        description="Entered from the table, or rolled by the service")]
    rng: Annotated[str, Meta(max_length=40, description="Random source of a rolled die")] | None = None


class D6(Payload):
    """One six-sided die (Flames of War, G-F4): its value and where it came from."""

    value: Annotated[int, Meta(ge=1, le=6, description="The face rolled, 1..6")]
    source: Annotated[Literal["entered", "rolled"], Meta(
        description="Entered from the table, or rolled by the service")]
    rng: Annotated[str, Meta(max_length=40, description="Random source of a rolled die")] | None = None


DICE: dict[type, int] = {Die: SIDES, D6: 6}  # die class -> its sides (fill_rolls rolls each with its own)


def value(die: Any) -> int:
    """The face of a die (a ``Die`` at append time, a dict in a raw payload)."""
    try:
        return die.value  # a Die (a D6), at append time and at replay
    except AttributeError:
        return int(die["value"])


# --- fillers ------------------------------------------------------------------------
# One closure per annotation, built once (``fill_rolls``): a copy of every object and list on the way to
# a die, the dice rolled in the data's order, anything not shaped as the annotation says left as it is.
# A filler hands the roll the die's sides and its path in the data (keys and list indices), and writes
# the provenance it is given.
Path = tuple[str | int, ...]
RollAt = Callable[[int, Path], int]
Filler = Callable[[Any, RollAt, str, Path], Any]
_FILLERS: dict[Any, Filler] = {}


def _filler(tp: Any) -> Filler:
    found = _FILLERS.get(tp)
    if found is None:
        found = _FILLERS[tp] = _compile_filler(tp)
    return found


def _keep(data: Any, roll: RollAt, rng: str, path: Path) -> Any:
    return data


def _each(data: Any, pairs: Any, fill: Filler, roll: RollAt, rng: str, path: Path) -> Any:
    """A list's or a map's ``pairs`` (index or key, value) filled: ``data`` itself when no die in it
    is rolled, else a copy with the filled values in their places."""
    out = None
    for key, v in pairs:
        new = fill(v, roll, rng, (*path, key))
        if new is not v:
            if out is None:
                out = type(data)(data)
            out[key] = new
    return data if out is None else out


def _compile_filler(tp: Any) -> Filler:  # noqa: C901 - one branch per annotation kind
    _opt, tp = _is_optional(tp)
    sides = DICE.get(tp)
    if sides is not None:
        def die(data: Any, roll: RollAt, rng: str, path: Path) -> Any:
            if isinstance(data, dict) and data.get("source") == "rolled" and "value" not in data:
                return {**data, "value": roll(sides, path), "rng": rng}
            return data

        return die
    origin = get_origin(tp)
    if origin is list:
        (item_tp,) = get_args(tp)

        def items(data: Any, roll: RollAt, rng: str, path: Path) -> Any:
            if not isinstance(data, list):
                return data
            return _each(data, enumerate(data), _filler(item_tp), roll, rng, path)

        return items
    if origin is dict:
        _k, value_tp = get_args(tp)

        def mapping(data: Any, roll: RollAt, rng: str, path: Path) -> Any:
            if not isinstance(data, dict):
                return data
            return _each(data, data.items(), _filler(value_tp), roll, rng, path)

        return mapping
    if is_payload(tp):
        fields = _dice_fields(tp)

        def obj(data: Any, roll: RollAt, rng: str, path: Path) -> Any:
            if not isinstance(data, dict):
                return data
            out = None  # a copy, with the same keys, once a die in it is rolled
            for name, field_tp in fields.items():
                value = data.get(name)
                if value is not None:
                    new = _filler(field_tp)(value, roll, rng, (*path, name))
                    if new is not value:
                        if out is None:
                            out = dict(data)
                        out[name] = new
            return data if out is None else out

        return obj
    return _keep


_DICE_FIELDS: dict[type, dict[str, Any]] = {}


def _dice_fields(tp: type) -> dict[str, Any]:
    """A payload class's fields whose annotation holds a die (memoised)."""
    found = _DICE_FIELDS.get(tp)
    if found is None:
        found = _DICE_FIELDS[tp] = {k: t for k, t in hints(tp).items() if _has_dice(t)}
    return found


def fill_rolls(type_name: str, data: Any, roll: Callable[[int], int], ruleset: Any = None) -> Any:
    """Return a copy of the client payload ``data`` of event type ``type_name``
    (of ``ruleset``, default v11.2) in which every die given as
    ``{"source": "rolled"}`` without a value gets ``roll(sides)`` (20 for a
    v11.2 ``Die``, 6 for a FoW ``D6``) and ``rng = "secrets"``. Entered dice
    and unknown types are left alone (validation reports them later). Pure:
    ``data`` is not changed."""
    return fill_rolls_at(type_name, data, lambda sides, path: roll(sides), ruleset=ruleset, rng="secrets")


def fill_rolls_at(type_name: str, data: Any, roll: RollAt, *, ruleset: Any = None, rng: str) -> Any:
    """``fill_rolls`` with ``roll(sides, path)``, ``path`` the die's place in
    ``data`` (its keys and list indices, as in the stored payload), and the
    provenance ``rng`` written on each die it rolls (the service's committed
    dice, ``battles.log.dice_commit``)."""
    registry = _registry(ruleset)
    entry = registry.get(type_name) if isinstance(type_name, str) else None
    if entry is None or not isinstance(data, dict) or not _has_dice(entry.payload):
        return data
    return _filler(entry.payload)(data, roll, rng, ())


_DICE_IN: dict[Any, bool] = {}


def _has_dice(tp: Any) -> bool:
    """Whether a payload type holds a die anywhere (memoised per type: most
    events hold none, and their payload need not be walked). Only whole answers
    are kept: a server's threads ask at once when it starts, and a thread that
    read another's answer in the making took a fire event for one without dice
    and sent its dice unrolled."""
    found = _DICE_IN.get(tp)
    if found is None:
        found = _DICE_IN[tp] = _type_has_dice(tp, frozenset())
    return found


def _type_has_dice(tp: Any, visiting: frozenset[Any]) -> bool:
    _opt, tp = _is_optional(tp)
    if tp in DICE:
        return True
    if tp in visiting:  # a type that holds itself: its dice, if any, are found where it was first met
        return False
    visiting |= {tp}
    args = get_args(tp)
    if args:
        return any(_type_has_dice(a, visiting) for a in args if a is not type(None))
    if is_payload(tp):
        return any(_type_has_dice(t, visiting) for t in hints(tp).values())
    return False


__all__ = ["D6", "DICE", "Die", "fill_rolls", "fill_rolls_at", "value"]
