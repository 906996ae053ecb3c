"""The battle log and its projection.

``BattleEvent`` rows are the truth: a gapless ``seq`` per battle, a global
``position`` across battles, and nothing ever updated or deleted (model,
queryset, admin, API, and database triggers all refuse). ``BattleProjection``
is derived: the engine's state folded from the log, stored with the last seq
it includes; it can be rebuilt at any time and never moves backwards.
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from battles.engine.rules_data import DEFAULT_RULES
from battles.gamedata import OWNED_KEYS, owned_key_error
from config.appendonly import AppendOnlyModel, EventLogIsAppendOnly  # noqa: F401  (re-exported)


class Battle(models.Model):
    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.PROTECT, related_name="battles",
                                 verbose_name=_("campaign"))
    name = models.CharField(_("name"), max_length=200)
    number = models.PositiveIntegerField(_("number in campaign"), default=1)
    # V-TURN-7: the combat mission and victory conditions the game master writes.
    mission = models.TextField(_("mission"), blank=True)
    victory_conditions = models.TextField(_("victory conditions"), blank=True)
    turn_limit = models.PositiveSmallIntegerField(
        _("turn limit"), null=True, blank=True,
        help_text=_("The mission's number of turns; when they are played the page offers the end (V-TURN-7)."))
    scheduled_for = models.DateTimeField(_("scheduled for"), null=True, blank=True,
                                         help_text=_("When the battle is to be played at the table."))
    objectives = models.ManyToManyField("campaign.Objective", blank=True, related_name="battles",
                                        verbose_name=_("objectives at stake"),
                                        help_text=_("The winner takes these objectives."))
    # The rules data the battle is played under: the game master's overrides of
    # the engine defaults, snapshotted at the battle's first event, so editing
    # game data never silently changes a battle's replay (see RulesSetting).
    rules = models.JSONField(_("rules data"), null=True, blank=True, editable=False)
    # The log's head: seq of the last appended event. The write side's
    # concurrency token (optimistic `expected_seq`), never derived state.
    head_seq = models.PositiveIntegerField(_("last event seq"), default=0, editable=False)
    # Committed dice (battles.log.dice_commit): the secret every service die is derived from, set when
    # the battle is created (battles.services.battle_create) and never served until it is revealed
    # (battles.selectors.battle_dice_revealed); its commitment, public from the start; and the seq
    # of the first battle_ended, stored by the event store with that event: from then on the secret
    # is revealed and derives no die.
    dice_secret = models.CharField(_("dice secret"), max_length=64, blank=True, editable=False)
    dice_commitment = models.CharField(_("dice commitment"), max_length=64, blank=True, editable=False)
    dice_revealed_seq = models.PositiveIntegerField(_("dice secret revealed at event"), null=True, blank=True,
                                                    editable=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("battle")
        verbose_name_plural = _("battles")
        ordering = ["campaign_id", "number", "id"]

    def __str__(self) -> str:
        return self.name


class BattleParticipant(models.Model):
    """A character who fights in a battle, for one side, with the submitted
    roster he brings. The game master sets participants up; mustering turns
    the roster into the side's ``force_mustered`` event (``battles.setup.muster``)
    and keeps the roster's price and game-data version as they were then.
    Only participants (and the game master) write the battle's log."""

    class Side(models.TextChoices):
        ATTACKER = "attacker", _("attacker")
        DEFENDER = "defender", _("defender")

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="participants",
                               verbose_name=_("battle"))
    character = models.ForeignKey("campaign.Character", on_delete=models.PROTECT, related_name="battles_fought",
                                  verbose_name=_("character"))
    side = models.CharField(_("side"), max_length=16, choices=Side.choices)
    roster = models.ForeignKey("rosters.Roster", on_delete=models.PROTECT, null=True, blank=True,
                               related_name="participations", verbose_name=_("roster"))
    # Set by mustering: the force_mustered event and the roster as priced then.
    player = models.CharField(_("player key"), max_length=64, blank=True, editable=False,
                              help_text=_("Marks the pieces of his roster in the battle (set at the muster)."))
    mustered_seq = models.PositiveIntegerField(_("mustered at event"), null=True, blank=True, editable=False)
    mustered_total = models.PositiveIntegerField(_("mustered price, PP"), null=True, blank=True, editable=False)
    mustered_version = models.PositiveIntegerField(_("mustered game-data version"), null=True, blank=True,
                                                   editable=False)
    mustered_at = models.DateTimeField(_("mustered at"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        ordering = ["battle_id", "side", "id"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "character"], name="participant_unique_character"),
        ]

    def __str__(self) -> str:
        return f"{self.character} ({self.get_side_display()})"


class LogPosition(models.Model):
    """A single row holding the last global position handed out.

    Appends take this row's lock last, right before inserting, and hold it to
    commit. So positions become visible in order: a catch-up reader that has
    seen position P can never later find a committed event below P.
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    position = models.BigIntegerField(default=0)


class RulesDataVersion(models.Model):
    """A single row naming the state of the rules data a new battle snapshots
    (``selectors.rules_settings``: the rules settings, the infantry table, the
    roster rules). On PostgreSQL a trigger on each of those tables sets it to
    a new number from a sequence (a rollback never gives one back) in every
    statement that changes them, in the changing transaction. So a process
    may keep the snapshot it read at version V for as long as the row says V:
    the append that stores it checks the row in the same statement
    (docs/append.md). Only the triggers write it (and the read that recreates
    a lost row)."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    version = models.BigIntegerField(default=0)


class BattleEvent(AppendOnlyModel):
    # No index of its own: battleevent_unique_seq (battle, seq) serves every lookup by battle. A narrower
    # one-column index also tempted the planner, with stale statistics, to check the idempotency keys by
    # reading every event of the battle (bench/HISTORY.md, "Seventh pass").
    battle = models.ForeignKey(Battle, on_delete=models.PROTECT, related_name="events", verbose_name=_("battle"),
                               db_index=False)
    seq = models.PositiveIntegerField(_("seq"))
    position = models.BigIntegerField(_("global position"), unique=True)
    type = models.CharField(_("type"), max_length=64)
    data = models.JSONField(_("data"), default=dict)
    schema_version = models.PositiveSmallIntegerField(_("schema version"), default=1)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="+", verbose_name=_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)
    key = models.CharField(_("idempotency key"), max_length=128, null=True, blank=True)
    # The hash chain (battles.log.chain): set by the store on append; null only on a row written
    # around it, which the verifier reports.
    chain = models.CharField(_("chain"), max_length=64, null=True, blank=True)

    class Meta:
        verbose_name = _("battle event")
        verbose_name_plural = _("battle events")
        ordering = ["battle_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "seq"], name="battleevent_unique_seq"),
            models.UniqueConstraint(fields=["battle", "key"], condition=models.Q(key__isnull=False),
                                    name="battleevent_unique_key"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="battleevent_seq_positive"),
        ]
        indexes = [
            # Replay looks up every correction of a battle before folding it.
            models.Index(fields=["battle", "seq"], condition=models.Q(type="correction"),
                         name="battleevent_corrections"),
        ]

    def __str__(self) -> str:
        # Read by people (the admin's titles and inline rows): the log's entry number, never the type code.
        return gettext("entry %(seq)s") % {"seq": self.seq}


class BattleProjection(models.Model):
    battle = models.OneToOneField(Battle, on_delete=models.CASCADE, primary_key=True, related_name="projection")
    seq = models.PositiveIntegerField(_("last applied seq"), default=0)
    state = models.JSONField(_("state"), default=dict)
    engine_version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now)

    class Meta:
        verbose_name = _("battle projection")
        verbose_name_plural = _("battle projections")


class BattleEventOutcome(models.Model):
    """What one event did (``battles.engine.effects``): its dice with the number
    each needed and the fates it changed. Derived like the projection and
    written with it by the replay; a rebuild writes every row again."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="outcomes")
    seq = models.PositiveIntegerField(_("seq"))
    effects = models.JSONField(_("effects"), default=list)

    class Meta:
        verbose_name = _("event outcome")
        verbose_name_plural = _("event outcomes")
        constraints = [models.UniqueConstraint(fields=["battle", "seq"], name="battleeventoutcome_unique_seq")]

    def __str__(self) -> str:
        return f"{self.battle_id}#{self.seq}"


class RulesSetting(models.Model):
    """The game master's value for one engine rules-data key (thresholds,
    distances, the catalog's readings). Keys without a row use the engine's
    default (``battles.engine.rules_data``). Keys the game-data tables own
    (the infantry table, the roster rules: ``battles.gamedata.OWNED_KEYS``)
    are refused; an older row for one is ignored (shown as superseded).
    A battle takes a snapshot of the result at its first event."""

    key = models.CharField(_("key"), max_length=64, unique=True)
    value = models.JSONField(_("value"))
    note = models.TextField(_("note"), blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("rules setting")
        verbose_name_plural = _("rules settings")
        ordering = ["key"]

    def __str__(self) -> str:
        return self.key

    def clean(self) -> None:
        if self.key not in DEFAULT_RULES:
            raise ValidationError({"key": _("Unknown rules-data key.")})
        if self.key in OWNED_KEYS:  # one source of game data (issue 8): no second copy here
            raise ValidationError({"key": owned_key_error(self.key)})
        default = DEFAULT_RULES[self.key]
        if not _same_shape(default, self.value):
            raise ValidationError({"value": _("The value must have the shape of the default: %(d)s")
                                   % {"d": default}})


def _same_shape(default, value) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, (int, float)):
        return isinstance(value, (int, float))
    if isinstance(default, dict):
        return isinstance(value, dict) and set(value) <= set(default) and all(
            _same_shape(default[k], v) for k, v in value.items())
    if isinstance(default, (list, tuple)):
        return isinstance(value, list)
    return isinstance(value, type(default))
