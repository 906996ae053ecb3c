"""Folding events into state, and deciding whether new events may be appended.

``fold`` is the replay: trusted, stored events go in, state comes out, no
checks run and nothing is rolled. ``decide`` is the append-time gate: each
new event is validated (payload, then every rule check) against the state the
previous ones produced; the first refusal raises and nothing is appended.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .effects import Recorder
from .errors import PayloadError, RuleViolation
from .events import REGISTRY, Context, Event
from .rules_data import DEFAULT_RULES as _DATA_DEFAULTS
from .state import BattleState

DEFAULT_RULES: dict[str, Any] = dict(_DATA_DEFAULTS)


def _parts(ruleset: Any) -> tuple[Any, type, dict[str, Any]]:
    """(registry, state class, default rules) of ``ruleset`` (None: v11.2)."""
    if ruleset is None:
        return REGISTRY, BattleState, DEFAULT_RULES
    from .rulesets import get  # a cycle: rulesets imports this module (its DEFAULT_RULES)

    rs = get(ruleset)
    return rs.registry, rs.state_cls, rs.default_rules


def merge_rules(rules: Mapping[str, Any] | None, ruleset: Any = None) -> dict[str, Any]:
    """The defaults (of ``ruleset``, default v11.2) overlaid by the game
    master's ``rules``; a table (dict) is merged key by key, so a partial
    table overrides only what it names."""
    out = dict(_parts(ruleset)[2])
    for key, val in (rules or {}).items():
        base = out.get(key)
        out[key] = {**base, **val} if isinstance(base, dict) and isinstance(val, dict) else val
    return out


# What a mutator raises when a later correction voided what the event relied on (the muster of its
# fighter: a KeyError or an IndexError; a train's entry, which put its escort aboard, for the escort leaving
# it: ``list.remove``'s ValueError): the event stands in the log and is recorded as unapplied.
NOTHING_TO_ACT_ON = (LookupError, StopIteration, AttributeError, TypeError, ValueError)


class SequenceGap(Exception):
    """Events must arrive as last_seq + 1, + 2, ...; anything else is a bug upstream."""


def voided_by(events: Iterable[Event]) -> set[int]:
    return {e.data["voids_seq"] for e in events if e.type == "correction"}


def requires_rebuild(state: Any, events: Sequence[Event]) -> bool:
    """True when ``events`` void something ``state`` has already applied, so the
    state must be folded again from the first event."""
    return any(seq <= state.last_seq for seq in voided_by(events))


def fold(
    events: Iterable[Event],
    state: BattleState | None = None,
    rules: Mapping[str, Any] | None = None,
    *,
    skip: Iterable[int] = (),
    copy: bool = True,
    ruleset: Any = None,
    effects: dict[int, list[dict[str, Any]]] | None = None,
) -> Any:
    """Apply ``events`` (consecutive seqs following ``state.last_seq``) to a copy
    of ``state`` and return it. With ``copy=False`` the caller hands ``state``
    over and it is folded in place (replaying a long log chunk by chunk).

    Voided events are skipped: those voided by corrections among ``events``,
    and ``skip`` (the caller may pass every seq voided anywhere in the log, so
    a log can be folded in chunks). Precondition: none of ``events`` voids an
    event already applied to ``state`` (check ``requires_rebuild`` first).

    ``ruleset`` ("v11.2" by default, or "fow") picks the event registry, the
    state class and the default rules data (``rulesets.RULESETS``).

    ``effects``, when given, receives each applied event's outcome by seq
    (``effects.Recorder``: the dice with what they needed, and the fates the
    event changed), for the log's sentences.
    """
    registry, state_cls, _defaults = _parts(ruleset)
    state = state_cls() if state is None else (state.copy() if copy else state)
    recorder = Recorder(effects) if effects is not None else None
    _fold_into(state, events, merge_rules(rules, ruleset), set(skip), registry, recorder)
    return state


def _fold_into(state: Any, events: Iterable[Event], ctx_rules: dict[str, Any], skip: set[int],
               registry: Any = REGISTRY, recorder: Any = None) -> None:
    events = events if isinstance(events, Sequence) else list(events)
    skip |= set(state.voided)
    skip |= voided_by(events)
    last = state.last_seq
    applied = 0
    ctx = Context(last, ctx_rules)
    for event in events:
        if event.seq != last + 1:
            raise SequenceGap(f"expected seq {last + 1}, got {event.seq}")
        last = event.seq
        if event.seq in skip:
            continue
        entry = registry[event.type]
        mutate = entry.mutate
        if mutate is not None:
            state.last_seq = last
            try:
                ctx.seq = last
                payload = entry.load(event)
                if recorder is not None:
                    recorder.before(state, event.type, payload, ctx_rules)
                mutate(state, payload, ctx)
                if recorder is not None:
                    recorder.after(last, state)
            except NOTHING_TO_ACT_ON:
                # The event was checked when appended, but a later correction
                # voided something it relied on (e.g. the muster of its fighter).
                # It stands in the log; replay records that it had nothing to act on.
                state.unapplied.append(event.seq)
                continue
        applied += 1
    state.last_seq = last
    state.applied += applied


Parsed = tuple[Any, Any, Any]  # (the event type's registry entry, the payload, its canonical dump)


def parse_batch(new: Sequence[tuple[str, Any, int | None]], *, ruleset: Any = None) -> list[Parsed]:
    """The payload check of ``decide``, alone: each of ``new`` = [(type, data,
    schema_version or None), ...] parsed (upcast to the current version) and
    dumped to the canonical form it is stored in. It needs no state: what an
    event says is checked here, whether the battle allows it in ``decide``.
    Raises ``PayloadError`` naming the field, prefixed ``events[i].``."""
    registry = _parts(ruleset)[0]
    out: list[Parsed] = []
    for i, (type_name, data, version) in enumerate(new):
        try:
            entry = registry.lookup(type_name)
            payload, dumped = entry.parse_dumped(data, version)
        except PayloadError as exc:
            exc.field = f"events[{i}].{exc.field}"
            raise
        out.append((entry, payload, dumped))
    return out


def decide(
    state: Any,
    new: Sequence[tuple[str, Any, int | None]],
    *,
    first_seq: int,
    rules: Mapping[str, Any] | None = None,
    history: Callable[[], Iterable[Event]] | None = None,
    ruleset: Any = None,
) -> list[Event]:
    """Validate ``new`` = [(type, data, schema_version or None), ...] as the
    events ``first_seq``, ``first_seq + 1``, ... after ``state``.

    Returns the normalised ``Event`` list (payloads as validated, upcast to the
    current schema version). Raises ``PayloadError`` naming the field (prefixed
    ``events[i].``) or ``RuleViolation`` naming the rule. ``state`` is not
    modified.

    ``history`` returns the stored events before ``first_seq``. It is called
    only when a correction in ``new`` voids an event already in ``state``, so
    the events after it are checked against the state without it (V-TURN-13).
    """
    return decide_and_apply(state.copy(), new, first_seq=first_seq, rules=rules, history=history,
                            ruleset=ruleset)[0]


def decide_and_apply(
    state: Any,
    new: Sequence[tuple[str, Any, int | None]],
    *,
    first_seq: int,
    rules: Mapping[str, Any] | None = None,
    history: Callable[[], Iterable[Event]] | None = None,
    authorize: Callable[[int, str, Any, Any], bool] | None = None,
    ruleset: Any = None,
    parsed: Sequence[Parsed] | None = None,
) -> tuple[list[Event], Any]:
    """``decide`` without the defensive copy: ``state`` is handed over (and
    changed); returns the events and the state after them. On a refusal the
    state is half-applied and must be dropped. The append path uses this to
    keep the state for the next append instead of rebuilding it.

    ``authorize(index, type, state, payload)`` decides who may record each
    event against the state just before it (``actors.authorize``); it raises
    to refuse, or returns True to leave an unknown piece to the checks, which
    must then refuse it.

    ``parsed`` is ``parse_batch(new, ruleset=ruleset)`` when the caller has
    it already (the append path writes the rows while the checks run)."""
    registry, state_cls, _defaults = _parts(ruleset)
    work = state
    ctx_rules = merge_rules(rules, ruleset)
    out: list[Event] = []
    if parsed is None:
        parsed = parse_batch(new, ruleset=ruleset)
    ctx = Context(first_seq, ctx_rules)  # one, its seq moved along, as a fold's (checks and mutators only read it)
    for i, (entry, payload, data) in enumerate(parsed):
        seq = ctx.seq = first_seq + i
        try:
            deferred = authorize is not None and authorize(i, entry.name, work, payload)
            for check in entry.checks:
                check(work, payload, ctx)
            if deferred:  # the recorder was left to the checks, and none refused: never let it through
                raise RuleViolation("S-UNKNOWN", "Событие называет неизвестного бойца, подразделение или технику.",
                                    "The event names an unknown fighter, unit or vehicle.")
        except RuleViolation as exc:
            exc.index = i  # type: ignore[attr-defined]
            raise
        event = Event(seq, entry.name, data, entry.version)
        out.append(event)
        if entry.name == "correction" and requires_rebuild(work, (event,)):  # only a correction voids
            if history is None:
                raise ValueError("decide() needs history to check events after a correction of an earlier event")
            work = state_cls()
            _fold_into(work, [*history(), *out], ctx_rules, set(), registry)
        else:
            _apply_decided(work, event, payload, ctx, entry)
    return out, work


def _apply_decided(state: Any, event: Event, payload: Any, ctx: Context, entry: Any) -> None:
    """``_fold_into(state, (event,), ...)`` for an event just decided, with the
    payload already parsed: it equals what ``entry.load`` rebuilds from the
    dump at replay (``tests/engine/test_replay_builder.py``), so the state
    after an append is the state a replay reaches, without building it twice."""
    if event.seq != state.last_seq + 1:
        raise SequenceGap(f"expected seq {state.last_seq + 1}, got {event.seq}")
    state.last_seq = event.seq
    if event.seq in state.voided or (event.type == "correction" and event.seq in voided_by((event,))):
        return
    mutate = entry.mutate
    if mutate is not None:
        try:
            mutate(state, payload, ctx)
        except NOTHING_TO_ACT_ON:
            state.unapplied.append(event.seq)  # as ``_fold_into``: nothing to act on
            return
    state.applied += 1
