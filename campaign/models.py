"""Campaigns, their players and characters, and the campaign log.

``CampaignEvent`` is the campaign's append-only log (like the battle log):
joining, sides, command rolls, battle results, objectives changing hands,
awards and promotions. A character's rank and awards, the standings and the
chronicle are projections of it; nothing is edited in place.
"""
import uuid

from django.conf import settings
from django.core.validators import FileExtensionValidator, RegexValidator
from django.db import models
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from config.appendonly import AppendOnlyModel


class Ruleset(models.TextChoices):
    V11_2 = "v11.2", _("Club rules v11.2")
    FOW = "fow", _("Flames of War")


class CampaignStatus(models.TextChoices):
    DRAFT = "draft", _("draft")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")


class Side(models.TextChoices):
    ATTACKER = "attacker", _("attacker")
    DEFENDER = "defender", _("defender")


class Campaign(models.Model):
    name = models.CharField(_("name"), max_length=200)
    ruleset = models.CharField(_("ruleset"), max_length=16, choices=Ruleset.choices, default=Ruleset.V11_2)
    description = models.TextField(_("description"), blank=True)
    status = models.CharField(_("status"), max_length=16, choices=CampaignStatus.choices,
                              default=CampaignStatus.DRAFT)
    attacker_name = models.CharField(_("attacking side"), max_length=200, default="Атакующие")
    defender_name = models.CharField(_("defending side"), max_length=200, default="Обороняющиеся")
    map_description = models.TextField(_("campaign map"), blank=True)
    game_data_version = models.PositiveIntegerField(
        _("game data version"), null=True, blank=True,
        help_text=_("The rosters' game-data version this campaign is priced with."))
    game_master = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="mastered_campaigns", verbose_name=_("game master"))
    invite_token = models.UUIDField(_("invitation token"), default=uuid.uuid4, unique=True, editable=False)
    copied_from = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                                    verbose_name=_("copied from"))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    @property
    def is_archived(self) -> bool:
        return self.status == CampaignStatus.FINISHED

    def side_name(self, side: str) -> str:
        return self.attacker_name if side == Side.ATTACKER else self.defender_name

    class Meta:
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name


class Rank(models.TextChoices):
    """The rank ladder (G-14 placeholder: corporal < sergeant < lieutenant < captain)."""

    CORPORAL = "corporal", _("corporal")
    SERGEANT = "sergeant", _("sergeant")
    LIEUTENANT = "lieutenant", _("lieutenant")
    CAPTAIN = "captain", _("captain")


RANK_ORDER = [Rank.CORPORAL, Rank.SERGEANT, Rank.LIEUTENANT, Rank.CAPTAIN]


class Gender(models.TextChoices):
    """A character's grammatical gender: the chronicle's Russian sentences agree
    with it («поступил» / «поступила»)."""

    MASCULINE = "m", _("masculine")
    FEMININE = "f", _("feminine")


class Nationality(models.Model):
    """A nation and its names for the four ranks (G-23: the seed gives only a
    few equivalents; the game master adds and edits the rest)."""

    code = models.SlugField(_("code"), max_length=16, unique=True)
    name_ru = models.CharField(_("name (Russian)"), max_length=100)
    name_en = models.CharField(_("name (English)"), max_length=100)
    corporal_ru = models.CharField(_("corporal (Russian)"), max_length=60)
    corporal_en = models.CharField(_("corporal (English)"), max_length=60)
    sergeant_ru = models.CharField(_("sergeant (Russian)"), max_length=60)
    sergeant_en = models.CharField(_("sergeant (English)"), max_length=60)
    lieutenant_ru = models.CharField(_("lieutenant (Russian)"), max_length=60)
    lieutenant_en = models.CharField(_("lieutenant (English)"), max_length=60)
    captain_ru = models.CharField(_("captain (Russian)"), max_length=60)
    captain_en = models.CharField(_("captain (English)"), max_length=60)
    is_placeholder = models.BooleanField(
        _("placeholder"), default=False,
        help_text=_("Default data not taken from the seed rules; check and edit it."))

    class Meta:
        verbose_name = _("nationality")
        verbose_name_plural = _("nationalities")
        ordering = ["code"]

    def __str__(self) -> str:
        return self.name_ru

    def rank_name(self, rank: str, language: str = "ru") -> str:
        suffix = "ru" if language.startswith("ru") else "en"
        return getattr(self, f"{rank}_{suffix}")


def character_photo_path(instance: "Character", filename: str) -> str:
    return f"characters/{uuid.uuid4().hex}.jpg"


class Character(models.Model):
    """A player's character (персонаж, V-RANK-1): the officer the player
    identifies with, carried from campaign to campaign. ``rank`` is a
    projection of the character's campaign events (enlistment, promotions),
    written only by campaign.services."""

    owner = models.ForeignKey("auth.User", on_delete=models.PROTECT, related_name="characters",
                              verbose_name=_("player"))
    name = models.CharField(_("name"), max_length=200)
    nationality = models.ForeignKey(Nationality, on_delete=models.PROTECT, related_name="characters",
                                    verbose_name=_("nationality"))
    rank = models.CharField(_("rank"), max_length=16, choices=Rank.choices, default=Rank.CORPORAL)
    gender = models.CharField(_("grammatical gender"), max_length=1, choices=Gender.choices,
                              default=Gender.MASCULINE,
                              help_text=_("The chronicle's sentences agree with it: «поступил» or «поступила»."))
    photo = models.ImageField(_("photo"), upload_to=character_photo_path, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("character")
        verbose_name_plural = _("characters")
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def rank_title(self, language: str = "ru") -> str:
        return self.nationality.rank_name(self.rank, language)


class Membership(models.Model):
    """A player in a campaign with his character; the game master assigns the side."""

    class Status(models.TextChoices):
        REQUESTED = "requested", _("asked to join")
        ACTIVE = "active", _("active")
        DECLINED = "declined", _("declined")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships",
                                 verbose_name=_("campaign"))
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="memberships",
                               verbose_name=_("player"))
    character = models.ForeignKey(Character, on_delete=models.PROTECT, related_name="memberships",
                                  verbose_name=_("character"))
    side = models.CharField(_("side"), max_length=16, choices=Side.choices, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.REQUESTED)
    joined_at = models.DateTimeField(_("joined at"), default=timezone.now)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "character"], name="membership_unique_character"),
            models.UniqueConstraint(fields=["campaign", "player"], name="membership_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.character} @ {self.campaign}"


class Objective(models.Model):
    """A named objective or sector of the campaign map. Who holds it is a
    projection of ``objective_changed`` campaign events."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="objectives",
                                 verbose_name=_("campaign"))
    name = models.CharField(_("name"), max_length=200)
    description = models.TextField(_("description"), blank=True)
    initial_holder = models.CharField(_("held at the start by"), max_length=16, choices=Side.choices, blank=True)
    order = models.PositiveIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("objective")
        verbose_name_plural = _("objectives")
        ordering = ["campaign_id", "order", "id"]

    def __str__(self) -> str:
        return self.name


class Award(models.Model):
    """An award the game master can grant (G-14: the seed names none)."""

    code = models.SlugField(_("code"), max_length=40, unique=True)
    name_ru = models.CharField(_("name (Russian)"), max_length=200)
    name_en = models.CharField(_("name (English)"), max_length=200)
    description = models.TextField(_("description"), blank=True)
    is_placeholder = models.BooleanField(_("placeholder"), default=False,
                                         help_text=_("Default data not taken from the seed rules; check and edit it."))

    class Meta:
        verbose_name = _("award")
        verbose_name_plural = _("awards")
        ordering = ["code"]

    def __str__(self) -> str:
        return self.name_ru

    def name(self, language: str = "ru") -> str:
        return self.name_ru if language.startswith("ru") else self.name_en


class Metric(models.TextChoices):
    KILLS = "kills", _("enemy fighters killed")
    CAPTURES = "captures", _("enemy fighters captured")
    VEHICLES_DESTROYED = "vehicles_destroyed", _("enemy vehicles destroyed")
    VEHICLES_CAPTURED = "vehicles_captured", _("enemy vehicles captured")
    OBJECTIVES_TAKEN = "objectives_taken", _("objectives taken by his side")
    HELD_AFTER_MORALE = "held_after_morale", _("his units that held after a morale test")
    MEDIC_SAVES = "medic_saves", _("wounded saved by his medics")
    SURVIVED_WOUNDED = "survived_wounded", _("wounded and survived")
    BATTLES_WON = "battles_won", _("battles won (campaign total)")


class AwardRule(models.Model):
    """The award policy (G-14): when a character's results in one battle reach
    ``threshold`` on ``metric``, propose ``award`` or a promotion. The game
    master edits these; nothing is granted without his approval (V-RANK-4)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, null=True, blank=True,
                                 related_name="award_rules", verbose_name=_("campaign"),
                                 help_text=_("Empty: applies to every campaign."))
    metric = models.CharField(_("metric"), max_length=32, choices=Metric.choices)
    threshold = models.PositiveIntegerField(_("threshold"), default=1)
    award = models.ForeignKey(Award, on_delete=models.PROTECT, null=True, blank=True, verbose_name=_("award"))
    promotion = models.BooleanField(_("proposes a promotion"), default=False)
    active = models.BooleanField(_("active"), default=True)
    is_placeholder = models.BooleanField(_("placeholder"), default=False)

    class Meta:
        verbose_name = _("award rule")
        verbose_name_plural = _("award rules")
        ordering = ["metric", "threshold", "id"]
        constraints = [models.CheckConstraint(
            condition=models.Q(award__isnull=False) | models.Q(promotion=True), name="awardrule_grants_something")]

    def __str__(self) -> str:
        what = self.award.name_ru if self.award_id else str(_("promotion"))
        return f"{self.get_metric_display()} ≥ {self.threshold} → {what}"


class CampaignEvent(AppendOnlyModel):
    """The campaign's append-only log. ``battle_number`` places every event in
    the campaign's history so any page can be shown "as of battle N"."""

    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, null=True, blank=True,
                                 related_name="events", verbose_name=_("campaign"))
    character = models.ForeignKey(Character, on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="service_events", verbose_name=_("character"))
    battle = models.ForeignKey("battles.Battle", on_delete=models.PROTECT, null=True, blank=True,
                               related_name="campaign_events", verbose_name=_("battle"))
    source_event = models.ForeignKey("battles.BattleEvent", on_delete=models.PROTECT, null=True, blank=True,
                                     related_name="+", verbose_name=_("source battle event"))
    type = models.CharField(_("type"), max_length=40)
    data = models.JSONField(_("data"), default=dict)
    battle_number = models.PositiveIntegerField(_("after battle"), default=0)
    key = models.CharField(_("idempotency key"), max_length=160, null=True, blank=True, unique=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="+", verbose_name=_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)
    # The hash chain (campaign.chain): set by campaign_event_append; null only on a row written
    # around it, which the verifier reports.
    chain = models.CharField(_("chain"), max_length=64, null=True, blank=True)

    class Meta:
        verbose_name = _("campaign event")
        verbose_name_plural = _("campaign events")
        ordering = ["id"]
        indexes = [models.Index(fields=["campaign", "battle_number", "id"], name="campaignevent_asof"),
                   models.Index(fields=["character", "id"], name="campaignevent_character")]

    def __str__(self) -> str:
        return f"{self.type} #{self.pk}"


class Proposal(models.Model):
    """An award or promotion the policy proposes after a battle; the game master
    approves or rejects it (V-RANK-4). The decision itself is a campaign event."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="proposals",
                                 verbose_name=_("campaign"))
    battle = models.ForeignKey("battles.Battle", on_delete=models.PROTECT, related_name="proposals",
                               verbose_name=_("battle"))
    character = models.ForeignKey(Character, on_delete=models.PROTECT, related_name="proposals",
                                  verbose_name=_("character"))
    rule = models.ForeignKey(AwardRule, on_delete=models.PROTECT, related_name="proposals", verbose_name=_("rule"))
    award = models.ForeignKey(Award, on_delete=models.PROTECT, null=True, blank=True, verbose_name=_("award"))
    to_rank = models.CharField(_("promotion to"), max_length=16, choices=Rank.choices, blank=True)
    facts = models.JSONField(_("facts"), default=dict)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PENDING)
    note = models.TextField(_("note"), blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+", verbose_name=_("decided by"))
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("proposal")
        verbose_name_plural = _("proposals")
        ordering = ["-created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["battle", "character", "rule"],
                                               name="proposal_once_per_rule")]

    def __str__(self) -> str:
        what = self.award.name_ru if self.award_id else f"→ {self.get_to_rank_display()}"
        return f"{self.character}: {what}"


class Standing(models.Model):
    """Projection of the campaign log: one row per character in a campaign,
    read by the standings pages (never computed on request)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="standings")
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="standings")
    side = models.CharField(max_length=16, blank=True)
    rank = models.CharField(max_length=16, choices=Rank.choices, default=Rank.CORPORAL)
    awards = models.PositiveIntegerField(default=0)
    battles = models.PositiveIntegerField(default=0)
    kills = models.PositiveIntegerField(default=0)
    casualties = models.PositiveIntegerField(default=0)
    prestige = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "character"], name="standing_unique")]
        indexes = [models.Index(fields=["campaign", "-kills"], name="standing_kills")]


class CampaignProjection(models.Model):
    """Projection of the campaign log for the campaign page: scores per side,
    objective holders, progress over battles; stored with the last event id."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, primary_key=True, related_name="projection")
    last_event_id = models.BigIntegerField(default=0)
    data = models.JSONField(default=dict)
    updated_at = models.DateTimeField(default=timezone.now)


# --- formulary cards (V-FORM) -------------------------------------------------------
class CardKind(models.TextChoices):
    """V-FORM-2: one card kind for each of these."""

    CHARACTER = "character", _("character")
    AWARD = "award", _("award")
    UNIT = "unit", _("unit")
    VEHICLE = "vehicle", _("vehicle")
    UPGRADE = "upgrade", _("upgrade")
    AIR_SUPPORT = "air_support", _("air support")


hex_colour = RegexValidator(r"^#[0-9a-fA-F]{6}$", _("A colour as #rrggbb."))


class CardColour(models.Model):
    """The colours of one card kind (game data). G-17: the seed's sample cards
    are missing, so every row but the unit card's green base (V-FORM-7) is a
    placeholder the game master may change."""

    kind = models.CharField(_("card kind"), max_length=16, choices=CardKind.choices, unique=True)
    background = models.CharField(_("background"), max_length=7, validators=[hex_colour])
    ink = models.CharField(_("text and border"), max_length=7, validators=[hex_colour], default="#222222")
    is_placeholder = models.BooleanField(_("placeholder"), default=True,
                                         help_text=_("Default data not taken from the seed rules; check and edit it."))

    class Meta:
        verbose_name = _("card colours")
        verbose_name_plural = _("card colours")
        ordering = ["kind"]

    def __str__(self) -> str:
        return self.get_kind_display()


class CardEmblem(models.Model):
    """A nationality mark or an arm-of-service emblem printed on the cards
    (V-FORM-7: nationality bottom left, emblem bottom right). ``code`` is
    ``nation-<nationality code>`` or ``arm-<infantry|hq|group|motorised|artillery|air|tank|recon|train>``.
    The project ships an SVG for each; an uploaded SVG replaces it (G-17)."""

    code = models.SlugField(_("code"), max_length=40, unique=True)
    name_ru = models.CharField(_("name (Russian)"), max_length=100)
    name_en = models.CharField(_("name (English)"), max_length=100)
    image = models.FileField(_("SVG image"), upload_to="emblems/", blank=True,
                             validators=[FileExtensionValidator(["svg"])],
                             help_text=_("Empty: the emblem shipped with Shtab."))
    is_placeholder = models.BooleanField(_("placeholder"), default=True,
                                         help_text=_("Default data not taken from the seed rules; check and edit it."))

    class Meta:
        verbose_name = _("card emblem")
        verbose_name_plural = _("card emblems")
        ordering = ["code"]

    def __str__(self) -> str:
        return self.name_ru


class NotificationKind(models.TextChoices):
    """What a notification announces (campaign.notify)."""

    BATTLE_RESULT = "battle_result", _("battle result")
    AWARD_GRANTED = "award_granted", _("award approved")
    PROMOTION = "promotion", _("promotion approved")
    JOIN_REQUESTED = "join_requested", _("join request")


class WebhookDelivery(models.Model):
    """One notification POSTed to the club's webhook (campaign.notify): what
    it said, where it went, how it ended. The game master reads them in the
    admin; beat prunes those older than ``SHTAB["WEBHOOK_KEEP_DAYS"]``."""

    class Outcome(models.TextChoices):
        PENDING = "pending", _("being delivered")
        DELIVERED = "delivered", _("delivered")
        FAILED = "failed", _("failed")

    delivery_id = models.UUIDField(_("delivery id"), unique=True, editable=False,
                                   help_text=_("Sent in the body and the X-Shtab-Delivery header; the same on "
                                               "every retry, so a receiver can drop repeats."))
    kind = models.CharField(_("event"), max_length=32, choices=NotificationKind.choices)
    target = models.CharField(_("webhook address"), max_length=500,
                              help_text=_("Without its user name, password and query string."))
    subject = models.TextField(_("message"))
    outcome = models.CharField(_("outcome"), max_length=16, choices=Outcome.choices, default=Outcome.PENDING)
    status_code = models.PositiveSmallIntegerField(_("HTTP status"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        when = formats.date_format(timezone.localtime(self.created_at), "SHORT_DATETIME_FORMAT")
        return f"{self.get_kind_display()} · {when}"
