"""Every write in the campaign app. Campaign events are appended here and the
projections (character rank, standings, campaign page) follow in the same
transaction; ``campaign_projections_rebuild`` rebuilds them from the log."""
from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Mapping
from io import BytesIO
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from PIL import Image, UnidentifiedImageError

from config.errors import Conflict, Forbidden, InvalidInput, NotFound

from . import chain, ledger, notify
from .models import (
    RANK_ORDER,
    AwardRule,
    Campaign,
    CampaignEvent,
    CampaignProjection,
    CampaignStatus,
    Character,
    Gender,
    Membership,
    Nationality,
    Objective,
    Proposal,
    Rank,
    Side,
    Standing,
)
from .roles import PLAYER, is_game_master
from .selectors import battles_running, ledger_entries

# Decisions are placed at the campaign's current battle, not the battle they
# concern: "as of battle N" shows what stood right after battle N.
DECISIONS = {"award_granted", "promotion", "proposal_rejected"}
EVENT_TYPES = {
    "character_enlisted", "member_joined", "side_assigned", "campaign_started", "campaign_finished",
    "command_roll", "command_assigned", "battle_result", "battle_fought", "objective_changed",
    "award_granted", "promotion", "proposal_rejected",
}
# What else follows when the game master puts a character on a side, run in the same transaction with
# (campaign=, character=, side=). The apps above campaign register here at start-up (rosters.apps: the
# character's draft rosters follow), as campaign may not import them (.importlinter).
SIDE_ASSIGNED_HOOKS: list[Callable[..., Any]] = []


# --- the log ---------------------------------------------------------------------
def campaign_event_append(
    *,
    type: str,
    data: Mapping[str, Any],
    campaign: Campaign | None = None,
    character: Character | None = None,
    battle: Any = None,
    source_event: Any = None,
    key: str | None = None,
    recorded_by: Any = None,
) -> CampaignEvent:
    """Append one campaign event, chained to the one before it in its log
    (``campaign.chain``), and bring the projections up to date. Idempotent by
    ``key``: the same key returns the stored event."""
    assert type in EVENT_TYPES, f"unknown campaign event type {type!r}; add it to EVENT_TYPES and ledger.apply"
    assert campaign is not None or character is not None, "a campaign event belongs to a campaign or a character"
    with transaction.atomic():
        if campaign is not None:
            # Serialize the campaign's appends (workers and requests may race on one key), and so its chain.
            campaign.status = Campaign.objects.select_for_update().values_list("status", flat=True).get(pk=campaign.pk)
        else:  # a character's own log (his enlistment): serialized on his row
            Character.objects.select_for_update().filter(pk=character.pk).values_list("pk", flat=True).first()
        if key is not None:
            existing = CampaignEvent.objects.filter(key=key).first()
            if existing is not None:
                return existing
        if campaign is not None:
            refuse_if_archived(campaign, allow=type == "campaign_finished")
        number = (battle.number if battle is not None and type not in DECISIONS
                  else _current_battle_number(campaign))
        by = recorded_by if _is_user(recorded_by) else None
        # (the chain is of the data as stored: JSON's, whatever Python types it was given in)
        content = {"campaign_id": getattr(campaign, "pk", None), "character_id": getattr(character, "pk", None),
                   "battle_id": getattr(battle, "pk", None), "source_event_id": getattr(source_event, "pk", None),
                   "type": type, "data": json.loads(json.dumps(dict(data))), "battle_number": number, "key": key,
                   "recorded_by_id": getattr(by, "pk", None)}
        link = chain.link(_head_chain(content["campaign_id"], content["character_id"]), **content)
        try:
            with transaction.atomic():
                event = CampaignEvent.objects.create(
                    campaign=campaign, character=character, battle=battle, source_event=source_event, type=type,
                    data=dict(data), battle_number=number, key=key, recorded_by=by, chain=link,
                )
        except IntegrityError:
            existing = CampaignEvent.objects.filter(key=key).first() if key is not None else None
            if existing is None:
                raise
            return existing  # the same key landed concurrently (no campaign lock to serialize on)
        if type in ("character_enlisted", "promotion") and character is not None:
            Character.objects.filter(pk=character.pk).update(rank=data.get("to") or data["rank"])
            character.rank = data.get("to") or data["rank"]
        if campaign is not None:
            _project(campaign.pk)
        if type in ("battle_result", "award_granted", "promotion"):
            notify.on_commit(type, event.pk)  # a new event only: a repeated key returned above
        return event


def _head_chain(campaign_id: int | None, character_id: int | None) -> str:
    """The chain of the last event of the log (the campaign's, or without one
    the character's), read under its lock; the genesis of an empty log."""
    log = CampaignEvent.objects.filter(campaign_id=campaign_id)
    if campaign_id is None:
        log = log.filter(character_id=character_id)
    last = log.order_by("-id").values_list("id", "chain").first()
    if last is None:
        return chain.genesis(campaign_id=campaign_id, character_id=character_id)
    if last[1] is None:  # a row written around the service: nothing sound to chain to
        raise RuntimeError(f"Campaign event {last[0]} has no chain; the log was written around "
                           f"campaign_event_append. Check it with `manage.py verify_log`.")
    return last[1]


def _is_user(user: Any) -> bool:
    return getattr(user, "is_authenticated", False)


def _current_battle_number(campaign: Campaign | None) -> int:
    if campaign is None:
        return 0
    return campaign.events.aggregate(n=Max("battle_number"))["n"] or 0


def refuse_if_archived(campaign: Campaign, *, allow: bool = False) -> None:
    if campaign.status == CampaignStatus.FINISHED and not allow:
        raise Conflict("Кампания завершена: её архив только для чтения.",
                       "The campaign is finished: its archive is read-only.", code="campaign_finished")


def _project(campaign_id: int) -> None:
    """Fold the events after the stored projection into it (same transaction)."""
    proj, _ = CampaignProjection.objects.select_for_update().get_or_create(campaign_id=campaign_id)
    new = ledger_entries(CampaignEvent.objects.filter(campaign_id=campaign_id, id__gt=proj.last_event_id))
    if not new:
        return
    touched = {e.character_id for e in new if e.character_id is not None}
    view = _view_from(proj, Standing.objects.filter(campaign_id=campaign_id, character_id__in=touched))
    ledger.fold(new, view)
    _store(campaign_id, proj, view, only=touched)


def _view_from(proj: CampaignProjection, standings) -> ledger.View:
    view = ledger.View.from_json(proj.last_event_id, proj.data)
    for s in standings:
        view.rows[s.character_id] = ledger.Row(s.character_id, s.side, s.rank, s.awards, s.battles, s.kills,
                                               s.casualties, s.prestige)
    return view


def _store(campaign_id: int, proj: CampaignProjection, view: ledger.View, only: set[int] | None) -> None:
    proj.last_event_id, proj.data, proj.updated_at = view.last_event_id, view.as_json(), timezone.now()
    proj.save()
    rows = [view.rows[c] for c in (only if only is not None else view.rows) if c in view.rows]
    Standing.objects.bulk_create(
        [Standing(campaign_id=campaign_id, character_id=r.character_id, side=r.side, rank=r.rank, awards=r.awards,
                  battles=r.battles, kills=r.kills, casualties=r.casualties, prestige=r.prestige) for r in rows],
        update_conflicts=True, unique_fields=["campaign", "character"],
        update_fields=["side", "rank", "awards", "battles", "kills", "casualties", "prestige"],
    )


def campaign_projections_rebuild(*, campaign: Campaign) -> ledger.View:
    """Rebuild the campaign's projections from its log, from scratch."""
    with transaction.atomic():
        view = ledger.fold(ledger_entries(CampaignEvent.objects.filter(campaign=campaign)))
        Standing.objects.filter(campaign=campaign).exclude(character_id__in=list(view.rows)).delete()
        proj, _ = CampaignProjection.objects.select_for_update().get_or_create(campaign=campaign)
        _store(campaign.pk, proj, view, only=None)
    return view


def characters_rank_rebuild() -> int:
    """Character.rank from the log: the last enlistment or promotion of each."""
    changed = 0
    with transaction.atomic():
        latest: dict[int, str] = {}
        for cid, type_, data in (CampaignEvent.objects.filter(type__in=["character_enlisted", "promotion"])
                                 .order_by("id").values_list("character_id", "type", "data")):
            latest[cid] = data["to"] if type_ == "promotion" else data["rank"]
        for cid, rank in latest.items():
            changed += Character.objects.filter(pk=cid).exclude(rank=rank).update(rank=rank)
    return changed


# --- characters and joining -----------------------------------------------------------
def player_signup(*, form: Any) -> Any:
    """A new account in the player role (``form``: a valid UserCreationForm)."""
    with transaction.atomic():
        user = form.save()
        user.groups.add(Group.objects.get(name=PLAYER))
    return user


def character_create(*, owner: Any, name: str, nationality: Nationality, rank: str = Rank.CORPORAL,
                     photo: Any = None, gender: str = Gender.MASCULINE) -> Character:
    """V-RANK-1: a player creates his character; its starting rank is an event."""
    if rank not in Rank.values:
        raise InvalidInput("rank: неизвестное звание.", "rank: unknown rank.", field="rank")
    if gender not in Gender.values:
        raise InvalidInput("gender: род — «m» (мужской) или «f» (женский).",
                           "gender: the grammatical gender is «m» (masculine) or «f» (feminine).", field="gender")
    with transaction.atomic():
        character = Character.objects.create(owner=owner, name=name, nationality=nationality, rank=rank,
                                             gender=gender)
        if photo:
            character_photo_set(character=character, photo=photo)
        campaign_event_append(type="character_enlisted", data={"rank": rank}, character=character,
                              recorded_by=owner, key=f"character:{character.pk}:enlisted")
    return character


def photo_max_pixels() -> int:
    """The largest photo accepted, in pixels (``SHTAB["PHOTO_MAX_PIXELS"]``)."""
    return int(settings.SHTAB.get("PHOTO_MAX_PIXELS", 40_000_000))


def photo_open(photo: Any) -> Any:
    """Open an uploaded photo and check its size from the header, before any
    pixel is decoded: a 17 KB PNG may declare 12000 × 12000 pixels and take
    half a gigabyte once decoded (a decompression bomb). Returns the opened,
    not yet decoded image; refuses a non-image or an image above the limit."""
    limit = photo_max_pixels()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # refused just below, by size
            image = Image.open(photo)  # reads the header only
    except Image.DecompressionBombError:  # Pillow's own guard: above twice MAX_IMAGE_PIXELS (apps.py)
        image = None
    except (UnidentifiedImageError, OSError):
        raise InvalidInput("photo: это не изображение.", "photo: not an image.", field="photo") from None
    if image is None or image.width * image.height > limit:
        size = f" ({image.width} × {image.height})" if image is not None else ""
        raise InvalidInput(
            f"photo: изображение слишком велико{size}; не больше {limit // 1_000_000} мегапикселей.",
            f"photo: the image is too large{size}; at most {limit // 1_000_000} megapixels.",
            field="photo", code="photo_too_large")
    return image


def character_photo_set(*, character: Character, photo: Any, max_px: int = 600) -> Character:
    """Store the photo resized to fit ``max_px`` (JPEG), for pages and cards (V-RANK-3).
    Its size is checked from the header before it is decoded (``photo_open``)."""
    image = photo_open(photo)
    try:
        image.draft("RGB", (max_px, max_px))  # a JPEG decodes at a reduced scale: less memory
        image.load()
    except OSError:
        raise InvalidInput("photo: это не изображение.", "photo: not an image.", field="photo") from None
    image = image.convert("RGB")
    image.thumbnail((max_px, max_px))
    buf = BytesIO()
    image.save(buf, "JPEG", quality=85)
    character.photo.save("photo.jpg", ContentFile(buf.getvalue()), save=True)
    return character


def character_update(*, character: Character, by: Any, name: str | None = None, photo: Any = None,
                     remove_photo: bool = False) -> Character:
    """The owner renames his character or changes its photo. The rank is not
    here: it changes only by a promotion the game master approves (V-RANK-4)."""
    if character.owner_id != getattr(by, "pk", None):
        raise Forbidden("Менять персонажа может только его владелец.", "Only its owner may edit a character.")
    with transaction.atomic():
        if name is not None:
            name = name.strip()
            if not name:
                raise InvalidInput("name: укажите имя.", "name: give a name.", field="name")
            character.name = name
            character.save(update_fields=["name"])
        if photo:
            character_photo_set(character=character, photo=photo)
        elif remove_photo and character.photo:
            character.photo.delete(save=False)
            character.photo = ""
            character.save(update_fields=["photo"])
    return character


def membership_request(*, campaign: Campaign, character: Character, token: Any = None) -> Membership:
    """A player asks to join (or joins by the invitation link, ``token``);
    the game master assigns the side."""
    refuse_if_archived(campaign)
    invited = token is not None and str(token) == str(campaign.invite_token)
    if token is not None and not invited:
        raise Forbidden("Приглашение недействительно.", "The invitation link is not valid.", field="token")
    with transaction.atomic():
        m, created = Membership.objects.get_or_create(
            campaign=campaign, player=character.owner,
            defaults={"character": character, "status": Membership.Status.ACTIVE if invited
                      else Membership.Status.REQUESTED})
        if not created and m.character_id != character.pk:
            raise Conflict("Игрок уже участвует в кампании другим персонажем.",
                           "The player is already in this campaign with another character.", field="character")
        if invited and m.status != Membership.Status.ACTIVE:
            m.status = Membership.Status.ACTIVE
            m.save(update_fields=["status"])
        if m.status == Membership.Status.ACTIVE:
            campaign_event_append(type="member_joined", campaign=campaign, character=character,
                                  data={"rank": character.rank, "side": m.side}, recorded_by=character.owner,
                                  key=f"campaign:{campaign.pk}:joined:{character.pk}")
        elif created:
            notify.on_commit("join_requested", m.pk)
    return m


def membership_assign_side(*, membership: Membership, side: str, by: Any) -> Membership:
    """The game master places a player on a side (accepting a request)."""
    if not is_game_master(by):
        raise Forbidden("Сторону назначает мастер.", "Only the game master assigns sides.")
    if side not in Side.values:
        raise InvalidInput("side: attacker или defender.", "side: attacker or defender.", field="side")
    campaign = membership.campaign
    refuse_if_archived(campaign)
    with transaction.atomic():
        was_active = membership.status == Membership.Status.ACTIVE
        membership.side, membership.status = side, Membership.Status.ACTIVE
        membership.save(update_fields=["side", "status"])
        if not was_active:
            campaign_event_append(type="member_joined", campaign=campaign, character=membership.character,
                                  data={"rank": membership.character.rank, "side": side}, recorded_by=by,
                                  key=f"campaign:{campaign.pk}:joined:{membership.character_id}")

        for hook in SIDE_ASSIGNED_HOOKS:
            hook(campaign=campaign, character=membership.character, side=side)
        n = CampaignEvent.objects.filter(campaign=campaign, type="side_assigned",
                                         character=membership.character).count()
        campaign_event_append(type="side_assigned", campaign=campaign, character=membership.character,
                              data={"side": side}, recorded_by=by,
                              key=f"campaign:{campaign.pk}:side:{membership.character_id}:{n + 1}")
    return membership


# --- lifecycle -----------------------------------------------------------------------
def campaign_start(*, campaign: Campaign, by: Any) -> Campaign:
    """draft → running. The objectives' initial holders become the first events."""
    if not is_game_master(by):
        raise Forbidden("Кампанию запускает мастер.", "Only the game master starts a campaign.")
    if campaign.status != CampaignStatus.DRAFT:
        raise Conflict("Кампания уже запущена.", "The campaign has already started.", code="not_draft")
    with transaction.atomic():
        Campaign.objects.filter(pk=campaign.pk).update(status=CampaignStatus.RUNNING)
        campaign.status = CampaignStatus.RUNNING
        campaign_event_append(type="campaign_started", campaign=campaign, data={}, recorded_by=by,
                              key=f"campaign:{campaign.pk}:started")
        for obj in campaign.objectives.all():
            if obj.initial_holder:
                campaign_event_append(type="objective_changed", campaign=campaign, recorded_by=by,
                                      data={"objective": obj.pk, "name": obj.name, "from": "",
                                            "to": obj.initial_holder},
                                      key=f"campaign:{campaign.pk}:objective:{obj.pk}:initial")
    return campaign


def campaign_finish(*, campaign: Campaign, by: Any, battles_running_ok: bool = False) -> Campaign:
    """running → finished: a read-only archive whose standings are frozen.
    A battle still being played would be closed unfinished: refused unless the
    game master has been told and confirms (``battles_running_ok``)."""
    if not is_game_master(by):
        raise Forbidden("Кампанию завершает мастер.", "Only the game master finishes a campaign.")
    if campaign.status == CampaignStatus.FINISHED:
        return campaign

    running = battles_running(campaign=campaign)
    if running and not battles_running_ok:
        names = ", ".join(f"«{b.name}»" for b in running)
        raise Conflict(f"В кампании «{campaign.name}» ещё идут бои: {names}. Завершить её можно после "
                       "подтверждения: бои останутся незаконченными.",
                       f"Battles of '{campaign.name}' are still being played: {names}. Finishing it needs a "
                       "confirmation: they would stay unfinished.", code="battles_running",
                       extra={"battles": [b.pk for b in running]})
    with transaction.atomic():
        campaign_event_append(type="campaign_finished", campaign=campaign, data={}, recorded_by=by,
                              key=f"campaign:{campaign.pk}:finished")
        Campaign.objects.filter(pk=campaign.pk).update(status=CampaignStatus.FINISHED)
        campaign.status = CampaignStatus.FINISHED
    return campaign


def campaign_copy(*, campaign: Campaign, by: Any, name: str | None = None) -> Campaign:
    """Use a campaign as the template of a new one: settings, sides, map,
    objectives and award rules; no players, battles or history."""
    if not is_game_master(by):
        raise Forbidden("Копирует кампании мастер.", "Only the game master copies campaigns.")
    with transaction.atomic():
        new = Campaign.objects.create(
            name=name or f"{campaign.name} (копия)", ruleset=campaign.ruleset, description=campaign.description,
            attacker_name=campaign.attacker_name, defender_name=campaign.defender_name,
            map_description=campaign.map_description, game_data_version=campaign.game_data_version,
            game_master=by if _is_user(by) else campaign.game_master, copied_from=campaign)
        Objective.objects.bulk_create([
            Objective(campaign=new, name=o.name, description=o.description, initial_holder=o.initial_holder,
                      order=o.order) for o in campaign.objectives.all()])
        AwardRule.objects.bulk_create([
            AwardRule(campaign=new, metric=r.metric, threshold=r.threshold, award_id=r.award_id,
                      promotion=r.promotion, active=r.active, is_placeholder=r.is_placeholder)
            for r in campaign.award_rules.all()])
    return new


# --- proposals -------------------------------------------------------------------------
def proposal_decide(*, proposal: Proposal, approve: bool, by: Any, note: str = "") -> Proposal:
    """The game master's decision (V-RANK-4). Approval appends the award or
    promotion event; the character's rank and awards follow."""
    if not is_game_master(by):
        raise Forbidden("Решение принимает мастер.", "Only the game master decides proposals.")
    with transaction.atomic():
        p = Proposal.objects.select_for_update().select_related("campaign", "character", "battle").get(pk=proposal.pk)
        if p.status != Proposal.Status.PENDING:
            raise Conflict("Решение по предложению уже принято.", "This proposal has already been decided.",
                           code="already_decided")
        p.status = Proposal.Status.APPROVED if approve else Proposal.Status.REJECTED
        p.note, p.decided_by, p.decided_at = note, by, timezone.now()
        p.save(update_fields=["status", "note", "decided_by", "decided_at"])
        base = {"proposal": p.pk, "note": note}
        if not approve:
            campaign_event_append(type="proposal_rejected", campaign=p.campaign, character=p.character,
                                  battle=p.battle, data=base, recorded_by=by, key=f"proposal:{p.pk}:decision")
        elif p.award_id:
            campaign_event_append(type="award_granted", campaign=p.campaign, character=p.character, battle=p.battle,
                                  data={**base, "award": p.award_id, "award_code": p.award.code},
                                  recorded_by=by, key=f"proposal:{p.pk}:decision")
        else:
            current = Character.objects.values_list("rank", flat=True).get(pk=p.character_id)
            to = p.to_rank or next_rank(current)
            if to is None or RANK_ORDER.index(to) <= RANK_ORDER.index(current):
                raise Conflict("Повышать некуда: персонаж уже в этом звании или выше.",
                               "Nothing to promote to: the character already holds this rank or higher.")
            campaign_event_append(type="promotion", campaign=p.campaign, character=p.character, battle=p.battle,
                                  data={**base, "from": current, "to": to}, recorded_by=by,
                                  key=f"proposal:{p.pk}:decision")
    return p


def next_rank(rank: str) -> str | None:
    i = RANK_ORDER.index(rank)
    return RANK_ORDER[i + 1] if i + 1 < len(RANK_ORDER) else None


def ensure_found(obj: Any, what_ru: str, what_en: str) -> Any:
    if obj is None:
        raise NotFound(f"{what_ru} не найден.", f"{what_en} not found.")
    return obj
