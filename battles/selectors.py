"""Reads of the battle log and its projections, each at a fixed query count."""
from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec
from django.db import connection
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from battles import engine
from battles.log import chain, dice_commit, tail
from campaign import selectors as campaign_selectors
from campaign.models import Campaign, CampaignEvent, CampaignStatus, Objective, Proposal
from config import rows
from rosters import selectors as roster_selectors
from rosters.cards import Card, character_cards_load, design_load, roster_cards_load

from .engine import rules_data, visibility
from .engine.terms import readable
from .gamedata import OWNED_KEYS, game_data_rules
from .models import (
    Battle,
    BattleEvent,
    BattleEventOutcome,
    BattleParticipant,
    BattleProjection,
    RulesDataVersion,
    RulesSetting,
)

EVENT_FIELDS = ("seq", "type", "data", "schema_version")


def battle_rules(*, battle: Battle) -> dict[str, Any]:
    """Rules data for the engine: the battle's snapshot of the game master's settings (the engine fills
    everything else with its defaults). The game data and settings are v11.2's: a FoW battle plays on the
    FoW engine's own defaults (``battles.engine.fow.rules_data``)."""
    return snapshot_rules(rules=battle.rules, ruleset=battle_ruleset(battle=battle))


def snapshot_rules(*, rules: dict[str, Any] | None, ruleset: str) -> dict[str, Any]:
    """``battle_rules`` from a battle's stored snapshot (``None`` before its first event) and ruleset."""
    return rules if rules is not None else (rules_settings() if ruleset == "v11.2" else {})


def battle_ruleset(*, battle: Battle) -> str:
    """The ruleset the battle is replayed by: its campaign's (load the battle
    with ``select_related("campaign")`` to save the query)."""
    return battle.campaign.ruleset


def rules_settings() -> dict[str, Any]:
    """The rules data a new battle is played under, as overrides of the engine defaults: the game data
    (``battles.gamedata.game_data_rules``: infantry table, roster rules) plus the game master's
    ``RulesSetting`` rows for the keys the game data does not own (rows for owned keys are superseded
    and ignored). Tables are merged with the default, key by key. 3 queries."""
    rows = dict(RulesSetting.objects.exclude(key__in=list(OWNED_KEYS)).values_list("key", "value"))
    return rules_settings_from(rows=rows, game_data=game_data_rules())


def rules_snapshot() -> tuple[int, dict[str, Any]]:
    """``rules_settings`` with the rules data's version (``RulesDataVersion``, which PostgreSQL's triggers
    number anew at every change) read before it, its row recreated with a number never given before if it
    was lost (say, to a flush). PostgreSQL only; 5 queries."""
    table = RulesDataVersion._meta.db_table
    with connection.cursor() as cur:
        cur.execute(f"INSERT INTO {table} (id, version) VALUES (1, nextval('shtab_rules_data_seq')) "
                    f"ON CONFLICT (id) DO NOTHING")
        cur.execute(f"SELECT version FROM {table} WHERE id = 1")
        version = cur.fetchone()[0]
    return version, rules_settings()


@dataclass(frozen=True)
class RulesDataRow:
    """One rules-data key as the game master sees it: its default, the value
    new battles use, its catalog gap (G-n) or reading, and where it is set."""

    key: str
    default: Any
    value: Any
    gap: str  # "G-n" when the default has no seed basis, else ""
    reading: str  # the catalog reading the default adopts, else ""
    source: str  # "default" (engine default in use), "setting" (a RulesSetting row), "game_data" (OWNED_KEYS)
    setting_id: int | None

    @property
    def placeholder(self) -> bool:
        """A gap's default still in use: the mark goes once the game master sets the key."""
        return bool(self.gap) and self.source == "default"


def rules_data_overview() -> list[RulesDataRow]:
    """Every rules-data default (``engine.DEFAULT_RULES``) with the value new
    battles use, in key order: the game master sees each placeholder (G-n) in
    use, not only the keys he has set. 3 queries."""
    rows = {k: (pk, v) for pk, k, v in RulesSetting.objects.values_list("pk", "key", "value")}
    in_use = rules_settings_from(rows={k: v for k, (_pk, v) in rows.items()}, game_data=game_data_rules())
    out = []
    for key in sorted(engine.DEFAULT_RULES):
        default = engine.DEFAULT_RULES[key]
        source = "game_data" if key in OWNED_KEYS else "setting" if key in rows else "default"
        out.append(RulesDataRow(
            key=key, default=default, value=in_use.get(key, default), gap=rules_data.PLACEHOLDERS.get(key, ""),
            reading=rules_data.READINGS.get(key, ""), source=source,
            setting_id=rows[key][0] if key in rows else None))
    return out


def posture_moves() -> dict[str, float]:
    """How far a unit moves in each posture (G-4: the ``postures`` rules key, the
    game master's setting laid over the engine's default), for the formulary
    cards (installed in ``rosters.selectors.BATTLE_READS``). 1 query."""
    rows = dict(RulesSetting.objects.filter(key="postures").values_list("key", "value"))
    postures = rules_settings_from(rows=rows, game_data={}).get("postures") or engine.DEFAULT_RULES["postures"]
    return {p: float(v.get("move", 0) or 0) for p, v in postures.items() if isinstance(v, dict)}


def rules_settings_from(*, rows: dict[str, Any], game_data: dict[str, Any]) -> dict[str, Any]:
    """``rules_settings`` from already-read rows and game data (no query)."""
    out: dict[str, Any] = {}
    for key, value in [*((k, v) for k, v in rows.items() if k not in OWNED_KEYS), *game_data.items()]:
        default = engine.DEFAULT_RULES.get(key)
        out[key] = {**default, **value} if isinstance(default, dict) and isinstance(value, dict) else value
    return out


def battle_events_list(*, battle_id: int, after: int = 0, limit: int = 100) -> QuerySet[BattleEvent]:
    return (BattleEvent.objects.filter(battle_id=battle_id, seq__gt=after)
            .select_related("recorded_by").order_by("seq")[:limit])


def events_after_position(*, position: int = 0, limit: int = 100) -> QuerySet[BattleEvent]:
    """Global catch-up feed across all battles in commit order (see LogPosition)."""
    return BattleEvent.objects.filter(position__gt=position).order_by("position")[:limit]


def iter_engine_events(*, battle_id: int, after: int = 0, upto: int | None = None,
                       chunk: int = 5000) -> Iterator[list[engine.Event]]:
    """Stored events as engine events, in seq order, ``chunk`` rows per query.

    One plain query a chunk, the JSON decoded as ``JSONField.from_db_value``
    does (``json.loads`` of the text the backend returns), without the ORM's
    per-row converters, which cost a rebuild more than its decoding
    (bench/HISTORY.md); ``test_replay.py`` and the catch-up tests read through it."""
    q = connection.ops.quote_name
    sql = (f"SELECT {q('seq')}, {q('type')}, {q('data')}, {q('schema_version')} "
           f"FROM {q(BattleEvent._meta.db_table)} WHERE {q('battle_id')} = %s AND {q('seq')} > %s"
           + (f" AND {q('seq')} <= %s" if upto is not None else "") + f" ORDER BY {q('seq')} LIMIT %s")
    loads = json.loads
    last = after
    while True:
        with connection.cursor() as cur:
            cur.execute(sql, [battle_id, last, *([upto] if upto is not None else []), chunk])
            rows = cur.fetchall()
        if not rows:
            return
        yield [engine.Event(seq, type_, loads(data) if isinstance(data, (str, bytes)) else data, ver)
               for seq, type_, data, ver in rows]
        last = rows[-1][0]
        if len(rows) < chunk:
            return


@dataclass(frozen=True)
class DiceVerdict:
    """The committed dice of a battle (``battles.log.dice_commit``) as the
    verifier found them: ``commitment`` is public from the start; ``secret``
    is given only once revealed (``revealed``), and is ``None`` before, though
    the server checked with it all the same; ``commitment_ok``: the secret's
    SHA-256 is the commitment; ``checked`` dice derived from it were
    re-derived, and ``first_bad_seq`` is the first seq holding one that is not
    its derivation (``None``: all are); ``uncommitted`` dice the service drew
    from ``secrets`` (before the scheme, or after the reveal), which nothing
    can re-derive."""

    commitment: str
    secret: str | None
    revealed: bool
    commitment_ok: bool
    checked: int
    first_bad_seq: int | None
    uncommitted: int
    # The pre-battle command roll's dice (V-RANK-9, V-RANK-10; ``dice_commit.command_path``): how many
    # derived dice were re-derived, the first roll ({side, round}) holding one that is not its
    # derivation, and every service die of the rolls (side, round, character, value, rng), for a
    # reader to re-derive once the secret is revealed. Their uncommitted dice count in ``uncommitted``.
    command_checked: int = 0
    first_bad_command: dict[str, Any] | None = None
    command_dice: tuple[dict[str, Any], ...] = ()

    @property
    def ok(self) -> bool:
        return self.commitment_ok and self.first_bad_seq is None and self.first_bad_command is None


@dataclass(frozen=True)
class LogVerdict:
    """``battle_log_verify``'s answer: ``checked`` events were found chained
    right from the first; ``first_broken_seq`` is the first seq whose stored
    chain is not the one its content and its predecessor give (or that is
    missing: a deleted row), ``None`` when the whole log holds;
    ``head_chain`` is the chain the battle's head event stores (the genesis
    of an empty log); ``dice``: its committed dice (``None`` for a battle
    without a secret); ``ok``: the chain and the dice hold."""

    battle_id: int
    head_seq: int
    ok: bool
    checked: int
    first_broken_seq: int | None
    head_chain: str | None
    dice: DiceVerdict | None = None


def battle_dice_revealed(*, battle: Battle) -> bool:
    """May the battle's dice secret be served? Once its log holds
    ``battle_ended`` (the store marks the seq), or its campaign is finished
    (its logs are closed): no die can be derived from it after. Never before,
    to anyone. No query when the campaign was read with the battle."""
    return battle.dice_revealed_seq is not None or battle.campaign.status == CampaignStatus.FINISHED


def battle_log_verify(*, battle_id: int, chunk: int = 5000) -> LogVerdict | None:
    """Recompute the battle's hash chain (``battles.log.chain``) from its stored
    rows, in seq order, ``chunk`` rows a query, and compare it with the chains
    they store; check its dice commitment and re-derive every die the service
    derived (``battles.log.dice_commit``), the command rolls' too (``_command_dice``);
    ``None`` for an unknown battle. One query for the head, then one a chunk
    (every row is read: a die is checked past a break of the chain too), then
    one for the command rolls."""
    q = connection.ops.quote_name
    events = q(BattleEvent._meta.db_table)
    with connection.cursor() as cur:
        cur.execute(f"SELECT b.{q('head_seq')}, (SELECT e.{q('chain')} FROM {events} e WHERE e.{q('battle_id')} = "
                    f"b.{q('id')} AND e.{q('seq')} = b.{q('head_seq')}), b.{q('dice_secret')}, "
                    f"b.{q('dice_commitment')}, b.{q('dice_revealed_seq')}, c.{q('ruleset')}, c.{q('status')} "
                    f"FROM {q(Battle._meta.db_table)} b JOIN {q(Campaign._meta.db_table)} c "
                    f"ON c.{q('id')} = b.{q('campaign_id')} WHERE b.{q('id')} = %s", [battle_id])
        row = cur.fetchone()
    if row is None:
        return None
    head_seq, stored_head, secret, commitment, revealed_seq, ruleset, status = row
    head_chain = stored_head if head_seq else chain.genesis(battle_id)
    key, sides = dice_commit.key(secret), dice_commit.SIDES[ruleset]
    sql = (f"SELECT {q('seq')}, {q('type')}, {q('schema_version')}, {q('data')}, {q('key')}, {q('chain')} "
           f"FROM {events} WHERE {q('battle_id')} = %s AND {q('seq')} > %s ORDER BY {q('seq')} LIMIT %s")
    previous, checked, broken, last = chain.genesis(battle_id), 0, None, 0
    dice_checked, bad, uncommitted = 0, None, 0
    while True:
        with connection.cursor() as cur:
            cur.execute(sql, [battle_id, last, chunk])
            rows = cur.fetchall()
        for seq, type_, version, data, ev_key, stored in rows:
            data = json.loads(data) if isinstance(data, (str, bytes)) else data
            if broken is None:
                if seq != checked + 1:  # a row is missing
                    broken = checked + 1
                else:
                    previous = chain.link(previous, battle_id=battle_id, seq=seq, type=type_, schema_version=version,
                                          data=data, key=ev_key)
                    if stored != previous:
                        broken = seq
                    else:
                        checked = seq
            for path, value in dice_commit.derived_dice(data):
                dice_checked += 1
                if bad is None and (key is None or value != dice_commit.derive(
                        key, battle_id=battle_id, seq=seq, path=path, sides=sides)):
                    bad = seq
            uncommitted += dice_commit.uncommitted_dice(data)
            last = seq
        if len(rows) < chunk:
            break
    if broken is None and checked != head_seq:  # rows missing at the head (or past it: the head was moved back)
        broken = min(checked, head_seq) + 1
    command = _command_dice(battle_id, key)
    dice = None
    if secret or commitment or dice_checked or command.dice:
        revealed = revealed_seq is not None or status == CampaignStatus.FINISHED
        dice = DiceVerdict(commitment, secret if revealed else None, revealed,
                           key is not None and dice_commit.commitment(secret) == commitment, dice_checked, bad,
                           uncommitted + command.uncommitted, command.checked, command.first_bad, command.dice)
    return LogVerdict(battle_id, head_seq, broken is None and (dice is None or dice.ok), checked, broken, head_chain,
                      dice)


@dataclass(frozen=True)
class _CommandDice:
    checked: int
    first_bad: dict[str, Any] | None
    uncommitted: int
    dice: tuple[dict[str, Any], ...]


def _command_dice(battle_id: int, key: bytes | None) -> _CommandDice:
    """The service's dice of the battle's command rolls (campaign events,
    V-RANK-9, V-RANK-10), each derived one re-derived from the secret's bytes
    ``key`` at seq 0, path ``["command_roll", side, round, character]``
    (``dice_commit.command_die``). One query."""
    checked, bad, uncommitted, dice = 0, None, 0, []
    rows = CampaignEvent.objects.filter(battle_id=battle_id, type="command_roll").order_by("id")
    for data in rows.values_list("data", flat=True):
        side, round_ = data.get("side"), data.get("round")
        for character, die in sorted((data.get("rolls") or {}).items()):
            if not isinstance(die, dict) or die.get("source") != "rolled":
                continue
            rng = die.get("rng")
            dice.append({"side": side, "round": round_, "character": character, "value": die.get("value"),
                         "rng": rng})
            if rng == dice_commit.UNCOMMITTED:
                uncommitted += 1
            elif rng == dice_commit.RNG:
                checked += 1
                if bad is None and (key is None or die.get("value") != dice_commit.command_die(
                        key, battle_id=battle_id, side=side, round=round_, character=character)):
                    bad = {"side": side, "round": round_}
    return _CommandDice(checked, bad, uncommitted, tuple(dice))


def battle_log_hides(*, battle_id: int, side: str | None, game_master: bool) -> bool:
    """Does the battle's log hold an event whose content is hidden from this
    reader (an enemy sapper's work on a mine he may not know of, V-MINE-14)?
    Then the chain after it must not reach him: with the chains before and
    after, he could try every likely payload. Two queries at most; fails
    closed (a projection behind the log knows of fewer mines)."""
    if game_master:
        return False
    secret = list(BattleEvent.objects.filter(battle_id=battle_id, type__in=("sapper_worked", "sapper_approached"))
                  .values_list("type", "data"))
    if not secret:
        return False
    view = battle_state_get(battle_id=battle_id)
    state = view.state if view is not None else {}
    return any(visibility.event_for(type_, data, side=side, game_master=False, state=state).get(visibility.REDACTED)
               for type_, data in secret)


@dataclass(frozen=True)
class StateView:
    battle_id: int
    seq: int
    head_seq: int
    state: dict[str, Any]
    updated_at: Any

    @property
    def current(self) -> bool:
        return self.seq >= self.head_seq


STATE_TEXTS: dict[int, tuple[int, Any, str]] = {}  # battle -> (seq, updated_at, the state's JSON text)
STATE_TEXTS_LIMIT = 256  # battles a process keeps (a state is some 50 kB); past it the store starts over


def battle_state_get(*, battle_id: int) -> StateView | None:
    """The stored projection (one query); never replays on request. The state
    comes as text and is decoded by msgspec (the battle page reads it on every
    render: a third of the ORM's time for the model instances and its JSON).

    The text of a battle's projection is kept in the process (``STATE_TEXTS``)
    under its seq and update time: the query then sends the state only when
    its seq moved (a 50 kB state cast from jsonb and sent cost more than the
    rest of the query), and a projection rewritten at the same seq (a rebuild)
    is read again. Every caller decodes its own copy, so none shares a dict."""
    q = connection.ops.quote_name
    battles, projections = Battle._meta.db_table, BattleProjection._meta.db_table
    kept = STATE_TEXTS.get(battle_id)
    skip = kept[0] if kept is not None else -1
    while True:
        with connection.cursor() as cur:  # a plain query: the ORM's compiling of it cost as much as the rest
            cur.execute(f"SELECT b.{q('id')}, b.{q('head_seq')}, c.{q('ruleset')}, p.{q('seq')}, "
                        f"CASE WHEN p.{q('seq')} = %s THEN NULL ELSE CAST(p.{q('state')} AS text) END, "
                        f"p.{q('updated_at')} FROM {q(battles)} b "
                        f"JOIN {q(Campaign._meta.db_table)} c ON c.{q('id')} = b.{q('campaign_id')} "
                        f"LEFT JOIN {q(projections)} p ON p.{q('battle_id')} = b.{q('id')} WHERE b.{q('id')} = %s",
                        [skip, battle_id])
            row = cur.fetchone()
        if row is None:
            return None
        pk, head, ruleset, seq, state, updated_at = row
        if seq is None or state is not None or kept is None or kept[1] == updated_at:
            break
        skip = -1  # the same seq, written again since it was kept: the text once more
    if updated_at is not None and timezone.is_naive(updated_at):  # SQLite keeps UTC without its zone
        updated_at = timezone.make_aware(updated_at, datetime.UTC)
    if seq is None:
        return StateView(pk, 0, head, engine.state_to_json(engine.new_state(ruleset)), None)
    if state is None:
        state = kept[2]
    else:
        if len(STATE_TEXTS) >= STATE_TEXTS_LIMIT:
            STATE_TEXTS.clear()
        STATE_TEXTS[battle_id] = (seq, row[5], state)
    return StateView(pk, seq, head, msgspec.json.decode(state), updated_at)


def battle_last_change(*, battle_id: int) -> Any:
    """When what the battle's state and log answers show last changed: its last
    event's recording or its projection's update, whichever is later (None
    before either; 1 query). The API's Last-Modified (config.conditional)."""
    last_event = BattleEvent.objects.filter(battle_id=OuterRef("pk")).order_by("-seq").values("recorded_at")[:1]
    row = Battle.objects.filter(pk=battle_id).values_list(Subquery(last_event), "projection__updated_at").first()
    return max((m for m in row or () if m is not None), default=None)


def battles_lagging() -> QuerySet[Battle]:
    """Battles whose projection is behind their log (or missing)."""
    return Battle.objects.filter(
        Q(projection__isnull=True, head_seq__gt=0) | Q(head_seq__gt=F("projection__seq"))
    ).order_by("id")


def battle_names(*, battle_id: int) -> dict[str, str]:
    """Display names of the battle's units, fighters and vehicles, as the
    roster had them when it was mustered (the ``name`` of each spec in the
    ``force_mustered`` events; one query). Ids without a name are absent:
    callers fall back to a readable label, never the raw id alone."""
    names: dict[str, str] = dict(BattleParticipant.objects.filter(battle_id=battle_id).exclude(player="")
                                 .values_list("player", "character__name"))  # players by their characters
    for data in (BattleEvent.objects.filter(battle_id=battle_id, type="force_mustered").order_by("seq")
                 .values_list("data", flat=True)):
        tail.muster_names(data, names)
    return names


def battle_log_page(*, battle_id: int, before: int | None = None, limit: int = 50) -> list[BattleEvent]:
    """One page of the log for the battle page, in seq order: the latest
    ``limit`` events, or the ``limit`` events before seq ``before`` (one
    query, whatever the log's length)."""
    qs = BattleEvent.objects.filter(battle_id=battle_id)
    if before is not None:
        qs = qs.filter(seq__lt=before)
    rows = list(qs.select_related("recorded_by").order_by("-seq")[:limit])
    rows.reverse()
    return rows


def battle_outcomes(*, battle_id: int, first: int, last: int) -> dict[int, list[dict[str, Any]]]:
    """What the events ``first``..``last`` did (``engine.effects``), by seq (one
    query: a plain one, as every live answer of a battle page asks, and the
    ORM's compiling of it cost more than the reading)."""
    q, table = connection.ops.quote_name, BattleEventOutcome._meta.db_table
    with connection.cursor() as cur:
        cur.execute(f"SELECT {q('seq')}, CAST({q('effects')} AS text) FROM {q(table)} "
                    f"WHERE {q('battle_id')} = %s AND {q('seq')} >= %s AND {q('seq')} <= %s", [battle_id, first, last])
        return {seq: msgspec.json.decode(effects) for seq, effects in cur.fetchall()}


def battle_void_preview(*, battle: Battle, seq: int) -> list[int]:
    """What voiding entry ``seq`` would take with it: the later entries that
    would then do something else or nothing at all (their outcome changes, or
    they lose what they acted on). The log folded without it, its effects
    compared with the stored ones (``engine.effects``); nothing is written.
    Raises the engine's ``RuleViolation`` when the correction itself would be
    refused (the muster, V-TURN-13): the engine decides, the page only asks."""
    ruleset = battle.campaign.ruleset
    events = [e for chunk in iter_engine_events(battle_id=battle.id) for e in chunk]
    skip = engine.voided_by(events)
    rules = battle_rules(battle=battle)
    now: dict[int, list[dict[str, Any]]] = {}
    before = engine.fold(events, None, rules, skip=skip, ruleset=ruleset, effects=now)
    engine.decide(before, [("correction", {"voids_seq": seq, "reason": "?"}, None)], first_seq=before.last_seq + 1,
                  rules=rules, history=lambda: events, ruleset=ruleset)
    # Without it: each later entry judged again as if appended now (would the engine still take it?),
    # then folded, its outcome compared with today's.
    gone = skip | {seq}
    state = engine.fold([e for e in events if e.seq < seq], None, rules, skip=gone, ruleset=ruleset)
    then: dict[int, list[dict[str, Any]]] = {}
    refused: set[int] = set()
    for e in events:
        if e.seq < seq:
            continue
        if e.seq not in gone and e.type != "correction":
            try:
                engine.decide(state, [(e.type, e.data, e.version)], first_seq=e.seq, rules=rules, ruleset=ruleset)
            except (engine.RuleViolation, engine.PayloadError):
                refused.add(e.seq)
        state = engine.fold([e], state, rules, skip=gone, copy=False, ruleset=ruleset, effects=then)
    lost = set(state.unapplied) - set(before.unapplied)
    changed = {s for s in set(now) | set(then) if s > seq and now.get(s) != then.get(s)}
    return sorted((lost | changed | refused) - {seq})


def battle_head(*, battle_id: int) -> tuple[int, int] | None:
    """(head seq, projection seq) of a battle, for live polling (one query).

    Every open battle page asks this every second: one plain query, without
    the ORM's compiling of it, the larger part of a poll that finds nothing."""
    q = connection.ops.quote_name
    with connection.cursor() as cur:
        cur.execute(f"SELECT b.{q('head_seq')}, p.{q('seq')} FROM {q(Battle._meta.db_table)} b "
                    f"LEFT JOIN {q(BattleProjection._meta.db_table)} p ON p.{q('battle_id')} = b.{q('id')} "
                    f"WHERE b.{q('id')} = %s", [battle_id])
        row = cur.fetchone()
    if row is None:
        return None
    return row[0], row[1] or 0


def battle_proposals(*, battle_id: int) -> list[Any]:
    """The award and promotion proposals a battle produced (one query)."""
    return list(Proposal.objects.filter(battle_id=battle_id).select_related("character", "award", "rule")
                .order_by("id"))


def battle_states(*, battle_ids: set[int]) -> dict[int, dict[str, Any]]:
    """Stored projections of several battles (one query; a battle without a
    projection is absent)."""
    if not battle_ids:
        return {}
    return dict(BattleProjection.objects.filter(battle_id__in=battle_ids).values_list("battle_id", "state"))


def user_sides(*, user: Any, battle_ids: set[int]) -> dict[int, str]:
    """The side this user fights for in each of these battles (one query;
    none for the anonymous)."""
    if not battle_ids or not getattr(user, "is_authenticated", False):
        return {}
    return dict(BattleParticipant.objects.filter(battle_id__in=battle_ids, character__owner_id=user.pk)
                .values_list("battle_id", "side"))


def error_with_names(exc: Any, *, battle_id: int) -> Any:
    """The same application error, its messages naming pieces by their roster
    names, never their ids (``battles.engine.terms.readable``; one query)."""
    names = battle_names(battle_id=battle_id)
    exc.message_ru = readable(exc.message_ru, names=names, language="ru")
    exc.message_en = readable(exc.message_en, names=names, language="en")
    return exc


# --- what campaign and rosters read of battles (installed in their BATTLE_READS) ---------------
def battles_of_campaign(*, campaign: Campaign) -> list[Battle]:
    """The campaign's battles by number (1 query)."""
    return list(Battle.objects.filter(campaign=campaign).order_by("number", "id"))


def battles_running(*, campaign: Campaign) -> list[Battle]:
    """The campaign's battles that have started and not ended (the projection's
    status), in 1 query."""
    battles = Battle.objects.filter(campaign=campaign, head_seq__gt=0).select_related("projection")
    return [b for b in battles if (getattr(b, "projection", None) is None
                                   or (b.projection.state or {}).get("status") != "ended")]


def roster_holders() -> QuerySet:
    """The participations that lock a roster: mustered into a battle that has
    not ended, the latest first (``battles.setup.muster`` locks a roster at the
    muster; ``rosters_release`` unlocks it when the battle ends)."""
    return (BattleParticipant.objects.filter(mustered_seq__isnull=False)
            .exclude(battle__projection__state__status="ended").order_by("-mustered_at", "-id"))


def roster_fought() -> Exists:
    """For a queryset of rosters: the roster was brought to a battle (its force is public in the log)."""
    return Exists(BattleParticipant.objects.filter(roster=OuterRef("pk")))


def reads_install() -> None:
    """Give campaign and rosters their reads of battles (battles.apps, at start-up)."""
    campaign_selectors.BATTLE_READS.update(of_campaign=battles_of_campaign, running=battles_running)
    roster_selectors.BATTLE_READS.update(holders=roster_holders, fought=roster_fought, moves=posture_moves)


def battle_campaign_events(*, battle: Battle) -> list[CampaignEvent]:
    """The campaign events of one battle (its command, result and proposals' decisions), 1 plain query."""
    return rows.select_with_parent(CampaignEvent, "character", 'a."battle_id" = %s ORDER BY a."id"', [battle.pk])


def battle_objectives(*, battle_id: int) -> list[Objective]:
    """The objectives a battle is fought for, in their campaign's order: 1 plain query."""
    q, through = connection.ops.quote_name, Battle.objectives.through._meta
    return rows.select(Objective, f"a.{q('id')} IN (SELECT {q(through.get_field('objective').column)} FROM "
                                  f"{q(through.db_table)} WHERE {q(through.get_field('battle').column)} = %s) "
                                  f"ORDER BY a.{q('campaign_id')}, a.{q('order')}, a.{q('id')}", [battle_id])


def battle_side_cards_load(*, battle_id: int, side: str, user: Any) -> list[Card]:
    """Every participant's roster on one side of a battle, in one list, for
    the game master to print before the battle. Each roster is read through
    the roster-visibility rule (``rosters_visible``); a participant without a
    roster brings his character's cards."""
    participants = list(BattleParticipant.objects.filter(battle_id=battle_id, side=side)
                        .select_related("character__nationality").order_by("id"))
    visible = set(roster_selectors.rosters_visible(user=user).filter(pk__in=[p.roster_id for p in participants if p.roster_id])
                  .values_list("pk", flat=True))
    design = design_load()
    out: list[Card] = []
    for p in participants:
        if p.roster_id in visible:
            out += roster_cards_load(roster_id=p.roster_id, design=design)
        elif p.roster_id is None:
            out += character_cards_load(character=p.character, design=design)
    return out
