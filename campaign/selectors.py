"""Reads for the public campaign pages. Each runs a fixed number of queries
whatever the campaign's size (tested), and reads projections, never replaying
on request. "As of battle N" folds the campaign log up to battle N instead of
reading the stored projection: the past is a replay, not a copy."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, IntegerField, Q, Subquery, Value, When

from . import chain, ledger
from .models import (
    Campaign,
    CampaignEvent,
    CampaignProjection,
    CampaignStatus,
    Character,
    Membership,
    Proposal,
    Standing,
)
from .roles import is_game_master

# What campaign pages read of battles: "of_campaign" (a campaign's battles, by number) and "running"
# (those started and not ended). battles, the app above campaign, installs them at start-up
# (battles.apps); campaign may not import it (.importlinter).
BATTLE_READS: dict[str, Callable[..., list[Any]]] = {}

SORTS = {"kills": "kills", "rank": "rank_order", "awards": "awards", "battles": "battles",
         "casualties": "casualties", "prestige": "prestige", "name": "name"}


def ledger_entries(qs) -> list[ledger.Entry]:
    """Campaign events as the ledger folds them, oldest first (one query)."""
    return [ledger.Entry(i, t, d, c, b, n) for i, t, d, c, b, n in
            qs.order_by("id").values_list("id", "type", "data", "character_id", "battle_id", "battle_number")]


def campaign_view(*, campaign: Campaign, as_of: int | None = None) -> ledger.View:
    """The campaign projection (1 query), or the log folded up to battle ``as_of``."""
    if as_of is None:
        proj = CampaignProjection.objects.filter(campaign=campaign).first()
        return ledger.View.from_json(proj.last_event_id, proj.data) if proj else ledger.View()
    return ledger.fold(ledger_entries(CampaignEvent.objects.filter(campaign=campaign, battle_number__lte=as_of)))


def as_of_exists(*, campaign: Campaign | int, as_of: int | None) -> bool:
    """``?as_of=N`` names a battle of the campaign that has been fought (its
    result is in the campaign log); beyond the last one there is nothing to
    show, and the pages answer 404 rather than a state that never was.
    No query when ``as_of`` is not given."""
    if as_of is None:
        return True
    return CampaignEvent.objects.filter(campaign=campaign, battle_number=as_of).exists()


@dataclass(frozen=True)
class Overview:
    campaign: Campaign
    view: ledger.View
    battles: list[Any]
    objectives: list[dict[str, Any]]
    as_of: int | None
    battle_numbers: list[int]


def campaign_overview(*, campaign_id: int, as_of: int | None = None) -> Overview | None:
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        return None
    view = campaign_view(campaign=campaign, as_of=as_of)
    battles = BATTLE_READS["of_campaign"](campaign=campaign)
    results = {p["battle"]: p["winner"] for p in view.progress}
    for b in battles:
        b.result = results.get(b.pk)
    objectives = []
    for obj in campaign.objectives.all():
        held = view.objectives.get(str(obj.pk), {})
        objectives.append({"objective": obj, "holder": held.get("holder", ""),
                           "since_battle": held.get("since_battle")})
    numbers = sorted({p["number"] for p in view.progress} if as_of is None else
                     {b.number for b in battles if b.result})
    return Overview(campaign, view, [b for b in battles if as_of is None or b.number <= as_of], objectives, as_of,
                    numbers)


def campaign_version(*, campaign: Campaign) -> int:
    """The campaign projection's version: the last campaign event folded in."""
    try:  # no query when the campaign was loaded with select_related("projection")
        return campaign.projection.last_event_id
    except CampaignProjection.DoesNotExist:
        return 0


@dataclass(frozen=True, slots=True)
class TableRow:
    character_id: int
    name: str
    side: str
    rank: str
    rank_title: str
    awards: int
    battles: int
    kills: int
    casualties: int
    prestige: int


def _rank_fields(language: str) -> list[str]:
    suffix = "ru" if language.startswith("ru") else "en"
    return [f"character__nationality__{r}_{suffix}" for r in ledger.RANKS]


def standings_table(*, campaign: Campaign, as_of: int | None = None, sort: str = "kills",
                    descending: bool = True, limit: int = 100, offset: int = 0,
                    language: str = "ru") -> tuple[list[TableRow], int]:
    """The players' table, sorted, one page, as plain rows (no model instances:
    this is the busiest page). Current standings read the ``Standing``
    projection (2 queries: count + page); as-of folds the log (2 queries)."""
    key = SORTS.get(sort, "kills")
    titles = _rank_fields(language)
    if as_of is None:
        qs = Standing.objects.filter(campaign=campaign)
        if key == "rank_order":
            qs = qs.annotate(rank_order=Case(*[When(rank=r, then=Value(i)) for i, r in enumerate(ledger.RANKS)],
                                             default=Value(0), output_field=IntegerField()))
        field = "character__name" if key == "name" else key
        order = ("-" if descending else "") + field
        total = qs.count()
        page = qs.order_by(order, "character__name", "character_id").values_list(
            "character_id", "character__name", "side", "rank", "awards", "battles", "kills", "casualties",
            "prestige", *titles)[offset:offset + limit]
        return [TableRow(c, n, side, rank, names[ledger.RANKS.index(rank)] if rank in ledger.RANKS else rank,
                         a, b, k, cas, p)
                for c, n, side, rank, a, b, k, cas, p, *names in page], total
    view = ledger.fold(ledger_entries(CampaignEvent.objects.filter(campaign=campaign, battle_number__lte=as_of)))
    info = {c: (n, names) for c, n, *names in Character.objects.filter(pk__in=list(view.rows)).values_list(
        "id", "name", *[t.removeprefix("character__") for t in titles])}
    rows = [TableRow(r.character_id, info[r.character_id][0], r.side, r.rank,
                     info[r.character_id][1][ledger.RANKS.index(r.rank)] if r.rank in ledger.RANKS else r.rank,
                     r.awards, r.battles, r.kills, r.casualties, r.prestige)
            for r in view.rows.values() if r.character_id in info]
    rank_order = {r: i for i, r in enumerate(ledger.RANKS)}
    rows.sort(key=lambda r: r.name)
    rows.sort(key=lambda r: rank_order.get(r.rank, 0) if key == "rank_order" else
              (r.name if key == "name" else getattr(r, key)), reverse=descending)
    return rows[offset:offset + limit], len(rows)


def standings_last_change(*, campaign_id: int) -> Any:
    """When the campaign's standings last changed: the update of the projection
    they are read from (it folds every campaign event, in the event's
    transaction), None before it exists. 1 query. The API's Last-Modified
    (config.conditional)."""
    return CampaignProjection.objects.filter(campaign_id=campaign_id).values_list("updated_at", flat=True).first()


def chronicle(*, campaign: Campaign, as_of: int | None = None, limit: int = 200) -> list[CampaignEvent]:
    """What happened, newest first, each entry with its source (1 query)."""
    qs = CampaignEvent.objects.filter(campaign=campaign).exclude(type__in=["command_roll", "side_assigned"])
    if as_of is not None:
        qs = qs.filter(battle_number__lte=as_of)
    return list(qs.select_related("character", "battle", "source_event").order_by("-id")[:limit])


def service_record(*, character: Character) -> list[CampaignEvent]:
    """The character's whole service record across campaigns (1 query)."""
    return list(CampaignEvent.objects.filter(character=character)
                .exclude(type__in=["side_assigned"])
                .select_related("campaign", "battle", "source_event").order_by("id"))


def player_name(user: Any) -> str:
    """How a player is named to those who may know who plays whom: his full name, else his login name."""
    return user.get_full_name() or user.get_username()


def player_names(*, viewer: Any, characters: list[Character]) -> dict[int, str]:
    """Who plays each of ``characters`` (loaded with their owner), as ``viewer`` may
    know it: the character's id → ``player_name``. The player knows his own, the
    game master all, a player those of the campaigns he plays in (they share a
    table); an anonymous visitor or a stranger learns no account at all (issue 27:
    a login name is half a password guess). At most 2 queries, none for anonymous."""
    if not getattr(viewer, "is_authenticated", False) or not characters:
        return {}
    if is_game_master(viewer):
        known = {c.pk for c in characters}
    else:
        mine = Membership.objects.filter(player=viewer, status=Membership.Status.ACTIVE).values("campaign")
        known = set(Membership.objects.filter(campaign__in=mine, status=Membership.Status.ACTIVE,
                                              character__in=[c.pk for c in characters])
                    .values_list("character_id", flat=True))
        known |= {c.pk for c in characters if c.owner_id == viewer.pk}
    return {c.pk: player_name(c.owner) for c in characters if c.pk in known}


def characters_of(*, user: Any) -> list[Character]:
    return list(Character.objects.filter(owner=user).select_related("nationality"))


def memberships_pending(*, campaign: Campaign) -> list[Membership]:
    return list(campaign.memberships.filter(Q(status=Membership.Status.REQUESTED) | Q(side=""))
                .select_related("character", "player"))


def membership_of(*, campaign: Campaign, user: Any) -> Membership | None:
    """The visitor's own membership of the campaign (requested, active or
    declined), or None; no query for an anonymous visitor."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(campaign=campaign, player=user).select_related("character").first()


def battles_running(*, campaign: Campaign) -> list[Any]:
    """The campaign's battles that have started and not ended, in 1 query
    (``battles.selectors.battles_running``, installed in ``BATTLE_READS``)."""
    return BATTLE_READS["running"](campaign=campaign)


@dataclass(frozen=True)
class GameMasterTodo:
    """What waits for the game master: join requests without a side and
    award/promotion proposals to decide, in campaigns not yet finished."""

    memberships: list[Membership]
    proposals: list[Any]

    @property
    def count(self) -> int:
        return len(self.memberships) + len(self.proposals)


def game_master_todo(*, limit: int = 50) -> GameMasterTodo:
    """The game master's to-do list (2 queries)."""
    memberships = list(Membership.objects.filter(Q(status=Membership.Status.REQUESTED) | Q(side=""))
                       .exclude(status=Membership.Status.DECLINED)
                       .exclude(campaign__status=CampaignStatus.FINISHED)
                       .select_related("campaign", "character", "player").order_by("joined_at", "id")[:limit])
    proposals = list(Proposal.objects.filter(status=Proposal.Status.PENDING)
                     .exclude(campaign__status=CampaignStatus.FINISHED)
                     .select_related("campaign", "battle", "character", "award").order_by("created_at", "id")[:limit])
    return GameMasterTodo(memberships, proposals)


def game_master_todo_count() -> int:
    """How many things wait for the game master (1 query), for the header."""
    open_memberships = (Membership.objects.filter(Q(status=Membership.Status.REQUESTED) | Q(side=""))
                        .exclude(status=Membership.Status.DECLINED)
                        .exclude(campaign__status=CampaignStatus.FINISHED).order_by().values("id"))
    pending = (Proposal.objects.filter(status=Proposal.Status.PENDING)
               .exclude(campaign__status=CampaignStatus.FINISHED).order_by().values("id"))
    return open_memberships.union(pending, all=True).count()


@dataclass(frozen=True)
class CampaignLogVerdict:
    """``campaign_log_verify``'s answer: ``checked`` events were found chained
    right from the first; ``first_broken_id`` is the id of the first event
    whose stored chain is not the one its content and the event before it
    give (or that has none), ``None`` when the whole log holds;
    ``head_chain`` is the chain the log's last event stores (the genesis of an
    empty log): a reader who keeps it detects a later rewrite of anything up
    to it, and the loss of events at the end, which nothing else can."""

    campaign_id: int | None
    character_id: int | None
    ok: bool
    checked: int
    first_broken_id: int | None
    head_chain: str | None


_CHAINED = ("campaign_id", "character_id", "battle_id", "source_event_id", "type", "data", "battle_number", "key",
            "recorded_by_id")


def campaign_log_verify(*, campaign_id: int | None, character_id: int | None = None,
                        chunk: int = 5000) -> CampaignLogVerdict | None:
    """Recompute a campaign's log's hash chain (``campaign.chain``), or, with
    ``campaign_id=None``, a character's own log (his enlistment), from its
    stored rows in id order, ``chunk`` rows a query; ``None`` for an unknown
    campaign. One query for the head, then one a chunk (the verifier stops at
    the first break)."""
    log = CampaignEvent.objects.filter(campaign_id=campaign_id)
    if campaign_id is None:
        log = log.filter(character_id=character_id)
    genesis = chain.genesis(campaign_id=campaign_id, character_id=character_id)
    head = log.order_by("-id").values("chain")[:1]
    if campaign_id is not None:
        found = Campaign.objects.filter(pk=campaign_id).values_list(Subquery(head)).first()
        if found is None:
            return None
        head_chain = found[0]
    else:
        head_chain = head.values_list("chain", flat=True).first()
    previous, checked, last, broken = genesis, 0, 0, None
    while broken is None:
        rows = list(log.filter(id__gt=last).order_by("id").values_list("id", "chain", *_CHAINED)[:chunk])
        for id_, stored, *content in rows:
            previous = chain.link(previous, **dict(zip(_CHAINED, content, strict=True)))
            if stored != previous:
                broken = id_
                break
            checked, last = checked + 1, id_
        if len(rows) < chunk:
            break
    if checked == 0 and broken is None:  # an empty log
        head_chain = genesis
    return CampaignLogVerdict(campaign_id, character_id, broken is None, checked, broken, head_chain)
